/**
 * An output nobody reads is work the plan pays for and throws away, or a sign that the
 * step meant to feed it was wired to the wrong input. A last step that acts (its output
 * is the receipt of the effect) or verifies (its output is the verdict) is exempt.
 */
import { riskRank } from "../../ir.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "unused-output",
  meta: {
    description: "A step output that no step consumes and that is not a deliverable (terminal side-effect and verify steps exempt).",
    defaultSeverity: "warning",
    messages: {
      unused:
        'output "{{output}}" of step "{{step}}" is never used and is not a deliverable; consume it, list it in deliverables or drop it',
    },
  },
  check(ctx) {
    const { ir, graph } = ctx;
    // A format without deliverables (an imported TaskBench plan) returns its final results.
    if (ctx.imported?.cannotExpress.includes("deliverables")) return;
    const consumed = new Set<string>();
    for (const n of ir.nodes) for (const c of n.consumes) consumed.add(c);
    for (const node of ir.nodes) {
      if (node.output === undefined || consumed.has(node.id) || graph.producesDeliverable(node)) continue;
      const terminal = graph.children[graph.indexOf.get(node.id)!]!.length === 0;
      if (terminal && (node.kind === "verify" || riskRank(ctx.risk.risk(node)) >= 1)) continue;
      ctx.report({ messageId: "unused", node: node.id, path: ["output"], data: { step: node.id, output: node.output } });
    }
  },
});
