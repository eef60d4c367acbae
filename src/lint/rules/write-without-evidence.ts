/**
 * A step that changes something must first look at what it changes: a write or external
 * step needs a read, search or verify step among the steps it (transitively) consumes.
 * "Changes" is the effective risk: a `DROP TABLE` through a "read" tool is a write.
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
      const risk = ctx.risk.of(node);
      if (riskRank(risk.risk) < 1 || informed[i]) return;
      const cause = ctx.risk.cause(node, risk.risk) ?? (risk.destructive ? ctx.risk.destructiveCause(node) : undefined);
      const verb = risk.destructive ? "makes a destructive change" : risk.risk === "external" ? "acts externally" : "writes";
      ctx.report({
        messageId: "noEvidence",
        node: node.id,
        data: { step: node.id, verb: cause ? `${verb} (${cause.reason})` : verb },
        confidence: ctx.risk.confidence(node, "write"),
        hint: "read the file, record or page it changes (or verify the state) first, and reference that step's output",
      });
    });
  },
});
