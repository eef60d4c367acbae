/**
 * The soft half of goal drift: a step added by a revision whose goal shares no content
 * word with the plan's goal or deliverables is probably about something else.
 */
import { defineRule } from "../rule.js";
import { contentWordSet, contentWords } from "../text.js";

export const rule = defineRule({
  id: "off-goal-step",
  meta: {
    description: "A step added by a revision whose goal shares no content word with the plan goal.",
    defaultSeverity: "warning",
    defaultConfidence: "low",
    needsOriginal: true,
    messages: {
      offGoal: 'new step "{{step}}" shares no words with the plan goal; check that it belongs to this plan or say how it serves the goal',
    },
  },
  check(ctx) {
    const { ir, original } = ctx;
    if (!original) return;
    const goalWords = contentWordSet(`${ir.goal} ${ir.deliverables.join(" ").replace(/[_-]/g, " ")}`);
    if (goalWords.size === 0) return;
    const old = new Set(original.nodes.map((n) => n.id));
    for (const node of ir.nodes) {
      if (old.has(node.id)) continue;
      const words = contentWords(node.goal);
      if (words.length > 0 && !words.some((w) => goalWords.has(w))) {
        ctx.report({ messageId: "offGoal", node: node.id, path: ["goal"], data: { step: node.id } });
      }
    }
  },
});
