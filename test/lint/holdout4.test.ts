/**
 * The linter judged by the fourth held-out corpus (specs/lint/holdout4/): 24 plans in 14
 * domains that none of the earlier corpora uses, on effects hidden in code a step hands to
 * an interpreter or a database (`python3 -c`, `node -e`, `ruby -e`, `perl -e`, `php -r`,
 * `CALL`, `VACUUM FULL`, `DO` blocks, dynamic SQL, shell functions, aliases, here-docs)
 * through a tool catalogued read, and hard negatives of the same forms. Written by a helper
 * from the "Finds" text of docs/rules.md without reading the rule sources, and committed
 * (db00b0e) before the linter was run on them. The class was named in its brief after the
 * reading of interpreter code had been written (a9d818b) but not tuned on these plans: the
 * first figures below are the blind ones. The scorer is the corpus's (test/lint/corpus.ts).
 *
 *   PLANSPEC_HOLDOUT4_REPORT=out.md npx vitest run test/lint/holdout4.test.ts   # also writes the report
 *   node bench/lint-precision.mjs --holdout4                                      # prints it
 */
import type { Floors } from "./corpus.js";
import { heldOutSuite } from "./held-out.js";

export const HOLDOUT4_DIR = "specs/lint/holdout4";

/**
 * Measured blind (main at a9d818b + 941738a, the labels committed in db00b0e): precision
 * 0.66 (39 of 59), recall 0.95 (39 of 41), gate accuracy 0.96: 0 of 14 blocked plans escape,
 * 1 of 10 good plans blocked. All 20 false alarms were one cause: the tool `post.exec` of a
 * film post-production team read as "post" (a send) by its namespace; the two misses, a
 * boto3 `.delete()` read as a local delete, not an external one. Tuned on since (the runner
 * namespace rule in risk-words.ts, remote SDKs in risk-code.ts): 1.00 / 1.00, the other
 * corpora unchanged. So this holdout is tuning data now, like the first three; the floors
 * are the tuned figures less about one finding per family.
 */
export const HOLDOUT4_FLOORS: Floors = {
  precision: 0.95,
  recall: 0.95,
  gateAccuracy: 0.95,
  maxEscapes: 0,
  maxFalseBlocks: 1,
  maxSilentOnBad: 0,
  family: {
    risk: { precision: 0.95, recall: 0.95 },
    bounds: { precision: 0, recall: 0 },
    revision: { precision: 0, recall: 0 },
    wiring: { precision: 0, recall: 0 },
    other: { precision: 0.8, recall: 0.8 },
  },
};

heldOutSuite({
  title: "the fourth held-out corpus",
  dir: HOLDOUT4_DIR,
  floors: HOLDOUT4_FLOORS,
  reportEnv: "PLANSPEC_HOLDOUT4_REPORT",
  cliCases: ["film-conform-node-rmsync-argv", "gym-checkins-do-truncate-dynamic-delete", "good-dental-print-mentions-rmtree"],
  newDomainsAgainst: ["specs/lint/corpus", "specs/lint/holdout", "specs/lint/holdout2", "specs/lint/holdout3"],
  shape: { blocked: 14, good: 10, revisionPairs: 0 },
});
