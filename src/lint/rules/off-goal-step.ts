/**
 * The soft half of goal drift: a step added by a revision is probably about something
 * else when its goal shares no content word with the plan's goal or deliverables, or
 * when it is unrelated to the original steps: connected to none of them (it neither needs
 * nor feeds one) and calling a tool none of them called. Sharing words with the goal is
 * easy for a model; plugging into the work the plan already does is not.
 */
import { defineRule } from "../rule.js";
import { contentWordSet, contentWords } from "../text.js";

export const rule = defineRule({
  id: "off-goal-step",
  meta: {
    description: "A step added by a revision whose goal shares no content word with the plan goal, or that is unrelated to the original steps.",
    defaultSeverity: "warning",
    defaultConfidence: "low",
    needsOriginal: true,
    messages: {
      offGoal: 'new step "{{step}}" shares no words with the plan goal; check that it belongs to this plan or say how it serves the goal',
      unrelated:
        'new step "{{step}}" is unrelated to the original steps: it neither needs nor feeds any of them, and none of them calls {{tool}}; connect it to the work it serves or drop it',
    },
  },
  check(ctx) {
    const { ir, original } = ctx;
    if (!original) return;
    const goalWords = contentWordSet(`${ir.goal} ${ir.deliverables.join(" ").replace(/[_-]/g, " ")}`);
    if (goalWords.size === 0) return;
    const old = new Set(original.nodes.map((n) => n.id));
    const oldTools = new Set(original.nodes.flatMap((n) => n.allowedTools));
    const { graph } = ctx;
    const isOld = (n: { id: string }) => old.has(n.id);
    const feedsOld = graph.anyDescendant(isOld);
    const fedByOld = graph.anyAncestor(isOld);
    graph.nodes.forEach((node, i) => {
      if (old.has(node.id)) return;
      const words = contentWords(node.goal);
      if (words.length > 0 && !words.some((w) => goalWords.has(w))) {
        ctx.report({ messageId: "offGoal", node: node.id, path: ["goal"], data: { step: node.id } });
      } else if (original.nodes.length > 0 && !feedsOld[i] && !fedByOld[i] && !node.allowedTools.some((t) => oldTools.has(t))) {
        const tool = node.allowedTools.length ? node.allowedTools.map((t) => `"${t}"`).join(" or ") : "no tool";
        ctx.report({ messageId: "unrelated", node: node.id, path: ["goal"], data: { step: node.id, tool } });
      }
    });
  },
});
