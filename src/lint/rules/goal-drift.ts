/**
 * A revision made mid-run must still pursue the original goal: the goal and the promised
 * deliverables stay, every deliverable keeps a producer, and new steps feed a deliverable.
 */
import type { IRNode, PlanIR } from "../../ir.js";
import type { PlanGraph } from "../../graph.js";
import { defineRule } from "../rule.js";
import { quoteList } from "../text.js";

export const rule = defineRule({
  id: "goal-drift",
  meta: {
    description: "A revised plan that changes the goal or deliverables, loses a producer, or adds steps that serve no deliverable.",
    defaultSeverity: "error",
    defaultConfidence: "medium",
    needsOriginal: true,
    messages: {
      goalChanged: 'the revision changes the plan goal (was "{{original}}"); keep the goal or start a new plan',
      deliverableRemoved: 'the revision drops deliverable "{{name}}"; keep it or start a new plan',
      deliverableAdded: 'the revision adds deliverable "{{name}}" that the original plan did not promise; drop it or start a new plan',
      producerLost:
        'deliverable "{{name}}" lost its producer (step "{{step}}" in the original); keep a step with output: {{name}}',
      newStepServesNothing:
        'new step "{{step}}" serves no deliverable: no step producing {{deliverables}} needs it; connect it or drop it',
    },
  },
  check(ctx) {
    const { ir, original } = ctx;
    if (!original) return;
    if (squash(ir.goal) !== squash(original.goal)) {
      ctx.report({ messageId: "goalChanged", path: ["goal"], data: { original: shorten(original.goal) } });
    }
    const now = new Set(ir.deliverables);
    const before = new Set(original.deliverables);
    for (const name of original.deliverables) {
      if (!now.has(name)) ctx.report({ messageId: "deliverableRemoved", path: ["deliverables"], data: { name } });
    }
    ir.deliverables.forEach((name, i) => {
      if (!before.has(name)) ctx.report({ messageId: "deliverableAdded", path: ["deliverables", i], data: { name } });
    });
    const { graph, originalGraph } = ctx;
    ir.deliverables.forEach((name, i) => {
      const was = originalGraph?.producer(name);
      if (was !== undefined && !graph.producer(name)) {
        ctx.report({ messageId: "producerLost", path: ["deliverables", i], data: { name, step: was.id } });
      }
    });
    reportNewStepsServingNothing(graph, original, (step) =>
      ctx.report({
        messageId: "newStepServesNothing",
        node: step,
        data: { step, deliverables: quoteList(ir.deliverables) },
      }),
    );
  },
});

/** Reports new steps that are neither a deliverable's producer nor an ancestor of one. */
function reportNewStepsServingNothing(graph: PlanGraph, original: PlanIR, report: (step: string) => void): void {
  // Without deliverables there is nothing to serve, so no step can be judged off target.
  if (graph.ir.deliverables.length === 0) return;
  const produces = (n: IRNode): boolean => graph.producesDeliverable(n);
  const feedsProducer = graph.anyDescendant(produces);
  const old = new Set(original.nodes.map((n) => n.id));
  graph.nodes.forEach((node, i) => {
    if (!old.has(node.id) && !produces(node) && !feedsProducer[i]) report(node.id);
  });
}

function squash(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

function shorten(text: string): string {
  const s = squash(text);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
