/**
 * Debugging practice: a hypothesis is not a fact until checked. A step that acts on a
 * hypothesis must come after (transitively need) every step that verifies it.
 */
import { defineRule } from "../rule.js";
import { quoteList } from "../text.js";

export const rule = defineRule({
  id: "unverified-hypothesis",
  meta: {
    description: "A step that assumes a hypothesis without (transitively) needing the steps that verify it.",
    defaultSeverity: "error",
    messages: {
      notVerified: 'step "{{step}}" assumes hypothesis "{{hypothesis}}" before it is verified; add {{verifiers}} to its needs',
      noVerifier: 'step "{{step}}" assumes hypothesis "{{hypothesis}}", which no step verifies; give it verify_by steps',
    },
  },
  check(ctx) {
    const { ir, graph } = ctx;
    for (const node of ir.nodes) {
      node.assumes.forEach((h, i) => {
        const hyp = ir.hypotheses[h];
        if (!hyp) return;
        const data = { step: node.id, hypothesis: h };
        if (hyp.verifyBy.length === 0) {
          ctx.report({ messageId: "noVerifier", node: node.id, path: ["assumes", i], data });
          return;
        }
        // A verifier may itself assume what it tests; it only needs the other verifiers.
        const missing = hyp.verifyBy.filter((v) => v !== node.id && !graph.isAncestor(v, node.id));
        if (missing.length > 0) {
          ctx.report({
            messageId: "notVerified",
            node: node.id,
            path: ["assumes", i],
            data: { ...data, verifiers: quoteList(missing) },
          });
        }
      });
    }
  },
});
