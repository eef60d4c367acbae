/**
 * Plan metrics (SPEC §7; definitions in docs/evals.md): coverage of required matchers
 * with ordering as ancestor relations, redundancy (duplicates and dead steps), node and
 * edge F1 against a gold plan by tool name, and risk-label accuracy.
 */
import { type IRNode, type PlanIR, type Risk, type ToolSpec, type Value, isExprValue, isTemplateValue, maxRisk, riskRank } from "../ir.js";
import { PlanGraph } from "../graph.js";
import type { Matcher } from "./suite.js";

/** True when the step satisfies every field the matcher sets. */
export function stepMatches(m: Matcher, node: IRNode): boolean {
  if (m.kind !== undefined && node.kind !== m.kind) return false;
  if (m.tool !== undefined && node.tool !== m.tool && !node.allowedTools.includes(m.tool)) return false;
  if (m.output !== undefined && node.output !== m.output) return false;
  return true;
}

export interface CoverageResult {
  /** matched / required; 1 when the case requires nothing. */
  coverage: number;
  matched: number;
  required: number;
  /** The step each matched matcher was assigned (by matcher index). */
  assignment: Array<string | undefined>;
  /** Indices of forbidden matchers some step satisfies. */
  forbiddenHits: number[];
}

/**
 * Coverage: a maximum one-to-one assignment of required matchers to steps, where matcher
 * m may take step s when s satisfies m's fields and, for each id x in m.before, some step
 * satisfying matcher x has s as an ancestor.
 */
export function coverage(ir: PlanIR, required: readonly Matcher[], forbidden: readonly Matcher[] = [], graph = new PlanGraph(ir)): CoverageResult {
  const byId = new Map<string, Matcher>();
  for (const m of required) if (m.id !== undefined) byId.set(m.id, m);
  const candidates = required.map((m) =>
    ir.nodes.filter(
      (s) =>
        stepMatches(m, s) &&
        m.before.every((x) => {
          const other = byId.get(x);
          return other !== undefined && ir.nodes.some((t) => stepMatches(other, t) && graph.isAncestor(s.id, t.id));
        }),
    ),
  );
  // Kuhn's augmenting paths: matchers and plans are small, so O(V·E) is plenty.
  const owner = new Map<string, number>();
  const tryAssign = (mi: number, seen: Set<string>): boolean => {
    for (const s of candidates[mi]!) {
      if (seen.has(s.id)) continue;
      seen.add(s.id);
      const cur = owner.get(s.id);
      if (cur === undefined || tryAssign(cur, seen)) {
        owner.set(s.id, mi);
        return true;
      }
    }
    return false;
  };
  let matched = 0;
  for (let i = 0; i < required.length; i++) if (tryAssign(i, new Set())) matched++;
  const assignment: Array<string | undefined> = required.map(() => undefined);
  for (const [step, mi] of owner) assignment[mi] = step;
  const forbiddenHits = forbidden.flatMap((m, i) => (ir.nodes.some((s) => stepMatches(m, s)) ? [i] : []));
  return { coverage: required.length === 0 ? 1 : matched / required.length, matched, required: required.length, assignment, forbiddenHits };
}

/** `with` in a canonical form: keys sorted, strings trimmed, lower-cased, whitespace collapsed. */
export function normaliseWith(v: Value | undefined): string {
  const norm = (x: Value | undefined): unknown => {
    if (x === undefined || x === null) return null;
    if (typeof x === "string") return x.trim().replace(/\s+/g, " ").toLowerCase();
    if (isExprValue(x)) return { $expr: x.$expr.replace(/\s+/g, "") };
    if (isTemplateValue(x)) return { $template: x.$template.map((p) => (typeof p === "string" ? norm(p) : { $expr: p.$expr.replace(/\s+/g, "") })) };
    if (Array.isArray(x)) return x.map(norm);
    if (typeof x === "object") {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(x).sort()) out[k] = norm((x as Record<string, Value>)[k]);
      return out;
    }
    return x;
  };
  return JSON.stringify(norm(v as Value));
}

export interface RedundancyResult {
  /** redundant / steps (0 for an empty plan). */
  redundancy: number;
  steps: number;
  /** Steps repeating an earlier step's tool and normalised `with` (the first is not counted). */
  duplicates: Array<{ step: string; of: string }>;
  /** Read-only steps whose output nobody consumes and that produce no deliverable. */
  dead: string[];
  /** Distinct steps that are duplicates, dead or both. */
  redundant: string[];
}

/**
 * Redundancy of a plan: duplicate and dead steps over all steps. `finalResults`: the plan's
 * final steps are what it returns (an imported format without deliverables, TaskBench).
 */
