/**
 * Scoring a suite: each case's plan (from a directory of `<case-id>.plan.yaml|json`) is
 * compiled, linted and measured against the case's matchers and gold plan; the summary
 * averages the cases as docs/evals.md defines.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { compileFile, compileSource, type CompileResult } from "../compiler/index.js";
import type { PlanIR } from "../ir.js";
import { lintCompiled } from "../lint/engine.js";
import { PlanGraph } from "../graph.js";
import { type Counts, compareToGold, coverage, f1Of, redundancy, riskAccuracy } from "./metrics.js";
import type { Matcher, Suite, SuiteCase } from "./suite.js";

export interface CaseScore {
  id: string;
  /** The plan file scored, as found. */
  plan?: string;
  status: "ok" | "missing" | "invalid";
  /** Compile errors of an invalid plan, as `file:line:col: message [code]`. */
  problems: string[];
  coverage: number;
  /** Required matchers no step covered, described. */
  uncovered: string[];
  /** Forbidden matchers some step satisfied, described. */
  forbidden: string[];
  redundancy: number | null;
  duplicates: Array<{ step: string; of: string }>;
  dead: string[];
  nodeF1: number | null;
  edgeF1: number | null;
  node?: Counts;
  edge?: Counts;
  riskAccuracy: number | null;
  mislabelled: Array<{ step: string; declared: string; required: string }>;
  lintPass: boolean;
  /** Rule ids of error findings. */
  lintErrors: string[];
  /** Steps whose tool is not in the suite's catalogue. */
  hallucinated: string[];
  /** Filled in by the recovery runner when asked for. */
  recovery?: { trials: number; succeeded: number; rate: number; failures: Array<{ trial: string; reason: string }> };
}

/** The averaged metrics; `null` where nothing was measured. */
export interface Summary {
  cases: number;
  coverage: number;
  redundancy: number | null;
  node_f1: number | null;
  edge_f1: number | null;
  risk_accuracy: number | null;
  lint_pass: number;
  recovery: number | null;
  forbidden: number;
  hallucinated: number;
}

export interface SuiteScore {
  suite: string;
  cases: CaseScore[];
  summary: Summary;
}

/** The file of a case's plan in `dir`, if there is one. */
export function planFileFor(dir: string, id: string): string | undefined {
  for (const ext of [".plan.yaml", ".plan.yml", ".plan.json"]) {
    const f = join(dir, id + ext);
    if (existsSync(f)) return f;
  }
  return undefined;
}

/** Describes a matcher for reports: `search:code.search -> output x`. */
export function describeMatcher(m: Matcher): string {
  const parts = [m.id ? `${m.id}:` : "", m.kind ?? "", m.tool ? ` tool=${m.tool}` : "", m.output ? ` output=${m.output}` : "", m.before.length ? ` before [${m.before.join(", ")}]` : ""];
  return parts.join("").trim();
}

/** Compiles a case's gold plan (file or inline), or undefined when it has none or it does not compile. */
export function compileGold(c: SuiteCase, cwd: string): CompileResult | undefined {
  if (c.gold) return compileFile(c.gold, { cwd });
  if (c.goldInline) return compileSource(join(cwd, `${c.id}.gold.plan.json`), JSON.stringify(c.goldInline), { cwd });
  return undefined;
}

const empty = (id: string, status: CaseScore["status"]): CaseScore => ({
  id,
  status,
  problems: [],
  coverage: 0,
  uncovered: [],
  forbidden: [],
  redundancy: null,
  duplicates: [],
  dead: [],
  nodeF1: null,
  edgeF1: null,
  riskAccuracy: null,
  mislabelled: [],
  lintPass: false,
  lintErrors: [],
  hallucinated: [],
});

