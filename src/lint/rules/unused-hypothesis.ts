/**
 * A hypothesis no step assumes is either settled (drop it) or forgotten: the step that
 * relies on it is missing its `assumes` and so escapes `unverified-hypothesis`.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "unused-hypothesis",
  meta: {
    description: "A hypothesis that no step assumes.",
    defaultSeverity: "warning",
    messages: {
      unused: 'hypothesis "{{name}}" is assumed by no step; add it to assumes of the steps that rely on it or drop it',
    },
  },
  check(ctx) {
    const { ir } = ctx;
    const assumed = new Set<string>();
    for (const n of ir.nodes) for (const h of n.assumes) assumed.add(h);
    for (const name of Object.keys(ir.hypotheses)) {
      if (!assumed.has(name)) ctx.report({ messageId: "unused", path: ["hypotheses", name], data: { name } });
    }
  },
});
