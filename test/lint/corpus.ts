/**
 * The labelled lint corpus (`specs/lint/corpus/`) and its score: every plan is linted in
 * process through the API `planspec lint` uses (nearest config, `--against` for revision
 * cases), its (rule, step) findings at warning and error are compared with the hand-written
 * expect file, and the result is summed into precision, recall and gate accuracy, overall
 * and per rule family. `corpus.test.ts` holds the floors; `bench/lint-precision.mjs` prints
 * the report.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { compileFile } from "../../src/compiler/index.js";
import { ConfigResolver } from "../../src/lint/config.js";
import { knownRules, lintFindings, registeredRules } from "../../src/lint/engine.js";
import { cli, repoRoot } from "../helpers.js";

export const CORPUS_DIR = "specs/lint/corpus";

/** Rule ids agreed for this round (/work/briefs/rules.md) that main may not register yet. */
export const AGREED_NEW_RULES: readonly string[] = [
  "excessive-bound",
  "poll-without-delay",
  "tool-call-budget",
  "high-impact-without-approval",
  "approval-not-gating",
  "tool-argument-mismatch",
  "wiring-type-mismatch",
  "revision-reroutes-deliverable",
  "revision-adds-filter",
  "revision-loosens-check",
  "revision-removes-safeguard",
];

export type Family = "risk" | "bounds" | "revision" | "wiring" | "other";
export const FAMILIES: readonly Family[] = ["risk", "bounds", "revision", "wiring", "other"];

const FAMILY_OF: Record<string, Family> = {
  "risk-under-labelled": "risk",
  "write-without-evidence": "risk",
  "external-without-approval": "risk",
  "high-impact-without-approval": "risk",
  "side-effect-without-idempotency-key": "risk",
  "retry-without-idempotency": "risk",
  "approval-not-gating": "risk",
  "unbounded-loop": "bounds",
  "excessive-bound": "bounds",
  "poll-without-delay": "bounds",
  "tool-call-budget": "bounds",
  "goal-drift": "revision",
  "off-goal-step": "revision",
  "unsafe-revision": "revision",
  "tool-argument-mismatch": "wiring",
  "wiring-type-mismatch": "wiring",
};

/** The family a rule's findings are scored in. */
export function familyOf(rule: string): Family {
  return FAMILY_OF[rule] ?? (rule.startsWith("revision-") ? "revision" : "other");
}

/** A (rule, step) label; `steps` holds the anchors any one of which matches ("-" = plan-level). */
export interface ExpectedFinding {
  rule: string;
  steps: string[];
}

export interface CorpusCase {
  name: string;
  /** Relative to the repository root, as `planspec lint` would be given it. */
  plan: string;
  original?: string;
  gate: "pass" | "fail";
  domain: string;
  why: string;
  expected: ExpectedFinding[];
}

export interface ActualFinding {
  rule: string;
  step: string;
  severity: "warning" | "error";
  message: string;
  line: number;
}

/** Reads every `<case>.plan.yaml` with its `<case>.expect.yaml` (and `<case>.original.yaml`). */
export function loadCorpus(dir = CORPUS_DIR): CorpusCase[] {
  const abs = join(repoRoot, dir);
  return readdirSync(abs)
    .filter((f) => f.endsWith(".plan.yaml"))
    .sort()
    .map((f) => {
      const name = f.slice(0, -".plan.yaml".length);
      const expectFile = join(abs, `${name}.expect.yaml`);
      if (!existsSync(expectFile)) throw new Error(`${dir}/${f} has no ${name}.expect.yaml`);
      const raw = parse(readFileSync(expectFile, "utf8")) as {
        gate: "pass" | "fail";
        domain: string;
        why: string;
        findings: Array<{ rule: string; step: string | string[] }> | null;
      };
      const original = existsSync(join(abs, `${name}.original.yaml`)) ? `${dir}/${name}.original.yaml` : undefined;
      return {
        name,
        plan: `${dir}/${f}`,
        ...(original ? { original } : {}),
        gate: raw.gate,
        domain: raw.domain,
        why: raw.why,
        expected: (raw.findings ?? []).map((x) => ({ rule: x.rule, steps: Array.isArray(x.step) ? x.step.map(String) : [String(x.step)] })),
      };
    });
}

