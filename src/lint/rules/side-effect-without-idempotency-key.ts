/**
 * An external side effect (an email, a payment, an API call) may run twice after a retry
 * or a crash-resume; an idempotency key lets the runtime recognise the repeat.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "side-effect-without-idempotency-key",
  meta: {
    description: "An external step without an idempotency_key.",
    defaultSeverity: "error",
    messages: {
      missingKey:
        'external step "{{step}}" has no idempotency_key, so a retry or resume may repeat its side effect; add idempotency_key',
      missingKeyInferred:
        'step "{{step}}" acts externally ({{reason}}) and has no idempotency_key, so a retry or resume may repeat its side effect; add idempotency_key',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    for (const node of graph.nodes) {
      if (node.kind === "approval" || node.idempotencyKey !== undefined) continue;
      if (ctx.risk.risk(node) !== "external") continue;
      const cause = ctx.risk.cause(node, "external");
      ctx.report({
        messageId: cause ? "missingKeyInferred" : "missingKey",
        node: node.id,
        data: cause ? { step: node.id, reason: cause.reason } : { step: node.id },
        confidence: ctx.risk.confidence(node, "external"),
        hint: 'derive it from the run and the target, e.g. idempotency_key: "${{ run.id }}:send:${{ inputs.recipient }}"',
      });
    }
  },
});
