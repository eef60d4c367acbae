/**
 * Planners pad plans: more steps than the task's complexity calls for, verify/summarize
 * steps that re-check what the previous one checked, and steps whose result goes nowhere.
 */
import type { Complexity, IRNode } from "../../ir.js";
import type { PlanGraph } from "../../graph.js";
import { defineRule } from "../rule.js";
import { contentWordSet, contentWords, literalStrings } from "../text.js";

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
    defaultConfidence: "medium",
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
        ctx.report({ messageId: "overMaxSteps", path: ["limits", "max_steps"], data: { count, limit: ir.limits.maxSteps }, confidence: "high" });
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
          confidence: "high",
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
      if (ctx.risk.risk(node) !== "read") continue;
      ctx.report({ messageId: "deadStep", node: node.id, data: { step: node.id } });
    }
  },
});

// Words that say "again" and add nothing to check.
const AGAIN = contentWordSet("again once more double re recheck re-check confirm ensure make sure still really also");

/**
 * The verify/summarize step that `node` merely repeats: a consumed step of the same kind
 * (and tool) that already covers everything else `node` consumes and that `node` gives
 * nothing new to check. Only a candidate that descends from the other candidates can cover them,
 * so one candidate is enough.
 */
function recheckOf(graph: PlanGraph, node: IRNode): IRNode | undefined {
  if (!RECHECK_KINDS.has(node.kind)) return undefined;
  const candidates: IRNode[] = [];
  for (const id of node.consumes) {
    const c = graph.node(id);
    if (!c || c.kind !== node.kind) continue;
    if (c.tool !== undefined && node.tool !== undefined && c.tool !== node.tool) continue;
    candidates.push(c);
  }
  // The word test first: the answer is one of the candidates, and only if `node` adds nothing
  // to it. It is cheap and usually fails, while an ancestor test about steps that are not
  // direct needs fills rows of the graph's ancestor bitsets (quadratic on a large plan).
  if (!candidates.some((c) => addsNothing(node, c))) return undefined;
  let best: IRNode | undefined;
  for (const c of candidates) if (!best || graph.isAncestor(best.id, c.id)) best = c;
  if (!best || !addsNothing(node, best)) return undefined;
  const covered = best.id;
  return node.consumes.every((id) => id === covered || graph.isAncestor(id, covered)) ? best : undefined;
}

/**
 * True when `node` asks nothing `other` does not: every content word of its goal and its
 * literal arguments (the question it puts to its tool) already appears in `other`'s, bar
 * words that only say "again". Expressions are left out: the re-check reads the check.
 */
function addsNothing(node: IRNode, other: IRNode): boolean {
  const theirs = contentWordSet(asks(other));
  return contentWords(asks(node)).every((w) => theirs.has(w) || AGAIN.has(w));
}

function asks(node: IRNode): string {
  let text = node.goal;
  if (node.with) for (const [k, v] of Object.entries(node.with)) literalStrings(v, ["with", k], (s) => (text += ` ${s}`));
  return text;
}
