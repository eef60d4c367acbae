/**
 * The linter judged by the second held-out corpus (specs/lint/holdout2/): 24 plans in 15
 * domains that neither specs/lint/corpus/ nor specs/lint/holdout/ uses, labelled from the
 * "Finds" text of docs/rules.md and committed before the linter was first run on them. The
 * first holdout became tuning data once its misses were worked on; this one is the blind
 * judge now. The scorer is the corpus's (test/lint/corpus.ts). The floors are the figures
 * measured when this holdout landed less about one finding per family; a change that
 * lowers them is a regression to explain. Raise them as rules improve; never lower them to
 * make a change pass, and never relabel a plan to match what lint says (a labelling
 * mistake gets its own commit saying why).
 *
 *   PLANSPEC_HOLDOUT2_REPORT=out.md npx vitest run test/lint/holdout2.test.ts   # also writes the report
 *   node bench/lint-precision.mjs --holdout2                                      # prints it
 */
import { describe, expect, it } from "vitest";
import { registeredRules } from "../../src/lint/engine.js";
import { type Floors, belowFloors, cliDisagreements, labelProblems, loadCorpus, renderReport, runCorpus, writeReport } from "./corpus.js";

export const HOLDOUT2_DIR = "specs/lint/holdout2";

/**
 * The floors, in one place. Measured when this holdout landed (main at 7bd7faf): precision
 * 0.66 (29 of 44), recall 0.69 (29 of 42), gate accuracy 0.88, 3 of 15 blocked plans escape
 * (admissions-offer-letters-open-ended, logistics-label-purchase-loop,
 * newsroom-story-update-publishes), 0 false blocks, 2 blocked plans with no finding; per
 * family risk 0.50/0.60, bounds 1.00/0.75, revision 1.00/0.83, wiring 1.00/1.00, other
 * 1.00/0.80.
 *
 * Then, blind: the fixes made for the first holdout's misses (made before anyone read these
 * plans) raised recall to 0.95 (40 of 42) with no escape; precision stayed 0.73 (the same 15
 * false alarms: nouns in tool ids, `orders.tomorrow`, `ap.payment_run`). Those false alarms
 * were then fixed looking at these plans, so precision 1.00 here is tuned, not blind. The
 * floors guard today's figures less about one finding per family.
 */
export const HOLDOUT2_FLOORS: Floors = {
  precision: 0.95,
  recall: 0.9,
  gateAccuracy: 0.95,
  /** At most this many blocked plans may pass the gate (0 measured; 3 when it landed). */
  maxEscapes: 1,
  /** At most this many good plans may fail the gate (0 measured). */
  maxFalseBlocks: 1,
  /** At most this many blocked plans may get no finding at all (0 measured; 2 when it landed). */
  maxSilentOnBad: 1,
  family: {
    risk: { precision: 0.9, recall: 0.9 },
    bounds: { precision: 0.75, recall: 0.75 },
    revision: { precision: 0.8, recall: 0.83 },
    wiring: { precision: 0.65, recall: 0.5 },
    other: { precision: 0.8, recall: 0.6 },
  },
};

const { linted, score } = runCorpus(HOLDOUT2_DIR);
const report = renderReport(score, HOLDOUT2_DIR);
if (process.env.PLANSPEC_HOLDOUT2_REPORT) writeReport(process.env.PLANSPEC_HOLDOUT2_REPORT, score, linted, HOLDOUT2_DIR);

describe("the second held-out corpus", () => {
  const cases = loadCorpus(HOLDOUT2_DIR);

  it("has 24 plans: 15 a reviewer blocks, 9 good ones, at least 4 revision pairs, at least 10 domains", () => {
    expect(cases.length).toBe(24);
    expect(cases.filter((c) => c.gate === "fail").length).toBe(15);
    expect(cases.filter((c) => c.gate === "pass").length).toBe(9);
    expect(cases.filter((c) => c.original).length).toBeGreaterThanOrEqual(4);
    expect(new Set(cases.map((c) => c.domain)).size).toBeGreaterThanOrEqual(10);
  });

  it("uses no domain of the labelled corpus or the first holdout", () => {
    const earlier = new Set([...loadCorpus("specs/lint/corpus"), ...loadCorpus("specs/lint/holdout")].map((c) => c.domain));
    expect(cases.map((c) => c.domain).filter((d) => earlier.has(d))).toEqual([]);
  });

  it("compiles every plan and original without a diagnostic", () => {
    expect(linted.flatMap((l) => l.compileProblems)).toEqual([]);
  });

  it("labels only registered rule ids, and only steps the plans have", () => {
    expect(labelProblems(cases, new Set(registeredRules().map((r) => r.id)))).toEqual([]);
  });

  it("gives the same gate in process as the CLI does (an escape, a revision case, a hard negative)", () => {
    expect(cliDisagreements(linted, ["newsroom-story-update-publishes", "energy-revision-approval-parallel", "good-telecom-port-status-poll"])).toEqual([]);
  });
});

describe("holdout2 score", () => {
  it("prints the figures", () => {
    // The report is the point of this file: vitest shows it with the run.
    console.log(report);
    expect(score.cases).toBe(24);
  });

  it("stays within the floors: precision, recall (overall and per family), gate accuracy, escapes, false blocks", () => {
    expect(belowFloors(score, HOLDOUT2_FLOORS)).toEqual([]);
  });
});
