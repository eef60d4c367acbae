/**
 * The linter judged by the labelled corpus (specs/lint/corpus/, labels written before any
 * rule was tuned to it). The floors below are what main achieved when the corpus landed
 * (f7d60df, 67 plans: precision 0.71, recall 0.37, gate accuracy 0.61, 26 of 40 blocked
 * plans escape, 0 false blocks, 17 blocked plans with no finding); raise them as rules land, never lower them
 * to make a change pass.
 *
 *   PLANSPEC_CORPUS_REPORT=out.md npx vitest run test/lint/corpus.test.ts   # also writes the report
 */
import { describe, expect, it } from "vitest";
import { registeredRules } from "../../src/lint/engine.js";
import {
  AGREED_NEW_RULES,
  type Floors,
  type LintedCase,
  belowFloors,
  cliDisagreements,
  gateAccuracy,
  labelProblems,
  loadCorpus,
  precision,
  recall,
  runCorpus,
  scoreCases,
  writeReport,
} from "./corpus.js";

/** The floors, in one place. Per-family floors apply only where the figure is defined. */
export const FLOORS: Floors = {
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
  },
};

const { linted, score } = runCorpus();
if (process.env.PLANSPEC_CORPUS_REPORT) writeReport(process.env.PLANSPEC_CORPUS_REPORT, score, linted);

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
    expect(labelProblems(cases, new Set([...registeredRules().map((r) => r.id), ...AGREED_NEW_RULES]))).toEqual([]);
  });

  it("gives the same gate in process as the CLI does (a plain case and a revision case)", () => {
    expect(cliDisagreements(linted, ["payments-refund-loop-ungated", "payments-revision-adds-filter", "good-payments-refund-loop-gated"])).toEqual([]);
  });
});

describe("corpus score", () => {
  it("stays within the floors: precision, recall (overall and per family), gate accuracy, escapes, false blocks, silent bad plans", () => {
    expect(belowFloors(score, FLOORS)).toEqual([]);
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
    const floors: Floors = {
      precision: 0.3,
      recall: 0.5,
      gateAccuracy: 0.3,
      maxEscapes: 0,
      maxFalseBlocks: 1,
      family: { risk: { precision: 0, recall: 0 }, bounds: { precision: 0, recall: 0 }, revision: { precision: 0.6, recall: 0 }, wiring: { precision: 0, recall: 0 }, other: { precision: 0, recall: 0 } },
    };
    expect(belowFloors(s, floors)).toEqual(["recall 0.33 < 0.5", "revision precision 0.50 < 0.6", `escapes 1 > 0: ${s.escapes[0]}`]);
  });
});
