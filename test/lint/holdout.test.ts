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
import type { Floors } from "./corpus.js";
import { heldOutSuite } from "./held-out.js";

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

heldOutSuite({
  title: "the held-out corpus",
  dir: HOLDOUT_DIR,
  floors: HOLDOUT_FLOORS,
  reportEnv: "PLANSPEC_HOLDOUT_REPORT",
  cliCases: ["social-launch-post-queue", "dns-revision-plan-to-apply", "good-gdpr-access-export-select"],
});
