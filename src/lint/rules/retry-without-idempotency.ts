/**
 * A write that is retried after a timeout may have succeeded the first time: without an
 * idempotency key the retry appends, charges or creates twice.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "retry-without-idempotency",
  meta: {
    description: "A write step retried more than once without an idempotency_key.",
    defaultSeverity: "warning",
    messages: {
      retried:
        'step "{{step}}" retries a write up to {{attempts}} times without an idempotency_key; add idempotency_key or set retry.max_attempts: 1',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    for (const node of graph.nodes) {
      // External steps without a key are `side-effect-without-idempotency-key` findings; a
      // verify step that runs code and a phase re-run harmlessly.
      if (ctx.risk.risk(node) !== "write" || node.idempotencyKey !== undefined) continue;
      if (node.kind === "verify" || node.kind === "phase") continue;
      const attempts = node.retry?.maxAttempts;
      if (attempts === undefined || attempts <= 1) continue;
      // No path: the retry usually comes from `defaults`, so the step is the place to fix.
      ctx.report({ messageId: "retried", node: node.id, data: { step: node.id, attempts }, confidence: ctx.risk.confidence(node, "write") });
    }
  },
});
