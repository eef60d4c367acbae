/**
 * The linter judged by the third held-out corpus (specs/lint/holdout3/): 24 plans in 20
 * domains that none of specs/lint/corpus/, specs/lint/holdout/ and specs/lint/holdout2/
 * uses, labelled from the "Finds" text of docs/rules.md and committed before the linter was
 * first run on them. The first two holdouts became tuning data once their misses and false
 * alarms were worked on; this one is the blind judge now. The scorer is the corpus's
 * (test/lint/corpus.ts). The floors are the figures measured when this holdout landed less
 * about one finding per family; a change that lowers them is a regression to explain.
 * Raise them as rules improve; never lower them to make a change pass, and never relabel a
 * plan to match what lint says (a labelling mistake gets its own commit saying why).
 *
 *   PLANSPEC_HOLDOUT3_REPORT=out.md npx vitest run test/lint/holdout3.test.ts   # also writes the report
 *   node bench/lint-precision.mjs --holdout3                                      # prints it
 */
import type { Floors } from "./corpus.js";
import { heldOutSuite } from "./held-out.js";

export const HOLDOUT3_DIR = "specs/lint/holdout3";

/**
 * The floors, in one place. Measured blind when this holdout landed (main at e82deef, the
 * labels committed first in 8af285a): precision 1.00 (38 of 38), recall 0.95 (38 of 40),
 * gate accuracy 1.00, 0 of 15 blocked plans escape, 0 of 9 good plans blocked, every
 * blocked plan gets a finding; per family risk 1.00/1.00, bounds 1.00/0.83, revision
 * 1.00/1.00, wiring 1.00/1.00, other 1.00/0.83. The two misses: unbounded-loop on a goal
 * that goes on "until a legal roster is found" with no repeat, and write-without-verification
 * on a plan whose only write (an UPDATE with no WHERE) no verify step checks. The floors are
 * these figures less about one finding per family.
 *
 * Still blind after merging main at 9fb8244 and d18fbcc (write-without-verification on
 * effective writes, ssh hosts, later-clause refinements; made before anyone here read these
 * plans): 1.00 / 0.97 (39 of 40), the unbounded-loop miss left. Not tuned on since: keep it so.
 */
export const HOLDOUT3_FLOORS: Floors = {
  precision: 0.95,
  recall: 0.9,
  gateAccuracy: 0.95,
  /** At most this many blocked plans may pass the gate (0 measured). */
  maxEscapes: 1,
  /** At most this many good plans may fail the gate (0 measured). */
  maxFalseBlocks: 1,
  /** At most this many blocked plans may get no finding at all (0 measured). */
  maxSilentOnBad: 1,
  family: {
    risk: { precision: 0.9, recall: 0.9 },
    bounds: { precision: 0.8, recall: 0.65 },
    revision: { precision: 0.85, recall: 0.85 },
    wiring: { precision: 0.65, recall: 0.5 },
    other: { precision: 0.8, recall: 0.65 },
  },
};

heldOutSuite({
  title: "the third held-out corpus",
  dir: HOLDOUT3_DIR,
  floors: HOLDOUT3_FLOORS,
  reportEnv: "PLANSPEC_HOLDOUT3_REPORT",
  cliCases: ["hotel-rate-sync-sends-later-clause", "payroll-revision-approval-parallel", "good-custody-withdrawals-select"],
  newDomainsAgainst: ["specs/lint/corpus", "specs/lint/holdout", "specs/lint/holdout2"],
});
