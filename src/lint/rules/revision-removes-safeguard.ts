/**
 * Verify and approval steps are what made the original plan safe to run; a revision made
 * mid-run, reviewed less, must not take them out, nor drop an approval gate, nor move an
 * approval step so that the effect it gated no longer waits for it.
 */
import type { IRNode } from "../../ir.js";
import { defineRule } from "../rule.js";
import { isGate, isGated } from "../revision.js";

const SAFEGUARD_KINDS: ReadonlySet<string> = new Set(["verify", "approval"]);

export const rule = defineRule({
  id: "revision-removes-safeguard",
  meta: {
    description: "A revision that removes a verify or approval step, drops an approval gate, or leaves an effect no longer waiting for its approval.",
    defaultSeverity: "error",
    needsOriginal: true,
    messages: {
      stepRemoved: 'the revision removes {{kind}} step "{{step}}"; keep it (or replace it with a step of the same kind)',
      gateRemoved: 'the revision removes the approval gate of step "{{step}}"; keep approval: { required: true }',
      noLongerGated: 'step "{{step}}" no longer waits for approval step "{{approval}}" as it did in the original; make it need the approval again',
    },
  },
  check(ctx) {
    const { graph, originalGraph } = ctx;
    if (!originalGraph) return;
    const added = graph.nodes.filter((n) => !originalGraph.node(n.id));
    // A step renamed by the revision: a new step of the same kind (and tool) stands in for it.
    const replaced = (old: IRNode) => added.some((n) => n.kind === old.kind && n.tool === old.tool);
    for (const old of originalGraph.nodes) {
      const now = graph.node(old.id);
      if (SAFEGUARD_KINDS.has(old.kind) && (!now || now.kind !== old.kind) && !replaced(old)) {
        // The step may be gone: the finding is about its id, placed at the plan's steps.
        ctx.report({ messageId: "stepRemoved", node: old.id, path: now ? ["kind"] : ["steps"], data: { kind: old.kind, step: old.id } });
        continue;
      }
      if (!now) continue;
      if (isGate(old) && !isGated(graph, now)) {
        ctx.report({ messageId: "gateRemoved", node: now.id, data: { step: now.id } });
        continue;
      }
      if (isGate(now) || originalGraph.effectiveRisk(old) === "read") continue;
      for (const approval of originalGraph.ancestors(old.id)) {
        if (approval.kind === "approval" && graph.node(approval.id) && !graph.isAncestor(approval.id, now.id) && !isGated(graph, now)) {
          ctx.report({ messageId: "noLongerGated", node: now.id, path: ["needs"], data: { step: now.id, approval: approval.id } });
          break;
        }
      }
    }
  },
});
