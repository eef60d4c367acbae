/**
 * A criterion has to be able to fail. A judge text that only restates the goal ("the code
 * is understood") or a check that reads nothing (`${{ true }}`) passes whatever happened.
 */
import type { IRNode, PlanIR } from "../../ir.js";
import { defineRule } from "../rule.js";
import { contentWordSet, contentWords, expressionRoots, stem } from "../text.js";

// Words that praise a result without saying what it must contain, stemmed like content
// words so that inflections ("handled", "achieves") match too.
const VAGUE = new Set(
  (
    "understand understood understanding know known good fine correct correctly proper properly reasonable " +
    "reasonably appropriate appropriately adequate adequately acceptable satisfactory sensible sound solid nice " +
    "better best great clear clearly well sense make sure ok okay work look seem right complete completely " +
    "finish done success successful successfully achieve goal result outcome answer address handle meet met " +
    "requirement expectation expect satisfy satisfied happy everything fully thorough thoroughly quality valid " +
    "relevant accurate accurately"
  )
    .split(" ")
    .map(stem),
);

// A cheap first test: a check that names one of the roots reads something (a root that
// only appears inside a string literal is a miss this rule accepts).
const READS = /\b(?:output|steps|inputs|run|item)\b/;

// A digit, a quote, a path, a file name or a code identifier names something checkable.
const ARTEFACT = /\d|[`'"]|\/|\b\w+\.[a-z]{1,5}\b|[a-z0-9]_[a-z0-9]|[a-z][A-Z]/;

export const rule = defineRule({
  id: "vague-success-criteria",
  meta: {
    description: "Success criteria that cannot fail: judge text restating the goal, or checks that read nothing.",
    defaultSeverity: "warning",
    defaultConfidence: "low",
    messages: {
      vagueJudge:
        'success criterion of step "{{step}}" only restates the goal ("{{text}}"); name a concrete artefact or add a check or evidence',
      constantCheck: 'success check of step "{{step}}" reads nothing ({{expr}}) so it cannot fail; check the output',
    },
  },
  check(ctx) {
    for (const node of ctx.ir.nodes) {
      node.success.forEach((c, i) => {
        if (c.check !== undefined && !READS.test(c.check) && expressionRoots(c.check).size === 0) {
          ctx.report({
            messageId: "constantCheck",
            node: node.id,
            path: ["success", i, "check"],
            data: { step: node.id, expr: c.check.trim() },
          });
        }
      });
      // A judge beside a check or evidence is a second opinion, not the only test.
      if (node.success.some((c) => c.check !== undefined || c.evidence !== undefined)) continue;
      node.success.forEach((c, i) => {
        if (c.judge !== undefined && isVague(c.judge, node, ctx.ir)) {
          ctx.report({
            messageId: "vagueJudge",
            node: node.id,
            path: ["success", i, "judge"],
            data: { step: node.id, text: c.judge.length > 50 ? `${c.judge.slice(0, 47)}...` : c.judge },
          });
        }
      });
    }
  },
});

/** Vague: names no artefact and adds fewer than two words beyond the goals and praise. */
function isVague(judge: string, node: IRNode, ir: PlanIR): boolean {
  if (ARTEFACT.test(judge)) return false;
  const goals = contentWordSet(`${node.goal} ${ir.goal}`);
  const fresh = contentWords(judge).filter((w) => !VAGUE.has(w) && !goals.has(w));
  return fresh.length < 2;
}
