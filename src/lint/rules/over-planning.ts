/**
 * Planners pad plans: more steps than the task's complexity calls for, verify/summarize
 * steps that re-check what the previous one checked, and steps whose result goes nowhere.
 */
import type { Complexity, IRNode } from "../../ir.js";
import type { PlanGraph } from "../graph.js";
import { defineRule } from "../rule.js";

const DEFAULT_LIMITS: Record<Complexity, number> = { simple: 4, moderate: 12, complex: 40 };
const RECHECK_KINDS: ReadonlySet<string> = new Set(["verify", "summarize"]);
// Steps that matter without a consumer: checks gate the run, approvals gate a person's
// decision, phases expand into more steps.
const GATE_KINDS: ReadonlySet<string> = new Set(["verify", "approval", "phase"]);

export const rule = defineRule({
  id: "over-planning",
  meta: {
    description: "More steps than the complexity allows, verify/summarize chains re-checking the same thing, and dead steps.",
    defaultSeverity: "warning",
    defaultOptions: { ...DEFAULT_LIMITS },
    messages: {
      tooManySteps:
        "the plan has {{count}} steps, more than the {{limit}} a {{complexity}} plan should need; merge steps or declare a higher complexity",
      overMaxSteps: "the plan has {{count}} steps, more than limits.max_steps ({{limit}}); merge steps or raise the limit",
      recheck:
        'step "{{step}}" repeats the {{kind}} step "{{other}}" over the same inputs; merge the two or give it something new to {{kind}}',
      deadStep: 'step "{{step}}" produces nothing anyone uses and has no side effect; use its result or drop it',
    },
  },
  check(ctx) {
    const { ir, graph } = ctx;
    const count = ir.nodes.length;
    if (ir.limits.maxSteps !== undefined) {
      if (count > ir.limits.maxSteps) {
        ctx.report({ messageId: "overMaxSteps", path: ["limits", "max_steps"], data: { count, limit: ir.limits.maxSteps } });
      }
    } else {
      // An undeclared complexity gets the most lenient bound rather than none, so leaving
      // the key out is no way around the check.
      const complexity = ir.complexity ?? "complex";
      const limit = Number(ctx.options[complexity] ?? DEFAULT_LIMITS[complexity]);
      if (count > limit) {
        ctx.report({
          messageId: "tooManySteps",
          path: ir.complexity ? ["complexity"] : ["steps"],
          data: { count, limit, complexity },
        });
      }
    }
    graph.nodes.forEach((node) => {
      const other = recheckOf(graph, node);
      if (other) {
        ctx.report({ messageId: "recheck", node: node.id, data: { step: node.id, kind: node.kind, other: other.id } });
      }
    });
    const consumed = new Set<string>();
    for (const n of ir.nodes) for (const c of n.consumes) consumed.add(c);
    for (const node of ir.nodes) {
      // A step with an output that nobody reads is `unused-output`'s finding, not this one.
      if (node.output !== undefined || consumed.has(node.id) || GATE_KINDS.has(node.kind)) continue;
      if (graph.effectiveRisk(node) !== "read") continue;
      ctx.report({ messageId: "deadStep", node: node.id, data: { step: node.id } });
    }
  },
});

/**
 * The verify/summarize step that `node` merely repeats: a consumed step of the same kind
 * (and tool) that already covers everything else `node` consumes. Only a candidate that
 * descends from the other candidates can cover them, so one candidate is enough.
 */
function recheckOf(graph: PlanGraph, node: IRNode): IRNode | undefined {
  if (!RECHECK_KINDS.has(node.kind)) return undefined;
  let best: IRNode | undefined;
  for (const id of node.consumes) {
    const c = graph.node(id);
    if (!c || c.kind !== node.kind) continue;
    if (c.tool !== undefined && node.tool !== undefined && c.tool !== node.tool) continue;
    if (!best || graph.isAncestor(best.id, c.id)) best = c;
  }
  if (!best) return undefined;
  const covered = best.id;
  return node.consumes.every((id) => id === covered || graph.isAncestor(id, covered)) ? best : undefined;
}
