/**
 * A `when` added on the way to what the plan delivers makes part of the work optional:
 * "refund every duplicate charge" becomes "refund the ones the filter lets through",
 * and the run still ends `done`. A revision must not narrow the task that quietly.
 */
import { defineRule } from "../rule.js";
import { expressionShape, onDeliveryPath, squash } from "../revision.js";

export const rule = defineRule({
  id: "revision-adds-filter",
  meta: {
    description: "A revision that adds or changes a `when` filter on a step on the path to a deliverable.",
    defaultSeverity: "error",
    needsOriginal: true,
    messages: {
      added: 'the revision adds a filter to step "{{step}}", which leads to what the plan delivers: when {{when}}; drop it or start a new plan',
      changed: 'the revision changes the filter of step "{{step}}" (was: when {{was}}); keep it or start a new plan',
      newStep: 'the revision adds step "{{step}}" with a filter on the path to what the plan delivers: when {{when}}; drop the filter or start a new plan',
    },
  },
  check(ctx) {
    const { graph, originalGraph } = ctx;
    if (!originalGraph) return;
    const onPath = onDeliveryPath(graph);
    graph.nodes.forEach((node, i) => {
      if (node.when === undefined || !onPath[i]) return;
      const before = originalGraph.node(node.id);
      const data = { step: node.id, when: squash(node.when) };
      if (!before) ctx.report({ messageId: "newStep", node: node.id, path: ["when"], data });
      else if (before.when === undefined) ctx.report({ messageId: "added", node: node.id, path: ["when"], data });
      else if (expressionShape(before.when) !== expressionShape(node.when)) ctx.report({ messageId: "changed", node: node.id, path: ["when"], data: { ...data, was: squash(before.when) } });
    });
  },
});
