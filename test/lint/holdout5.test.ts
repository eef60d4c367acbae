/**
 * The linter judged by the fifth held-out corpus (specs/lint/holdout5/): 24 plans in 15
 * domains that none of the earlier corpora uses, on effects hidden behind a name through a
 * tool catalogued read (package runners fetching `rimraf`, `wrangler` or `vercel`; task
 * targets such as `make clean`; `python3 -m http.server` and `twine upload`; scripts fed to
 * a shell on stdin; `eval` of a variable; functions from a sourced file; scripts named for
 * their effect), and hard negatives of the same forms. Written by a helper from the "Finds"
 * text of docs/rules.md without reading the rule sources, and committed (5fe76c2) before the
 * linter was run on them. The scorer is the corpus's (test/lint/corpus.ts).
 *
 *   PLANSPEC_HOLDOUT5_REPORT=out.md npx vitest run test/lint/holdout5.test.ts   # also writes the report
 *   node bench/lint-precision.mjs --holdout5                                      # prints it
 */
import type { Floors } from "./corpus.js";
import { heldOutSuite } from "./held-out.js";

export const HOLDOUT5_DIR = "specs/lint/holdout5";

/**
 * Measured blind twice. At 15a3a87 (before this class was looked at): precision 1.00 (14 of
 * 14), recall 0.41 (14 of 34), gate accuracy 0.67: 8 of 14 blocked plans escaped, none of
 * the 10 good plans blocked. At f04d290 (package runners, task targets, modules, stdin
 * scripts and eval of a variable read, from cases written before this corpus existed):
 * 1.00 / 0.85 (29 of 34), 2 escapes, no false block. Tuned on since (`fix_*` scripts are
 * writes, a non-script file fed to a shell and the functions of a sourced file are code the
 * plan does not show or read by their names): 1.00 / 0.97. The one escape left is the
 * corpus's own judgment call: `python3 task.py`, blocked by its plan's context (its goal
 * clears lock files), while `./run.sh` and `node index.js` pass in two good plans; a name
 * that says nothing is not read as an effect, so the linter cannot tell them apart.
 */
export const HOLDOUT5_FLOORS: Floors = {
  precision: 0.95,
  recall: 0.95,
  gateAccuracy: 0.95,
  maxEscapes: 1,
  maxFalseBlocks: 0,
  maxSilentOnBad: 1,
  family: {
    risk: { precision: 0.95, recall: 0.95 },
    bounds: { precision: 0, recall: 0 },
    revision: { precision: 0, recall: 0 },
    wiring: { precision: 0, recall: 0 },
    other: { precision: 0.8, recall: 0.8 },
  },
};

heldOutSuite({
  title: "the fifth held-out corpus",
  dir: HOLDOUT5_DIR,
  floors: HOLDOUT5_FLOORS,
  reportEnv: "PLANSPEC_HOLDOUT5_REPORT",
  cliCases: ["print-shop-queue-cat-fix-sh-bash", "cinema-showtime-eval-var-source-tidy", "good-studio-labelled-make-clean"],
  newDomainsAgainst: ["specs/lint/corpus", "specs/lint/holdout", "specs/lint/holdout2", "specs/lint/holdout3", "specs/lint/holdout4"],
  shape: { blocked: 14, good: 10, revisionPairs: 0 },
});
