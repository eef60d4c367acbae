/**
 * A change is not done when the write returns but when something checked it: a plan that
 * writes needs at least one verify step (a test run, a re-read, a diff) after its writes.
 */
import type { IRNode } from "../../ir.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "write-without-verification",
  meta: {
    description: "A plan that writes but has no verify step depending on any of its writes.",
    defaultSeverity: "warning",
    messages: {
      unverified:
        'step "{{step}}" writes and no verify step in the plan depends on any write; add a verify step that needs the writes',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    // A verify step that writes (a test run executes code) checks; it is not a change. What
    // a step will do counts, not only its label: an UPDATE through a read-labelled tool writes.
    const writes = (n: IRNode): boolean => n.kind !== "verify" && ctx.risk.risk(n) === "write";
    const writesAbove = graph.anyAncestor(writes);
    if (graph.nodes.some((n, i) => n.kind === "verify" && writesAbove[i])) return;
    // One finding per plan, on its first write: the fix is one verify step after the writes.
    const first = graph.topo.find((i) => writes(graph.nodes[i]!));
    if (first === undefined) return;
    const step = graph.nodes[first]!.id;
    ctx.report({ messageId: "unverified", node: step, data: { step } });
  },
});
