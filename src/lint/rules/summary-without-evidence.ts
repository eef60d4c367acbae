/**
 * In a plan that changes things, a summary must report checked results, not intentions:
 * a summarize step needs a verify step among its ancestors.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "summary-without-evidence",
  meta: {
    description: "A summarize step with no verify step above it in a plan that writes.",
    defaultSeverity: "warning",
    messages: {
      noVerify:
        'summary step "{{step}}" rests on no verify step although the plan writes; make it need the step that checks the writes',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    if (!graph.nodes.some((n) => n.kind === "write" || graph.effectiveRisk(n) === "write")) return;
    const verified = graph.anyAncestor((n) => n.kind === "verify");
    graph.nodes.forEach((node, i) => {
      if (node.kind !== "summarize" || verified[i]) return;
      ctx.report({ messageId: "noVerify", node: node.id, data: { step: node.id } });
    });
  },
});
