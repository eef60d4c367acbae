/**
 * The linter judged by the labelled corpus (specs/lint/corpus/, labels written before any
 * rule was tuned to it). The floors below are what main achieved when the corpus landed
 * (f7d60df, 67 plans: precision 0.71, recall 0.37, gate accuracy 0.61, 26 of 40 blocked
 * plans escape, 0 false blocks, 17 blocked plans with no finding); raise them as rules land, never lower them
 * to make a change pass.
 *
 *   PLANSPEC_CORPUS_REPORT=out.md npx vitest run test/lint/corpus.test.ts   # also writes the report
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileFile } from "../../src/compiler/index.js";
import { registeredRules } from "../../src/lint/engine.js";
import { cli, repoRoot } from "../helpers.js";
import {
  AGREED_NEW_RULES,
  FAMILIES,
  type Family,
  type LintedCase,
  gateAccuracy,
  loadCorpus,
  precision,
  recall,
  renderReport,
  runCorpus,
  scoreCases,
} from "./corpus.js";

/** The floors, in one place. Per-family floors apply only where the figure is defined. */
export const FLOORS = {
  // Measured after the rules of issue 11 landed: precision 1.00, recall 0.97, gate accuracy
  // 0.99, 1 escape (bench/README.md). The floors leave room for one or two honest changes.
  precision: 0.95,
  recall: 0.9,
  gateAccuracy: 0.95,
  /** At most this many blocked plans may pass the gate. */
  maxEscapes: 2,
  /** At most this many good plans may fail the gate. */
  maxFalseBlocks: 0,
  /** At most this many blocked plans may get no finding at all. */
  maxSilentOnBad: 1,
  family: {
    risk: { precision: 0.95, recall: 0.95 },
    bounds: { precision: 0.9, recall: 0.85 },
    revision: { precision: 0.9, recall: 0.8 },
    wiring: { precision: 0.9, recall: 0.9 },
    other: { precision: 0.9, recall: 0.9 },
  } satisfies Record<Family, { precision: number; recall: number }>,
};

const { linted, score } = runCorpus();
if (process.env.PLANSPEC_CORPUS_REPORT) {
  writeFileSync(process.env.PLANSPEC_CORPUS_REPORT, renderReport(score));
  writeFileSync(`${process.env.PLANSPEC_CORPUS_REPORT}.json`, JSON.stringify({ score, linted: linted.map((l) => ({ name: l.case.name, exit: l.exit, actual: l.actual })) }, null, 2));
}

describe("the labelled corpus", () => {
  const cases = loadCorpus();

  it("is large and mixed: at least 45 plans, about two thirds with known failures, many domains", () => {
    expect(cases.length).toBeGreaterThanOrEqual(45);
    const withFailures = cases.filter((c) => c.gate === "fail" || c.expected.length > 0).length;
    expect(withFailures / cases.length).toBeGreaterThan(0.55);
    expect(withFailures / cases.length).toBeLessThan(0.8);
    expect(cases.filter((c) => c.gate === "pass").length).toBeGreaterThanOrEqual(15);
    expect(new Set(cases.map((c) => c.domain)).size).toBeGreaterThanOrEqual(8);
    expect(cases.filter((c) => c.original).length).toBeGreaterThanOrEqual(6);
  });

  it("compiles every plan and original without a diagnostic", () => {
    const problems = linted.flatMap((l) => l.compileProblems);
    expect(problems).toEqual([]);
  });

  it("labels only with agreed rule ids, and only steps the plans have", () => {
    const ids = new Set([...registeredRules().map((r) => r.id), ...AGREED_NEW_RULES]);
    const bad: string[] = [];
    for (const c of cases) {
      const steps = new Set<string>(["-"]);
      for (const file of [c.plan, c.original]) {
        if (!file) continue;
        for (const n of compileFile(file, { cwd: repoRoot }).ir?.nodes ?? []) steps.add(n.id);
      }
      for (const e of c.expected) {
        if (!ids.has(e.rule)) bad.push(`${c.name}: unknown rule ${e.rule}`);
        for (const s of e.steps) if (!steps.has(s)) bad.push(`${c.name}: ${e.rule} names unknown step ${s}`);
      }
      if (c.gate === "pass" && c.expected.length && c.why === "") bad.push(`${c.name}: no why`);
    }
    expect(bad).toEqual([]);
  });

  it("gives the same gate in process as the CLI does (a plain case and a revision case)", () => {
    for (const name of ["payments-refund-loop-ungated", "payments-revision-adds-filter", "good-payments-refund-loop-gated"]) {
      const l = linted.find((x) => x.case.name === name)!;
      const args = ["lint", l.case.plan, ...(l.case.original ? ["--against", l.case.original] : []), "--format", "json"];
      const r = cli(args);
      expect(r.status, `${name}: ${r.stderr}`).toBe(l.exit);
      const reported = (JSON.parse(r.stdout) as Array<{ code: string; severity: string }>).filter((d) => d.severity !== "info");
      expect(new Set(reported.map((d) => d.code))).toEqual(new Set(l.actual.map((a) => a.rule)));
    }
  });
});

