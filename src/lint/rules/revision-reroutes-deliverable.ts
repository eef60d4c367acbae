/**
 * A revision that keeps a deliverable's name but has another step, tool or kind produce
 * it delivers something else under the old name: the reviewer of the original plan
 * approved how the deliverable is made, not only that it exists.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "revision-reroutes-deliverable",
  meta: {
    description: "A revision in which a deliverable is produced by another step, tool or kind than in the original.",
    defaultSeverity: "error",
    needsOriginal: true,
    messages: {
      otherStep: 'the revision has step "{{step}}" produce deliverable "{{name}}" instead of step "{{was}}"; keep the original producer or start a new plan',
      otherTool: 'the revision changes the tool that produces deliverable "{{name}}" (step "{{step}}") from {{was}} to {{now}}; keep the tool or start a new plan',
      otherKind: 'the revision changes step "{{step}}", which produces deliverable "{{name}}", from kind {{was}} to {{now}}; keep the kind or start a new plan',
    },
  },
  check(ctx) {
    const { graph, originalGraph } = ctx;
    if (!originalGraph) return;
    for (const name of new Set(graph.ir.deliverables)) {
      const was = originalGraph.producer(name);
      const now = graph.producer(name);
      // A deliverable dropped or left without a producer is goal-drift's finding.
      if (!was || !now) continue;
      // A step refined or replanned into sub-steps (`<step>.<sub>`, planspec refine/replan) still makes it.
      if (now.id.startsWith(`${was.id}.`)) continue;
      const data = { name, step: now.id };
      if (was.id !== now.id) ctx.report({ messageId: "otherStep", node: now.id, path: ["output"], data: { ...data, was: was.id } });
      else if (was.tool !== now.tool) {
        ctx.report({ messageId: "otherTool", node: now.id, path: ["tool"], data: { ...data, was: toolName(was.tool), now: toolName(now.tool) } });
      } else if (was.kind !== now.kind) ctx.report({ messageId: "otherKind", node: now.id, path: ["kind"], data: { ...data, was: was.kind, now: now.kind } });
    }
  },
});

function toolName(tool: string | undefined): string {
  return tool === undefined ? "no tool" : `"${tool}"`;
}
