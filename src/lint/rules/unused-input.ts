/**
 * An input nobody reads is a question the run asks for nothing, or a sign that a step
 * hard-codes what the input was meant to supply.
 */
import { defineRule } from "../rule.js";
import { inputReferences, nodeExpressions } from "../text.js";

export const rule = defineRule({
  id: "unused-input",
  meta: {
    description: "A declared input that no expression reads.",
    defaultSeverity: "warning",
    messages: {
      unused: 'input "{{name}}" is never read; reference it as inputs.{{name}} or drop it',
    },
  },
  check(ctx) {
    const { ir } = ctx;
    const names = Object.keys(ir.inputs);
    if (names.length === 0) return;
    // A phase the planner expands at run time gets the inputs as context and may read any.
    if (ir.nodes.some((n) => n.phase?.expand === "planner")) return;
    const read = new Set<string>();
    for (const node of ir.nodes) {
      for (const e of nodeExpressions(node)) for (const name of inputReferences(e.source)) read.add(name);
    }
    for (const name of names) {
      if (!read.has(name)) ctx.report({ messageId: "unused", path: ["inputs", name], data: { name } });
    }
  },
});
