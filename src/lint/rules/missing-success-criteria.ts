/**
 * A step without success criteria is "done" when its tool returns, whatever it returned;
 * the run cannot tell a wrong result from a right one.
 */
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
    },
  },
  check(ctx) {
    for (const node of ctx.ir.nodes) {
      if (node.success.length > 0 || EXEMPT_KINDS.has(node.kind)) continue;
      ctx.report({
        messageId: "missing",
        node: node.id,
        data: { step: node.id },
        hint: 'e.g. success: [{ check: "${{ output.rows > 0 }}" }]',
      });
    }
  },
});