export function redundancy(ir: PlanIR, graph = new PlanGraph(ir), opts: { finalResults?: boolean } = {}): RedundancyResult {
  const firstOf = new Map<string, string>();
  const duplicates: RedundancyResult["duplicates"] = [];
  for (const id of ir.order) {
    const n = graph.node(id)!;
    if (n.tool === undefined) continue;
    const key = `${n.tool}\u0000${normaliseWith(n.with as Value | undefined)}`;
    const first = firstOf.get(key);
    if (first === undefined) firstOf.set(key, n.id);
    else duplicates.push({ step: n.id, of: first });
  }
  const consumed = new Set<string>();
  for (const n of ir.nodes) for (const c of n.consumes) consumed.add(c);
  const dead = ir.nodes
    .filter((n) => !consumed.has(n.id) && !opts.finalResults && !graph.producesDeliverable(n) && graph.effectiveRisk(n) === "read" && n.kind !== "approval" && !n.approval?.required)
    .map((n) => n.id);
  const redundant = [...new Set([...duplicates.map((d) => d.step), ...dead])];
  return { redundancy: ir.nodes.length === 0 ? 0 : redundant.length / ir.nodes.length, steps: ir.nodes.length, duplicates, dead, redundant };
}

/** The risk a step must declare: its tools' highest catalogue risk, and at least its kind's (`write`, `external`). */
export function requiredRisk(node: IRNode, catalogue: Readonly<Record<string, ToolSpec>>, planTools: Readonly<Record<string, ToolSpec>>): Risk {
  let risk: Risk = node.kind === "external" ? "external" : node.kind === "write" ? "write" : "read";
  for (const t of node.allowedTools) {
    const spec = catalogue[t] ?? planTools[t];
    if (spec) risk = maxRisk(risk, spec.risk);
  }
  return risk;
}

export interface RiskResult {
  /** Correctly labelled steps / steps (1 for an empty plan). */
  accuracy: number;
  mislabelled: Array<{ step: string; declared: Risk; required: Risk }>;
}

/** Risk-label accuracy against a catalogue (the suite's, falling back to the plan's own for tools it lacks). */
export function riskAccuracy(ir: PlanIR, catalogue: Readonly<Record<string, ToolSpec>> = {}): RiskResult {
  const mislabelled: RiskResult["mislabelled"] = [];
  for (const n of ir.nodes) {
    const req = requiredRisk(n, catalogue, ir.tools);
    if (riskRank(n.risk) < riskRank(req)) mislabelled.push({ step: n.id, declared: n.risk, required: req });
  }
  return { accuracy: ir.nodes.length === 0 ? 1 : 1 - mislabelled.length / ir.nodes.length, mislabelled };
}

/** True/false positive and false negative counts, so F1 can be micro-averaged over cases. */
export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

/** F1 of counts; sklearn's convention that an undefined ratio is 0 (TaskBench uses sklearn). */
export function f1Of(c: Counts): number {
  const p = c.tp + c.fp === 0 ? 0 : c.tp / (c.tp + c.fp);
  const r = c.tp + c.fn === 0 ? 0 : c.tp / (c.tp + c.fn);
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

const toolName = (t: string) => t.replace(/_/g, " ");

function graphSets(ir: PlanIR): { nodes: Set<string>; edges: Set<string> } {
  const byId = new Map(ir.nodes.map((n) => [n.id, n]));
  const nodes = new Set<string>();
  const edges = new Set<string>();
  for (const n of ir.nodes) {
    if (n.tool === undefined) continue;
    nodes.add(toolName(n.tool));
    for (const d of n.dependsOn) {
      const src = byId.get(d)?.tool;
      if (src !== undefined) edges.add(`${toolName(src)}\u0000${toolName(n.tool)}`);
    }
  }
  return { nodes, edges };
}

function countSets(pred: Set<string>, gold: Set<string>): Counts {
  let tp = 0;
  for (const x of pred) if (gold.has(x)) tp++;
  return { tp, fp: pred.size - tp, fn: gold.size - tp };
}

export interface GoldComparison {
  node: Counts;
  edge: Counts;
  nodeF1: number;
  edgeF1: number;
}

/**
 * Node and edge F1 against a gold plan, TaskBench-style (1 when both sides are empty): a plan's tool names (with `_`
 * read as a space) form a set, its edges the set of (tool of need, tool of step) pairs;
 * steps without a tool take no part.
 */
export function compareToGold(ir: PlanIR, gold: PlanIR): GoldComparison {
  const p = graphSets(ir);
  const g = graphSets(gold);
  const node = countSets(p.nodes, g.nodes);
  const edge = countSets(p.edges, g.edges);
  // Two plans without edges (or tools) agree perfectly; F1 of nothing would read as 0.
  const f1 = (c: Counts) => (c.tp + c.fp + c.fn === 0 ? 1 : f1Of(c));
  return { node, edge, nodeF1: f1(node), edgeF1: f1(edge) };
}
