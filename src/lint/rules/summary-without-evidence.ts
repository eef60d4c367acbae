/**
 * A summary of changes must report checked results, not intentions: a summarize step
 * downstream of a write needs a verify step between the write and itself (one that
 * itself comes after a write). A summary of reads has nothing to verify.
 */
import { riskRank } from "../../ir.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "summary-without-evidence",
  meta: {
    description: "A summarize step downstream of a write with no verify step between the write and the summary.",
    defaultSeverity: "warning",
    messages: {
      noVerify:
        'summary step "{{step}}" reports on the write of "{{write}}" but no verify step checks it first; make it need the step that checks the writes',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    if (!graph.nodes.some((n) => n.kind === "summarize")) return;
    const writes = (n: (typeof graph.nodes)[number]): boolean => n.kind !== "verify" && n.kind !== "summarize" && riskRank(ctx.risk.risk(n)) >= 1;
    if (!graph.nodes.some(writes)) return;
    const writeAbove = graph.anyAncestor(writes);
    // A verify step that itself comes after a write checks that write.
    const verifiedAbove = graph.anyAncestor((n) => n.kind === "verify" && writeAbove[graph.indexOf.get(n.id)!] === 1);
    graph.nodes.forEach((node, i) => {
      if (node.kind !== "summarize" || !writeAbove[i] || verifiedAbove[i]) return;
      const write = graph.ancestors(node.id).find(writes)!;
      ctx.report({ messageId: "noVerify", node: node.id, data: { step: node.id, write: write.id }, confidence: ctx.risk.confidence(write, "write") });
    });
  },
});
