/**
 * A phase the planner expands at run time is an open cheque: without max_steps the
 * refinement can grow the plan without limit.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "phase-without-bounds",
  meta: {
    description: "A phase expanded by the planner without max_steps.",
    defaultSeverity: "warning",
    messages: {
      unbounded: 'phase "{{step}}" is expanded by the planner without max_steps; add max_steps',
    },
  },
  check(ctx) {
    for (const node of ctx.ir.nodes) {
      if (node.kind !== "phase" || node.phase?.expand !== "planner" || node.phase.maxSteps !== undefined) continue;
      ctx.report({ messageId: "unbounded", node: node.id, path: ["expand"], data: { step: node.id } });
    }
  },
});
