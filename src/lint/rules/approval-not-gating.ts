/**
 * An approval gates only what waits for it. An approval step whose effects do not need
 * it (they run on a parallel branch, or before it) is a form someone signs while the
 * emails go out anyway.
 */
import { riskRank } from "../../ir.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "approval-not-gating",
  meta: {
    description: "An approval step that no write or external step depends on, while the plan's effects run beside or before it.",
    defaultSeverity: "error",
    messages: {
      parallel:
        'approval "{{step}}" gates nothing: "{{effect}}" does not need it and runs on a parallel branch; add "{{step}}" to the needs of "{{effect}}"',
      before: 'approval "{{step}}" gates nothing: "{{effect}}" runs before it; make "{{effect}}" need "{{step}}"',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    if (!graph.nodes.some((n) => n.kind === "approval")) return;
    const effect = graph.nodes.map((n) => n.kind !== "approval" && n.kind !== "verify" && riskRank(ctx.risk.risk(n)) >= 1);
    const effectBelow = graph.anyDescendant((n) => effect[graph.indexOf.get(n.id)!]!);
    const effects = graph.nodes.filter((_, i) => effect[i]);
    if (effects.length === 0) return;
    graph.nodes.forEach((node, i) => {
      if (node.kind !== "approval" || effectBelow[i]) return;
      // The effect it was most likely meant for: an external one on a parallel branch first.
      const rank = (n: (typeof effects)[number]) => riskRank(ctx.risk.risk(n)) * 2 + (graph.isAncestor(n.id, node.id) ? 0 : 1);
      const target = effects.reduce((a, b) => (rank(b) > rank(a) ? b : a));
      const before = graph.isAncestor(target.id, node.id);
      ctx.report({
        messageId: before ? "before" : "parallel",
        node: node.id,
        data: { step: node.id, effect: target.id },
        confidence: ctx.risk.confidence(target, "write"),
      });
    });
  },
});
