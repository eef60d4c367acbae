/**
 * A step that changes something must first look at what it changes: a write or external
 * step needs a read, search or verify step among the steps it (transitively) consumes.
 */
import { riskRank } from "../../ir.js";
import { defineRule } from "../rule.js";

const EVIDENCE_KINDS: ReadonlySet<string> = new Set(["read", "search", "verify"]);

export const rule = defineRule({
  id: "write-without-evidence",
  meta: {
    description: "A write or external step that consumes no read, search or verify step, directly or transitively.",
    defaultSeverity: "error",
    messages: {
      noEvidence:
        'step "{{step}}" {{verb}} without evidence: no read, search or verify step feeds it; make it consume one',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    const informed = graph.anyConsumed((n) => EVIDENCE_KINDS.has(n.kind));
    graph.nodes.forEach((node, i) => {
      const risk = graph.effectiveRisk(node);
      if (riskRank(risk) < 1 || informed[i]) return;
      ctx.report({
        messageId: "noEvidence",
        node: node.id,
        data: { step: node.id, verb: risk === "external" ? "acts externally" : "writes" },
        hint: "read the file, record or page it changes (or verify the state) first, and reference that step's output",
      });
    });
  },
});
