/**
 * A step without success criteria is "done" when its tool returns, whatever it returned;
 * the run cannot tell a wrong result from a right one.
 */
import { IMPORT_KEY } from "../import-mark.js";
import { defineRule } from "../rule.js";

// Approvals succeed by a person's decision and phases by their expansion's steps.
const EXEMPT_KINDS: ReadonlySet<string> = new Set(["approval", "phase"]);

export const rule = defineRule({
  id: "missing-success-criteria",
  meta: {
    description: "A step with no success criteria.",
    defaultSeverity: "warning",
    messages: {
      missing: 'step "{{step}}" has no success criteria; add a check, evidence or judge criterion under success',
      missingImported:
        "{{count}} of {{steps}} steps have no success criteria ({{format}} plans cannot express them); add criteria before running it",
    },
  },
  check(ctx) {
    const lacking = ctx.ir.nodes.filter((n) => n.success.length === 0 && !EXEMPT_KINDS.has(n.kind));
    // An imported format that has no criteria would repeat the same finding on every step.
    if (ctx.imported?.cannotExpress.includes("success")) {
      if (lacking.length > 0) {
        ctx.report({
          messageId: "missingImported",
          path: [IMPORT_KEY],
          data: { count: lacking.length, steps: ctx.ir.nodes.length, format: ctx.imported.format },
        });
      }
      return;
    }
    for (const node of lacking) {
      ctx.report({
        messageId: "missing",
        node: node.id,
        data: { step: node.id },
        hint: 'e.g. success: [{ check: "${{ output.rows > 0 }}" }]',
      });
    }
  },
});
