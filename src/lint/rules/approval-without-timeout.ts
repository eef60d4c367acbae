/**
 * People go on holiday: an approval without a timeout can leave a run paused (and its
 * resources held) for ever.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "approval-without-timeout",
  meta: {
    description: "An approval gate without a timeout.",
    defaultSeverity: "warning",
    messages: {
      noTimeout: 'approval of step "{{step}}" has no timeout, so the run may wait for ever; add approval.timeout (e.g. 24h)',
    },
  },
  check(ctx) {
    for (const node of ctx.ir.nodes) {
      if (node.approval?.required !== true || node.approval.timeoutMs !== undefined) continue;
      ctx.report({ messageId: "noTimeout", node: node.id, path: ["approval"], data: { step: node.id } });
    }
  },
});
