/**
 * A side effect that hangs holds its resources (a lock, a half-written file, an open
 * transaction) until someone notices; a timeout turns the hang into a retry or a failure.
 */
import { riskRank } from "../../ir.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "risky-step-without-timeout",
  meta: {
    description: "A write or external step with neither a step timeout nor a default timeout.",
    defaultSeverity: "warning",
    messages: {
      noTimeout: 'step "{{step}}" has {{risk}} effects but no timeout; set timeout on it or defaults.timeout',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    for (const node of graph.nodes) {
      const risk = ctx.risk.risk(node);
      if (riskRank(risk) < 1 || node.timeoutMs !== undefined || node.kind === "approval") continue;
      ctx.report({ messageId: "noTimeout", node: node.id, data: { step: node.id, risk }, confidence: ctx.risk.confidence(node, risk) });
    }
  },
});
