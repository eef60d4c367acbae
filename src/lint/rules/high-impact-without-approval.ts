/**
 * Severity by blast radius: a refund, a production change, a public release or the same
 * email to five hundred people cannot be taken back, so a person must approve it first.
 * Lower-impact external effects stay `external-without-approval` warnings.
 */
import { highImpact, isGate } from "../impact.js";
import { defineRule } from "../rule.js";

const WHAT = { payment: "moves money", production: "changes production", public: "publishes to the public", bulk: "repeats an external effect in bulk" };

export const rule = defineRule({
  id: "high-impact-without-approval",
  meta: {
    description: "A payment, production, public or bulk (for_each) effect with no approval gate on itself or above it.",
    defaultSeverity: "error",
    defaultOptions: { bulkItems: 10 },
    messages: {
      noApproval:
        'step "{{step}}" {{what}} ({{reason}}) without an approval gate; add approval: { required: true, approvers: [...] } to it or to a step it needs',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    const bulkItems = Number(ctx.options.bulkItems ?? 10);
    let gatedAbove: Uint8Array | undefined;
    graph.nodes.forEach((node, i) => {
      if (isGate(node)) return;
      const hit = highImpact(ctx.risk, node, bulkItems);
      if (!hit || (gatedAbove ??= graph.anyAncestor(isGate))[i]) return;
      ctx.report({
        messageId: "noApproval",
        node: node.id,
        data: { step: node.id, what: WHAT[hit.impact], reason: hit.reason },
        confidence: hit.confidence,
      });
    });
  },
});