/** Scores one compiled plan against a case. */
export function scoreCase(suite: Suite, c: SuiteCase, result: CompileResult, gold: PlanIR | undefined, planFile?: string): CaseScore {
  const ir = result.ir;
  if (!ir) {
    const s = empty(c.id, "invalid");
    if (planFile) s.plan = planFile;
    s.problems = result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]`);
    s.uncovered = c.required.map(describeMatcher);
    return s;
  }
  const graph = new PlanGraph(ir);
  const cov = coverage(ir, c.required, c.forbidden, graph);
  const red = redundancy(ir, graph);
  const risk = riskAccuracy(ir, suite.tools);
  const lintErrors = lintCompiled(result).filter((d) => d.severity === "error").map((d) => d.code);
  const s: CaseScore = {
    ...empty(c.id, "ok"),
    coverage: cov.coverage,
    uncovered: c.required.flatMap((m, i) => (cov.assignment[i] === undefined ? [describeMatcher(m)] : [])),
    forbidden: cov.forbiddenHits.map((i) => describeMatcher(c.forbidden[i]!)),
    redundancy: red.redundancy,
    duplicates: red.duplicates,
    dead: red.dead,
    riskAccuracy: risk.accuracy,
    mislabelled: risk.mislabelled,
    lintPass: lintErrors.length === 0,
    lintErrors: [...new Set(lintErrors)].sort(),
    hallucinated: ir.nodes.flatMap((n) => n.allowedTools.filter((t) => !(t in suite.tools)).map((t) => `${n.id}: ${t}`)),
  };
  if (planFile) s.plan = planFile;
  if (gold) {
    const g = compareToGold(ir, gold);
    Object.assign(s, { nodeF1: g.nodeF1, edgeF1: g.edgeF1, node: g.node, edge: g.edge });
  }
  return s;
}

export interface ScoreOptions {
  cwd?: string;
  /** Called once per case with a plan that compiled; fills `recovery`. */
  recovery?: (planFile: string, c: SuiteCase) => Promise<CaseScore["recovery"]>;
}

/** Scores every case of a suite with the plans found in `plansDir`. */
export async function scoreSuite(suite: Suite, plansDir: string, opts: ScoreOptions = {}): Promise<SuiteScore> {
  const cwd = opts.cwd ?? process.cwd();
  const cases: CaseScore[] = [];
  for (const c of suite.cases) {
    const file = planFileFor(plansDir, c.id);
    if (!file) {
      const s = empty(c.id, "missing");
      s.uncovered = c.required.map(describeMatcher);
      cases.push(s);
      continue;
    }
    const result = compileFile(file, { cwd });
    const gold = compileGold(c, cwd)?.ir;
    const s = scoreCase(suite, c, result, gold, file);
    if (opts.recovery && result.ir) {
      const r = await opts.recovery(file, c);
      if (r) s.recovery = r;
    }
    cases.push(s);
  }
  return { suite: suite.name, cases, summary: summarise(cases) };
}

const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

function micro(list: Array<Counts | undefined>): number | null {
  const present = list.filter((c): c is Counts => c !== undefined);
  if (present.length === 0) return null;
  const sum = present.reduce((a, c) => ({ tp: a.tp + c.tp, fp: a.fp + c.fp, fn: a.fn + c.fn }), { tp: 0, fp: 0, fn: 0 });
  return sum.tp + sum.fp + sum.fn === 0 ? 1 : f1Of(sum);
}

/** Averages per-case scores: means, except node/edge F1 (micro, as TaskBench) and recovery (pooled trials). */
export function summarise(cases: readonly CaseScore[]): Summary {
  const trials = cases.reduce((a, c) => a + (c.recovery?.trials ?? 0), 0);
  const succeeded = cases.reduce((a, c) => a + (c.recovery?.succeeded ?? 0), 0);
  const anyRecovery = cases.some((c) => c.recovery !== undefined);
  return {
    cases: cases.length,
    coverage: mean(cases.map((c) => c.coverage)) ?? 0,
    redundancy: mean(cases.flatMap((c) => (c.redundancy === null ? [] : [c.redundancy]))),
    node_f1: micro(cases.map((c) => c.node)),
    edge_f1: micro(cases.map((c) => c.edge)),
    risk_accuracy: mean(cases.flatMap((c) => (c.riskAccuracy === null ? [] : [c.riskAccuracy]))),
    lint_pass: cases.length === 0 ? 0 : cases.filter((c) => c.lintPass).length / cases.length,
    recovery: anyRecovery ? (trials === 0 ? 1 : succeeded / trials) : null,
    forbidden: cases.reduce((a, c) => a + c.forbidden.length, 0),
    hallucinated: cases.reduce((a, c) => a + c.hallucinated.length, 0),
  };
}
