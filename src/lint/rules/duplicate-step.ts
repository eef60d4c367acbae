/**
 * Planners repeat themselves: the same tool called twice with the same arguments costs a
 * second call and, for writes, a second side effect, for a result the plan already has.
 */
import type { IRNode } from "../../ir.js";
import { defineRule } from "../rule.js";
import { normaliseValue } from "../text.js";

export const rule = defineRule({
  id: "duplicate-step",
  meta: {
    description: "Two steps that call the same tool with the same (normalised) arguments on the same inputs.",
    defaultSeverity: "warning",
    messages: {
      duplicate:
        'step "{{step}}" repeats step "{{other}}" (same tool "{{tool}}", same arguments); drop it and reuse the output of "{{other}}"',
    },
  },
  check(ctx) {
    // Most plans call each tool once; only tools called twice need a signature.
    const calls = new Map<string, number>();
    for (const n of ctx.ir.nodes) if (n.tool !== undefined) calls.set(n.tool, (calls.get(n.tool) ?? 0) + 1);
    const first = new Map<string, IRNode>();
    for (const id of ctx.ir.order) {
      const node = ctx.graph.node(id);
      if (!node || node.tool === undefined || node.kind === "approval" || calls.get(node.tool)! < 2) continue;
      const key = signature(node);
      const other = first.get(key);
      if (!other) {
        first.set(key, node);
        continue;
      }
      ctx.report({
        messageId: "duplicate",
        node: node.id,
        path: node.with ? ["with"] : ["tool"],
        data: { step: node.id, other: other.id, tool: node.tool },
      });
    }
  },
});

// What makes two calls the same call: the tool, its arguments, the steps it reads (its
// context), and what decides whether and over what it runs (two steps guarded by
// different `when`s are alternatives). Without `with`, the goal is the instruction the
// tool gets, so it counts as an argument.
function signature(node: IRNode): string {
  return JSON.stringify([
    node.tool,
    node.with ? normaliseValue(node.with) : node.goal.trim().toLowerCase().replace(/\s+/g, " "),
    [...node.consumes].sort(),
    node.forEach?.items.replace(/\s+/g, "") ?? null,
    node.when?.replace(/\s+/g, "") ?? null,
  ]);
}
