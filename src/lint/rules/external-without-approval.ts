/**
 * What leaves the machine cannot be taken back: an external step should sit behind an
 * approval gate, on itself or on a step it (transitively) needs.
 */
import type { IRNode } from "../../ir.js";
import { defineRule } from "../rule.js";

const isGate = (n: IRNode): boolean => n.approval?.required === true || n.kind === "approval";

export const rule = defineRule({
  id: "external-without-approval",
  meta: {
    description: "An external step with no approval gate on itself or above it.",
    defaultSeverity: "warning",
    messages: {
      noApproval:
        'external step "{{step}}" runs without an approval gate; add approval: { required: true } to it or to a step it needs',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    const gatedAbove = graph.anyAncestor(isGate);
    graph.nodes.forEach((node, i) => {
      if (graph.effectiveRisk(node) !== "external" || isGate(node) || gatedAbove[i]) return;
      ctx.report({ messageId: "noApproval", node: node.id, data: { step: node.id } });
    });
  },
});
