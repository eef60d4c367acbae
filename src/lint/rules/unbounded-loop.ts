/**
 * Planners loop until something happens; a loop the runtime cannot bound burns the
 * budget. Every repetition needs a count and every run a run-level limit.
 */
import { defineRule } from "../rule.js";

// Goal phrasings that promise to go on until an outcome, seen in generated plans.
const OPEN_ENDED =
  /\b(until (?:it |they |the \w+ )?(?:is |are )?(?:found|works?|passe?s|succeeds?|successful|fixed|green|resolved|done)|keep (?:on )?(?:trying|retrying|going|looping|polling|searching|checking|iterating)|keep (?:on )?[a-z]+ing (?:[a-z]+ ){0,4}until|try again until|as (?:many times|long) as (?:needed|necessary|it takes)|indefinitely|forever|over and over|no matter how long)\b/i;

export const rule = defineRule({
  id: "unbounded-loop",
  meta: {
    description: "A repeat, for_each or retry without a bound, an open-ended goal, or a plan without run-level limits.",
    defaultSeverity: "error",
    messages: {
      repeatUnbounded: 'step "{{step}}" repeats without max_attempts; add repeat.max_attempts',
      forEachUnbounded: 'step "{{step}}" iterates for_each without max_items; add for_each.max_items',
      retryUnbounded: 'step "{{step}}" retries without max_attempts; add retry.max_attempts',
      openEndedGoal: 'step "{{step}}" means to go on "{{phrase}}" but nothing bounds it; add repeat with max_attempts',
      noLimits: "the plan sets no run-level limits; add limits.run_timeout or limits.max_tool_calls",
    },
  },
  check(ctx) {
    const { ir } = ctx;
    for (const node of ir.nodes) {
      const data = { step: node.id };
      if (node.repeat && node.repeat.maxAttempts === undefined) {
        ctx.report({ messageId: "repeatUnbounded", node: node.id, path: ["repeat"], data });
      }
      if (node.forEach && node.forEach.maxItems === undefined) {
        ctx.report({ messageId: "forEachUnbounded", node: node.id, path: ["for_each"], data });
      }
      if (node.retry && node.retry.maxAttempts === undefined) {
        ctx.report({ messageId: "retryUnbounded", node: node.id, path: ["retry"], data });
      }
      // A step that repeats (bounded or already reported) or iterates a bounded list is not
      // open-ended whatever its goal says.
      const looped = node.repeat !== undefined || node.forEach?.maxItems !== undefined;
      const m = looped ? null : OPEN_ENDED.exec(node.goal);
      if (m) {
        // A phrase in the goal is a reading of words, not a fact about the loop.
        ctx.report({ messageId: "openEndedGoal", node: node.id, path: ["goal"], data: { step: node.id, phrase: m[1]! }, confidence: "medium" });
      }
    }
    if (ir.limits.runTimeoutMs === undefined && ir.limits.maxToolCalls === undefined) {
      ctx.report({
        messageId: "noLimits",
        path: ["limits"],
        hint: "a run-level limit terminates the run whatever the steps do, e.g. limits: { run_timeout: 30m, max_tool_calls: 100 }",
      });
    }
  },
});
