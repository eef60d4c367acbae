/**
 * A revision made mid-run is reviewed less than the plan it replaces; it must not raise
 * what a step may do or add an external step without a person approving.
 */
import { riskRank } from "../../ir.js";
import { isGate } from "../revision.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "unsafe-revision",
  meta: {
    description: "A revision that raises a step's risk or adds an external step, without an approval gate.",
    defaultSeverity: "error",
    needsOriginal: true,
    messages: {
      riskRaised:
        'the revision raises the risk of step "{{step}}" from {{from}} to {{to}} without an approval gate; add approval: { required: true }',
      newExternal: 'the revision adds external step "{{step}}" without an approval gate; add approval: { required: true }',
    },
  },
  check(ctx) {
    const { graph, originalGraph, originalRisk: before } = ctx;
    if (!originalGraph || !before) return;
    const gatedAbove = graph.anyAncestor(isGate);
    // What each step will do (`risk`, `originalRisk`), not only its label: a command the revision chains on counts.
    graph.nodes.forEach((node, i) => {
      const gated = isGate(node) || gatedAbove[i] === 1;
      const old = originalGraph.node(node.id);
      const to = ctx.risk.risk(node);
      if (!old) {
        if (to === "external" && !gated) {
          ctx.report({ messageId: "newExternal", node: node.id, data: { step: node.id } });
        }
        return;
      }
      // A dropped gate is revision-removes-safeguard's finding.
      if (isGate(old) && !isGate(node)) return;
      // Effective risk starts from the stated one (label, tool, kind) and only raises it.
      const from = before.risk(old);
      if (riskRank(to) > riskRank(from) && !gated) {
        // Point at what raised the risk: an argument that does more than the label says, the
        // declared label, else the tool that implies it.
        const cause = ctx.risk.cause(node, to);
        const path = cause ? cause.path : !node.riskInferred ? ["risk"] : node.tool !== undefined ? ["tool"] : undefined;
        const report = { messageId: "riskRaised" as const, node: node.id, data: { step: node.id, from, to } };
        ctx.report(path ? { ...report, path } : report);
      }
    });
  },
});
