/**
 * An approval anyone may give is no gate: naming the approvers says whose judgement the
 * side effect waits for, and lets `planspec approve` refuse anyone else.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "approval-without-approvers",
  meta: {
    description: "An approval gate that names no approvers.",
    defaultSeverity: "warning",
    messages: {
      noApprovers: 'approval of step "{{step}}" names no approvers; add approval.approvers',
    },
  },
  check(ctx) {
    for (const node of ctx.ir.nodes) {
      if (node.approval?.required !== true || node.approval.approvers.length > 0) continue;
      ctx.report({ messageId: "noApprovers", node: node.id, path: ["approval"], data: { step: node.id } });
    }
  },
});
