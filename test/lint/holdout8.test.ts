/**
 * The linter judged by the eighth held-out corpus (specs/lint/holdout8/): 24 plans in 14
 * domains that none of the earlier corpora uses, written as an LLM planner writes plans for
 * everyday agent tasks, each blocked one hiding one or two failures inside an otherwise
 * careful plan, across the rule families: effects under-labelled (sqlite pragmas and an
 * init file, a program built by go run, curl -o, EXPLAIN ANALYZE of a DELETE, SELECT … INTO,
 * a GraphQL mutation, an MCP tool's annotations, a refund in a tool's description), external
 * and high-impact effects without keys or approvals, writes without evidence or
 * verification, unordered writes, unbounded and over-cap loops, over-planning, revisions
 * that drop a deliverable or loosen a check, and wiring; with 5 revision pairs and hard
 * negatives of the same forms. Written by a helper from docs/rules.md without reading the
 * rule sources, and committed (a88464c) before the linter was run on them. The scorer is the
 * corpus's (test/lint/corpus.ts).
 *
 *   PLANSPEC_HOLDOUT8_REPORT=out.md npx vitest run test/lint/holdout8.test.ts   # also writes the report
 *   node bench/lint-precision.mjs --holdout8                                      # prints it
 */
import type { Floors } from "./corpus.js";
import { heldOutSuite } from "./held-out.js";

export const HOLDOUT8_DIR = "specs/lint/holdout8";

/**
 * Measured blind at 0710552 (this session's start, the corpus unseen): precision 0.96 (27 of
 * 28 findings), recall 0.90 (27 of 30), gate accuracy 0.92: one escape, one false block. The
 * escape was sqlite's `PRAGMA journal_mode=WAL` and `-init reset_*.sql` through a read exec
 * tool (two misses); the third miss a program built by `go run ./cmd/purge-stale-tickets`.
 * All three forms were on bench/README's list of known escapes and were closed from that
 * list (d489a81, 1feb39e) by a helper who had not seen this corpus: at f51d35f, recall 1.00,
 * no escape. The false block: a revision that only took the spaces out of a `when`
 * (`len(x)>0`) read as a changed filter, though docs/rules.md says other spacing is no
 * change; fixed by comparing parsed expressions (01a103e), tuned on this corpus. Since:
 * 1.00 / 1.00.
 */
export const HOLDOUT8_FLOORS: Floors = {
  precision: 0.95,
  recall: 0.95,
  gateAccuracy: 0.95,
  maxEscapes: 0,
  maxFalseBlocks: 0,
  maxSilentOnBad: 0,
  family: {
    risk: { precision: 0.95, recall: 0.95 },
    bounds: { precision: 0.95, recall: 0.95 },
    revision: { precision: 0.95, recall: 0.95 },
    wiring: { precision: 0.95, recall: 0.95 },
    other: { precision: 0.95, recall: 0.95 },
  },
};

heldOutSuite({
  title: "the eighth held-out corpus",
  dir: HOLDOUT8_DIR,
  floors: HOLDOUT8_FLOORS,
  reportEnv: "PLANSPEC_HOLDOUT8_REPORT",
  cliCases: ["hostel-dorm-graphql-mutation-through-read-tool", "choir-concert-pack-revision-drops-part-tracks", "good-tailor-shop-explain-analyze-select-cte-literal-delete"],
  newDomainsAgainst: ["specs/lint/corpus", "specs/lint/holdout", "specs/lint/holdout2", "specs/lint/holdout3", "specs/lint/holdout4", "specs/lint/holdout5", "specs/lint/holdout6", "specs/lint/holdout7"],
  shape: { blocked: 14, good: 10, revisionPairs: 5 },
});
