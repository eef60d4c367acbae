/**
 * What leaves the machine cannot be taken back: an external step should sit behind an
 * approval gate, on itself or on a step it (transitively) needs.
 */
import { highImpact, isGate } from "../impact.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "external-without-approval",
  meta: {
    description: "An external step with no approval gate on itself or above it (high-impact ones are high-impact-without-approval errors).",
    defaultSeverity: "warning",
    messages: {
      noApproval:
        'external step "{{step}}" runs without an approval gate; add approval: { required: true } to it or to a step it needs',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    let gatedAbove: Uint8Array | undefined;
    graph.nodes.forEach((node, i) => {
      if (ctx.risk.risk(node) !== "external" || isGate(node) || (gatedAbove ??= graph.anyAncestor(isGate))[i]) return;
      // Payments, production, public and bulk effects are the error rule's findings.
      if (highImpact(ctx.risk, node) !== undefined) return;
      ctx.report({ messageId: "noApproval", node: node.id, data: { step: node.id }, confidence: ctx.risk.confidence(node, "external") });
    });
  },
});
