/**
 * The linter judged by the sixth held-out corpus (specs/lint/holdout6/): 24 plans in 14
 * domains that none of the earlier corpora uses, on effects that reach the machine or the
 * world through a shell step catalogued read, in the forms 52b44d7 reads (SQL in
 * here-documents and here-strings, text typed into screen and tmux, awk `system()`, ansible
 * `-m uri` and `-m script`, zip and 7z, firewall-cmd, nmcli, ifconfig and route, rclone,
 * goose, `sftp -b` and `ssh < file`, workspace scripts), and hard negatives of the same forms.
 * Written by a helper from docs/rules.md without reading the rule sources, and committed
 * (73c67f6) before the linter was run on them. The scorer is the corpus's (test/lint/corpus.ts).
 *
 *   PLANSPEC_HOLDOUT6_REPORT=out.md npx vitest run test/lint/holdout6.test.ts   # also writes the report
 *   node bench/lint-precision.mjs --holdout6                                      # prints it
 */
import type { Floors } from "./corpus.js";
import { heldOutSuite } from "./held-out.js";

export const HOLDOUT6_DIR = "specs/lint/holdout6";

/**
 * Measured blind at 73c67f6 (the reader of 52b44d7, the corpus unseen): precision 0.82 (28 of
 * 34 findings), recall 0.90 (28 of 31), gate accuracy 0.92: 1 escape (`cat <<'EOF' | sqlite3
 * -header -column db`: `-column` was taken for sqlite3's own SQL), 1 false block (a SELECT's
 * `>=` in a psql here-document read as a redirect, its body lines read as shell lines).
 * At 8b831c1, before that reader: see bench/README.md. Tuned since (bodies a SQL client, an
 * interpreter or a display program reads are not shell lines; sqlite3's own SQL is its
 * second operand; `sftp -b` is code the plan does not show, a destructive write, as docs/rules.md
 * says): 1.00 / 0.97. The one miss left: `high-impact-without-approval` for `goose reset` on a
 * database named in an `export GOOSE_DBSTRING=...prod...` earlier on the line; the
 * production check reads the command's own arguments.
 */
export const HOLDOUT6_FLOORS: Floors = {
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
  title: "the sixth held-out corpus",
  dir: HOLDOUT6_DIR,
  floors: HOLDOUT6_FLOORS,
  reportEnv: "PLANSPEC_HOLDOUT6_REPORT",
  cliCases: ["aquarium-reef-alarms-psql-heredoc-delete", "laundromat-card-readers-sftp-batch-ssh-stdin", "good-marina-mysql-herestring-select-cat-heredoc-ticket"],
  newDomainsAgainst: ["specs/lint/corpus", "specs/lint/holdout", "specs/lint/holdout2", "specs/lint/holdout3", "specs/lint/holdout4", "specs/lint/holdout5"],
  shape: { blocked: 14, good: 10, revisionPairs: 0 },
});
