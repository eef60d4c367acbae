/**
 * A bound is only a bound if it is one a reviewer would accept: `max_attempts: 10000`
 * satisfies `unbounded-loop` and still burns the budget, hammers the service and hides
 * a plan that cannot finish. Caps are options, so a team can raise one deliberately.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "excessive-bound",
  meta: {
    description: "A retry max_attempts, repeat max_attempts or for_each max_items above a configurable cap.",
    defaultSeverity: "error",
    defaultOptions: { maxRetryAttempts: 10, maxRepeatAttempts: 100, maxForEachItems: 1000 },
    messages: {
      retry: 'step "{{step}}" retries up to {{value}} times, more than the cap of {{cap}}; lower retry.max_attempts or fail and report',
      repeat:
        'step "{{step}}" repeats up to {{value}} times, more than the cap of {{cap}}; lower repeat.max_attempts and poll with a repeat.delay',
      forEach:
        'step "{{step}}" iterates up to {{value}} items, more than the cap of {{cap}}; lower for_each.max_items or split the work into batches',
    },
  },
  check(ctx) {
    const caps = {
      retry: Number(ctx.options.maxRetryAttempts ?? 10),
      repeat: Number(ctx.options.maxRepeatAttempts ?? 100),
      forEach: Number(ctx.options.maxForEachItems ?? 1000),
    };
    for (const node of ctx.ir.nodes) {
      const found: Array<["retry" | "repeat" | "forEach", number | undefined, string[]]> = [
        ["retry", node.retry?.maxAttempts, ["retry", "max_attempts"]],
        ["repeat", node.repeat?.maxAttempts, ["repeat", "max_attempts"]],
        ["forEach", node.forEach?.maxItems, ["for_each", "max_items"]],
      ];
      for (const [messageId, value, path] of found) {
        if (value === undefined || value <= caps[messageId]) continue;
        ctx.report({ messageId, node: node.id, path, data: { step: node.id, value, cap: caps[messageId] } });
      }
    }
  },
});
