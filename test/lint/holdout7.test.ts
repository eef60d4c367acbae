/**
 * The linter judged by the seventh held-out corpus (specs/lint/holdout7/): 24 plans in 14
 * domains that none of the earlier corpora uses, on what a shell step catalogued read hands
 * to another program: a file or text to ssh's far end, lines generated for a shell by awk,
 * sed or a script, sftp's commands on stdin, awk's -v values, prints and files, nested
 * here-documents, sqlite3's arguments and dot-commands, mysql `system`, `clickhouse client`,
 * the workspace runners (yarn workspace and foreach, lerna, nx, turbo), ansible's quoted and
 * JSON arguments, option bundles and prefixes (zip, nmcli, ip), migrators and database
 * administration programs, a production database named in the line's assignments; and hard
 * negatives of the same forms. Written by a helper from docs/rules.md without reading the
 * rule sources, and committed (248ec29) before the linter was run on them. The scorer is the
 * corpus's (test/lint/corpus.ts).
 *
 *   PLANSPEC_HOLDOUT7_REPORT=out.md npx vitest run test/lint/holdout7.test.ts   # also writes the report
 *   node bench/lint-precision.mjs --holdout7                                      # prints it
 */
import type { Floors } from "./corpus.js";
import { heldOutSuite } from "./held-out.js";

export const HOLDOUT7_DIR = "specs/lint/holdout7";

/**
 * Measured blind at 248ec29 (the reader of 1a29c81 and the commits after it, the corpus
 * unseen): precision 0.98 (54 of 55 findings), recall 0.92 (54 of 59), gate accuracy 1.00:
 * no escape, no false block. Missed: SQL awk prints to psql after a comparison's string
 * (the strings were joined into one statement), `sshpass -e sftp host < cmds` (`-e` was taken
 * to hold a value, sftp for it), mysql's `system` after a `;` on its line (and with it the
 * step's write-without-verification, put on the next write instead: the one false alarm), and
 * ssh's production host for the commands of a here-document it runs. Tuned since: 1.00 / 1.00.
 */
export const HOLDOUT7_FLOORS: Floors = {
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
  title: "the seventh held-out corpus",
  dir: HOLDOUT7_DIR,
  floors: HOLDOUT7_FLOORS,
  reportEnv: "PLANSPEC_HOLDOUT7_REPORT",
  cliCases: ["beekeeping-coop-hive-scales-ssh-bash-s-psql-stdin-awk-psql", "creamery-labels-ls-sed-bash-echo-ssh-pghost-dropdb-prod", "good-karaoke-bar-echo-ls-sftp-batch-stdin-reads-cat-cmds"],
  newDomainsAgainst: ["specs/lint/corpus", "specs/lint/holdout", "specs/lint/holdout2", "specs/lint/holdout3", "specs/lint/holdout4", "specs/lint/holdout5", "specs/lint/holdout6"],
  shape: { blocked: 14, good: 10, revisionPairs: 0 },
});