describe("corpus score", () => {
  it("stays at or above the precision and recall floors", () => {
    expect(precision(score.overall) ?? 1).toBeGreaterThanOrEqual(FLOORS.precision);
    expect(recall(score.overall) ?? 1).toBeGreaterThanOrEqual(FLOORS.recall);
    for (const f of FAMILIES) {
      const c = score.byFamily[f];
      expect(precision(c) ?? 1, `${f} precision`).toBeGreaterThanOrEqual(FLOORS.family[f].precision);
      expect(recall(c) ?? 1, `${f} recall`).toBeGreaterThanOrEqual(FLOORS.family[f].recall);
    }
  });

  it("stays within the gate floors: accuracy, escapes, false blocks, silent bad plans", () => {
    expect(gateAccuracy(score)).toBeGreaterThanOrEqual(FLOORS.gateAccuracy);
    expect(score.escapes.length, `escapes: ${score.escapes.join(", ")}`).toBeLessThanOrEqual(FLOORS.maxEscapes);
    expect(score.falseBlocks.length, `false blocks: ${score.falseBlocks.join(", ")}`).toBeLessThanOrEqual(FLOORS.maxFalseBlocks);
    expect(score.silentOnBad.length, `silent: ${score.silentOnBad.join(", ")}`).toBeLessThanOrEqual(FLOORS.maxSilentOnBad);
  });
});

describe("the scorer", () => {
  const lintedCase = (gate: "pass" | "fail", expected: Array<[string, string[]]>, actual: Array<[string, string, "warning" | "error"]>): LintedCase => ({
    case: { name: `c${Math.random()}`, plan: "x.plan.yaml", gate, domain: "d", why: "w", expected: expected.map(([rule, steps]) => ({ rule, steps })) },
    actual: actual.map(([rule, step, severity]) => ({ rule, step, severity, message: "m", line: 1 })),
    compileProblems: [],
    exit: actual.some((a) => a[2] === "error") ? 1 : 0,
  });

  it("matches (rule, step) with alternative anchors, and counts misses, false alarms and gate errors", () => {
    const s = scoreCases([
      lintedCase("fail", [["risk-under-labelled", ["drop"]], ["revision-removes-safeguard", ["gone", "-"]]], [["revision-removes-safeguard", "-", "error"], ["unused-output", "x", "warning"]]),
      lintedCase("fail", [["tool-call-budget", ["-"]]], []),
      lintedCase("pass", [], [["goal-drift", "-", "error"]]),
    ]);
    expect(s.overall).toEqual({ tp: 1, fp: 2, fn: 2 });
    expect(s.byFamily.revision).toEqual({ tp: 1, fp: 1, fn: 0 });
    expect(s.byFamily.risk).toEqual({ tp: 0, fp: 0, fn: 1 });
    expect(s.byFamily.bounds).toEqual({ tp: 0, fp: 0, fn: 1 });
    expect(s.byFamily.other).toEqual({ tp: 0, fp: 1, fn: 0 });
    expect(precision(s.overall)).toBeCloseTo(1 / 3);
    expect(recall(s.overall)).toBeCloseTo(1 / 3);
    expect(s.escapes.length).toBe(1);
    expect(s.falseBlocks.length).toBe(1);
    expect(s.silentOnBad.length).toBe(1);
    expect(s.noExpectedFound.length).toBe(1);
    expect(gateAccuracy(s)).toBeCloseTo(1 / 3);
  });
});