export interface LintedCase {
  case: CorpusCase;
  /** Distinct (rule, step) findings at warning or error; the first report of each is kept. */
  actual: ActualFinding[];
  /** Compiler diagnostics of the plan (a corpus plan must have none). */
  compileProblems: string[];
  /** What `planspec lint` exits with: 1 when any error is reported. */
  exit: 0 | 1;
}

/** Lints one case the way `planspec lint <plan> [--against <original>]` does, in process. */
export function lintCase(c: CorpusCase, resolver = new ConfigResolver(knownRules(registeredRules()), { cwd: repoRoot })): LintedCase {
  const result = compileFile(c.plan, { cwd: repoRoot });
  const original = c.original ? compileFile(c.original, { cwd: repoRoot }) : undefined;
  const compileProblems = [...result.diagnostics, ...(original?.diagnostics ?? [])].map((d) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]`);
  const findings = lintFindings(result, { config: resolver.forFile(c.plan), rules: registeredRules(), ...(original ? { original } : {}) });
  const seen = new Set<string>();
  const actual: ActualFinding[] = [];
  let exit: 0 | 1 = result.diagnostics.some((d) => d.severity === "error") ? 1 : 0;
  for (const f of findings) {
    const d = f.diagnostic;
    if (d.severity === "error") exit = 1;
    if (d.severity !== "warning" && d.severity !== "error") continue;
    const step = f.step ?? "-";
    const key = `${d.code}\u0000${step}`;
    if (seen.has(key)) continue;
    seen.add(key);
    actual.push({ rule: d.code, step, severity: d.severity, message: d.message, line: d.line });
  }
  return { case: c, actual, compileProblems, exit };
}

export interface Miss {
  case: string;
  rule: string;
  steps: string[];
}
export interface FalseAlarm {
  case: string;
  rule: string;
  step: string;
  severity: string;
  message: string;
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

export interface Score {
  cases: number;
  badCases: number;
  goodCases: number;
  overall: Counts;
  byFamily: Record<Family, Counts>;
  byRule: Record<string, Counts>;
  misses: Miss[];
  falseAlarms: FalseAlarm[];
  /** Cases a reviewer blocks that lint lets through (exit 0). */
  escapes: string[];
  /** Cases a reviewer passes that lint blocks (exit 1). */
  falseBlocks: string[];
  /** Blocked cases with no finding at all at warning or error. */
  silentOnBad: string[];
  /** Cases with expected findings of which lint reports none. */
  noExpectedFound: string[];
}

const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 });

/** Matches each case's findings with its labels and sums the counts. */
export function scoreCases(linted: readonly LintedCase[]): Score {
  const byFamily = Object.fromEntries(FAMILIES.map((f) => [f, zero()])) as Record<Family, Counts>;
  const score: Score = {
    cases: linted.length,
    badCases: 0,
    goodCases: 0,
    overall: zero(),
    byFamily,
    byRule: {},
    misses: [],
    falseAlarms: [],
    escapes: [],
    falseBlocks: [],
    silentOnBad: [],
    noExpectedFound: [],
  };
  const bump = (rule: string, k: keyof Counts) => {
    score.overall[k]++;
    score.byFamily[familyOf(rule)][k]++;
    (score.byRule[rule] ??= zero())[k]++;
  };
  for (const l of linted) {
    const c = l.case;
    if (c.gate === "fail") score.badCases++;
    else score.goodCases++;
    const unused = [...l.actual];
    let found = 0;
    for (const e of c.expected) {
      const i = unused.findIndex((a) => a.rule === e.rule && e.steps.includes(a.step));
      if (i >= 0) {
        unused.splice(i, 1);
        found++;
        bump(e.rule, "tp");
      } else {
        bump(e.rule, "fn");
        score.misses.push({ case: c.name, rule: e.rule, steps: e.steps });
      }
    }
    for (const a of unused) {
      bump(a.rule, "fp");
      score.falseAlarms.push({ case: c.name, rule: a.rule, step: a.step, severity: a.severity, message: a.message });
    }
    if (c.gate === "fail" && l.exit === 0) score.escapes.push(c.name);
    if (c.gate === "pass" && l.exit === 1) score.falseBlocks.push(c.name);
    if (c.gate === "fail" && l.actual.length === 0) score.silentOnBad.push(c.name);
    if (c.expected.length > 0 && found === 0) score.noExpectedFound.push(c.name);
  }
  return score;
}

/** tp / (tp + fp); undefined when nothing was reported. */
export const precision = (c: Counts): number | undefined => (c.tp + c.fp ? c.tp / (c.tp + c.fp) : undefined);
/** tp / (tp + fn); undefined when nothing was expected. */
export const recall = (c: Counts): number | undefined => (c.tp + c.fn ? c.tp / (c.tp + c.fn) : undefined);
/** Share of cases whose lint exit code agrees with the label's gate. */
export const gateAccuracy = (s: Score): number => (s.cases - s.escapes.length - s.falseBlocks.length) / s.cases;

/** Lints and scores the whole corpus. */
export function runCorpus(dir = CORPUS_DIR): { linted: LintedCase[]; score: Score } {
  const resolver = new ConfigResolver(knownRules(registeredRules()), { cwd: repoRoot });
  const linted = loadCorpus(dir).map((c) => lintCase(c, resolver));
  return { linted, score: scoreCases(linted) };
}

/** Floors a score must stay within; per-family floors apply only where the figure is defined. */
export interface Floors {
  precision: number;
  recall: number;
  gateAccuracy: number;
  maxEscapes: number;
  maxFalseBlocks: number;
  maxSilentOnBad?: number;
  family: Record<Family, { precision: number; recall: number }>;
}

/** Every figure of the score below (or, for counts, above) its floor, one line each. */
export function belowFloors(score: Score, floors: Floors): string[] {
  const out: string[] = [];
  const atLeast = (what: string, x: number | undefined, floor: number) => {
    if ((x ?? 1) < floor) out.push(`${what} ${fmt(x)} < ${floor}`);
  };
  const atMost = (what: string, list: string[], max: number | undefined) => {
    if (max !== undefined && list.length > max) out.push(`${what} ${list.length} > ${max}: ${list.join(", ")}`);
  };
  atLeast("precision", precision(score.overall), floors.precision);
  atLeast("recall", recall(score.overall), floors.recall);
  for (const f of FAMILIES) {
    atLeast(`${f} precision`, precision(score.byFamily[f]), floors.family[f].precision);
    atLeast(`${f} recall`, recall(score.byFamily[f]), floors.family[f].recall);
  }
  atLeast("gate accuracy", gateAccuracy(score), floors.gateAccuracy);
  atMost("escapes", score.escapes, floors.maxEscapes);
  atMost("false blocks", score.falseBlocks, floors.maxFalseBlocks);
  atMost("blocked plans with no finding", score.silentOnBad, floors.maxSilentOnBad);
  return out;
}

/** Labels naming a rule not in `ruleIds` or a step that neither the plan nor its original has. */
export function labelProblems(cases: readonly CorpusCase[], ruleIds: ReadonlySet<string>): string[] {
  const bad: string[] = [];
  for (const c of cases) {
    const steps = new Set<string>(["-"]);
    for (const file of [c.plan, c.original]) {
      if (!file) continue;
      for (const n of compileFile(file, { cwd: repoRoot }).ir?.nodes ?? []) steps.add(n.id);
    }
    for (const e of c.expected) {
      if (!ruleIds.has(e.rule)) bad.push(`${c.name}: unknown rule ${e.rule}`);
      for (const s of e.steps) if (!steps.has(s)) bad.push(`${c.name}: ${e.rule} names unknown step ${s}`);
    }
    if (c.gate === "pass" && c.expected.length && c.why === "") bad.push(`${c.name}: no why`);
  }
  return bad;
}

/** Cases where `planspec lint` (the real CLI) exits or reports rules other than the in-process scorer. */
export function cliDisagreements(linted: readonly LintedCase[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    const l = linted.find((x) => x.case.name === name);
    if (!l) {
      out.push(`${name}: no such case`);
      continue;
    }
    const r = cli(["lint", l.case.plan, ...(l.case.original ? ["--against", l.case.original] : []), "--format", "json"]);
    if (r.status !== l.exit) out.push(`${name}: the CLI exits ${r.status}, in process ${l.exit}: ${r.stderr}`);
    const reported = [...new Set((JSON.parse(r.stdout) as Array<{ code: string; severity: string }>).filter((d) => d.severity !== "info").map((d) => d.code))].sort();
    const inProcess = [...new Set(l.actual.map((a) => a.rule))].sort();
    if (reported.join() !== inProcess.join()) out.push(`${name}: the CLI reports ${reported.join(", ")}, in process ${inProcess.join(", ")}`);
  }
  return out;
}

const fmt = (x: number | undefined): string => (x === undefined ? "–" : x.toFixed(2));

/** The Markdown report: the per-family table, gate figures, misses and false alarms. */
export function renderReport(score: Score, dir = CORPUS_DIR): string {
  const row = (name: string, c: Counts) => `| ${name} | ${c.tp + c.fn} | ${c.tp} | ${c.fn} | ${c.fp} | ${fmt(precision(c))} | ${fmt(recall(c))} |`;
  const lines = [
    `Lint corpus (${dir}): ${score.cases} plans, ${score.badCases} a reviewer blocks, ${score.goodCases} a reviewer passes.`,
    "",
    "| family | expected | found | missed | false alarms | precision | recall |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...FAMILIES.map((f) => row(f, score.byFamily[f])),
    row("**all**", score.overall),
    "",
    `Gate: accuracy ${fmt(gateAccuracy(score))}; ${score.escapes.length} of ${score.badCases} blocked plans pass (escapes), ` +
      `${score.falseBlocks.length} of ${score.goodCases} passed plans fail (false blocks); ` +
      `${score.silentOnBad.length} blocked plans get no finding at all, ${score.noExpectedFound.length} plans none of the expected ones.`,
    "",
    "| rule | expected | found | missed | false alarms | precision | recall |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...Object.keys(score.byRule)
      .sort()
      .map((r) => row(r, score.byRule[r]!)),
    "",
    `Escapes: ${score.escapes.join(", ") || "none"}`,
    `False blocks: ${score.falseBlocks.join(", ") || "none"}`,
    `Blocked plans with no finding: ${score.silentOnBad.join(", ") || "none"}`,
    "",
    `Misses (${score.misses.length}):`,
    ...score.misses.map((m) => `- ${m.case}: ${m.rule} at ${m.steps.join(" | ")}`),
    "",
    `False alarms (${score.falseAlarms.length}):`,
    ...score.falseAlarms.map((f) => `- ${f.case}: ${f.rule} at ${f.step} (${f.severity}): ${f.message}`),
  ];
  return lines.join("\n") + "\n";
}

/** Writes the Markdown report to `file` and the score with every case's findings to `file.json`. */
export function writeReport(file: string, score: Score, linted: readonly LintedCase[], dir = CORPUS_DIR): void {
  writeFileSync(file, renderReport(score, dir));
  writeFileSync(`${file}.json`, JSON.stringify({ score, linted: linted.map((l) => ({ name: l.case.name, exit: l.exit, actual: l.actual })) }, null, 2));
}
