/**
 * A `repeat` is a poll: without a delay it calls the tool back to back, so it spends its
 * attempts in milliseconds (before the job it waits for could finish) and hammers the
 * service it polls.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "poll-without-delay",
  meta: {
    description: "A repeat loop (polling) with no delay between attempts.",
    defaultSeverity: "warning",
    messages: {
      noDelay:
        'step "{{step}}" polls {{attempts}} with no delay between attempts; add repeat.delay (e.g. 30s) so the wait outlasts the work',
    },
  },
  check(ctx) {
    for (const node of ctx.ir.nodes) {
      const r = node.repeat;
      if (!r || (r.delayMs ?? 0) > 0 || r.maxAttempts === 1) continue;
      ctx.report({ messageId: "noDelay", node: node.id, path: ["repeat"], data: { step: node.id, attempts: r.maxAttempts === undefined ? "without a bound" : `up to ${r.maxAttempts} times` } });
    }
  },
});
