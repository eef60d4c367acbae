/**
 * The deliverables are what the goal promises; one that no step outputs will never exist,
 * however well the rest of the plan runs.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "missing-deliverable",
  meta: {
    description: "A deliverable that no step produces.",
    defaultSeverity: "error",
    messages: {
      missing: 'deliverable "{{name}}" is produced by no step; add a step with output: {{name}} or drop it from deliverables',
    },
  },
  check(ctx) {
    const { ir, graph } = ctx;
    ir.deliverables.forEach((name, i) => {
      if (!graph.producer(name)) ctx.report({ messageId: "missing", path: ["deliverables", i], data: { name } });
    });
  },
});
