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
    defaultConfidence: "medium",
    messages: {
      duplicate:
        'step "{{step}}" repeats step "{{other}}" (same tool "{{tool}}", same arguments); drop it and reuse the output of "{{other}}"',
    },
  },
  check(ctx) {
    // Two stages so a 10,000-step plan does not serialise every step's arguments: only
    // steps that share a tool and the steps they read can be duplicates.
    const keys = new Map<IRNode, string>();
    const groupSize = new Map<string, number>();
    for (const n of ctx.ir.nodes) {
      if (n.tool === undefined || n.kind === "approval") continue;
      const reads = n.consumes.length > 1 ? [...n.consumes].sort().join(",") : (n.consumes[0] ?? "");
      const key = `${n.tool}\u0000${reads}`;
      keys.set(n, key);
      groupSize.set(key, (groupSize.get(key) ?? 0) + 1);
    }
    const first = new Map<string, IRNode>();
    for (const id of ctx.ir.order) {
      const node = ctx.graph.node(id);
      const coarse = node && keys.get(node);
      if (!node || coarse === undefined || groupSize.get(coarse)! < 2) continue;
      const key = `${coarse}\u0000${signature(node)}`;
      const other = first.get(key);
      if (!other) {
        first.set(key, node);
        continue;
      }
      ctx.report({
        messageId: "duplicate",
        node: node.id,
        path: node.with ? ["with"] : ["tool"],
        data: { step: node.id, other: other.id, tool: node.tool! },
      });
    }
  },
});

// Beyond the tool and the steps it reads (its context, in the coarse key), what makes two
// calls the same call: the arguments and what decides whether and over what it runs (two
// steps guarded by different `when`s are alternatives). Without `with`, the goal is the
// instruction the tool gets, so it counts as an argument.
function signature(node: IRNode): string {
  return JSON.stringify([
    node.with ? normaliseValue(node.with) : node.goal.trim().toLowerCase().replace(/\s+/g, " "),
    node.forEach?.items.replace(/\s+/g, "") ?? null,
    node.when?.replace(/\s+/g, "") ?? null,
  ]);
}
