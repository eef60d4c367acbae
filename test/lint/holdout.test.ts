/**
 * The linter judged by the held-out corpus (specs/lint/holdout/): 24 plans in domains,
 * tool ids and shells the rules were not tuned on, labelled and committed before the
 * linter was first run on them. The scorer is the corpus's (test/lint/corpus.ts). The
 * floors are the figures measured when the holdout landed less a margin; they say how far
 * the rules generalise today, and a change that lowers them is a regression to explain.
 * Raise them as rules improve; never lower them to make a change pass, and never relabel a
 * plan to match what lint says (a labelling mistake gets its own commit saying why).
 *
 *   PLANSPEC_HOLDOUT_REPORT=out.md npx vitest run test/lint/holdout.test.ts   # also writes the report
 *   node bench/lint-precision.mjs --holdout                                     # prints it
 */
import { describe, expect, it } from "vitest";
import { registeredRules } from "../../src/lint/engine.js";
import { type Floors, belowFloors, cliDisagreements, labelProblems, loadCorpus, renderReport, runCorpus, writeReport } from "./corpus.js";

export const HOLDOUT_DIR = "specs/lint/holdout";

/**
 * The floors, in one place. Measured when the holdout landed (all rules of issue 11 on
 * main): precision 1.00, recall 0.72 (31 of 43), gate accuracy 0.92, 2 of 15 blocked plans
 * escape, 0 false blocks; per family risk 1.00/0.63, bounds 1.00/0.80, revision 1.00/0.83,
 * wiring 1.00/1.00 (one label), other 1.00/1.00.
 *
 * Since then its 12 misses were fixed (a description's later clause, `fastlane supply`, a
 * destructive write on production, "keep adjusting until", unsafe-revision on effective
 * risk): 1.00 / 1.00, no escape. That makes it tuning data, no longer a blind judge (the
 * blind figures above are the honest ones for it); the floors below guard the fixes, about
 * one finding per family under today's figures.
 */
export const HOLDOUT_FLOORS: Floors = {
  precision: 0.95,
  recall: 0.93,
  gateAccuracy: 0.95,
  /** At most this many blocked plans may pass the gate (0 measured; 2 when it was blind). */
  maxEscapes: 1,
  /** At most this many good plans may fail the gate (0 measured). */
  maxFalseBlocks: 1,
  family: {
    risk: { precision: 0.9, recall: 0.95 },
    bounds: { precision: 0.8, recall: 0.8 },
    revision: { precision: 0.8, recall: 0.83 },
    wiring: { precision: 0.5, recall: 1 },
    other: { precision: 0.8, recall: 0.75 },
  },
};

const { linted, score } = runCorpus(HOLDOUT_DIR);
const report = renderReport(score, HOLDOUT_DIR);
if (process.env.PLANSPEC_HOLDOUT_REPORT) writeReport(process.env.PLANSPEC_HOLDOUT_REPORT, score, linted, HOLDOUT_DIR);

describe("the held-out corpus", () => {
  const cases = loadCorpus(HOLDOUT_DIR);

  it("has 24 plans: about 15 a reviewer blocks, 9 good ones, revision pairs, many domains", () => {
    expect(cases.length).toBe(24);
    expect(cases.filter((c) => c.gate === "fail").length).toBe(15);
    expect(cases.filter((c) => c.gate === "pass").length).toBe(9);
    expect(cases.filter((c) => c.original).length).toBeGreaterThanOrEqual(4);
    expect(new Set(cases.map((c) => c.domain)).size).toBeGreaterThanOrEqual(10);
  });

  it("compiles every plan and original without a diagnostic", () => {
    expect(linted.flatMap((l) => l.compileProblems)).toEqual([]);
  });

  it("labels only registered rule ids, and only steps the plans have", () => {
    expect(labelProblems(cases, new Set(registeredRules().map((r) => r.id)))).toEqual([]);
  });

  it("gives the same gate in process as the CLI does (an escape, a revision case, a hard negative)", () => {
    expect(cliDisagreements(linted, ["social-launch-post-queue", "dns-revision-plan-to-apply", "good-gdpr-access-export-select"])).toEqual([]);
  });
});

describe("holdout score", () => {
  it("prints the figures", () => {
    // The report is the point of this file: vitest shows it with the run.
    console.log(report);
    expect(score.cases).toBe(24);
  });

  it("stays within the floors: precision, recall (overall and per family), gate accuracy, escapes, false blocks", () => {
    expect(belowFloors(score, HOLDOUT_FLOORS)).toEqual([]);
  });
});
