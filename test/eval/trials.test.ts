/** pass^k over repeated trials (τ-bench), computed by hand for three trials. */
import { describe, expect, it } from "vitest";
import type { CaseScore, SuiteScore } from "../../src/eval/score.js";
import { combineTrials, trialPassed } from "../../src/eval/trials.js";

const ok = (id: string): CaseScore =>
  ({ id, status: "ok", problems: [], coverage: 1, uncovered: [], forbidden: [], redundancy: 0, duplicates: [], dead: [], nodeF1: 1, edgeF1: 1, riskAccuracy: 1, mislabelled: [], lintPass: true, lintErrors: [], hallucinated: [] }) as CaseScore;
const suite = (...cases: CaseScore[]): SuiteScore => ({ suite: "s", cases, summary: {} as SuiteScore["summary"] });

describe("combineTrials", () => {
  it("a trial passes only with a compiled, fully covering, lint-clean plan that does nothing forbidden or hallucinated", () => {
    expect(trialPassed(ok("a"))).toBe(true);
    expect(trialPassed({ ...ok("a"), coverage: 0.5 })).toBe(false);
    expect(trialPassed({ ...ok("a"), lintPass: false })).toBe(false);
    expect(trialPassed({ ...ok("a"), forbidden: ["tool=x"] })).toBe(false);
    expect(trialPassed({ ...ok("a"), hallucinated: ["s"] })).toBe(false);
    expect(trialPassed({ ...ok("a"), status: "missing" })).toBe(false);
  });

  it("estimates pass^j = C(c, j) / C(k, j) per case, averaged; pass^k needs every trial", () => {
    const fail = (id: string) => ({ ...ok(id), coverage: 0 });
    // Case a passes 3 of 3, b 2 of 3, c 0 of 3.
    const r = combineTrials([suite(ok("a"), ok("b"), fail("c")), suite(ok("a"), fail("b"), fail("c")), suite(ok("a"), ok("b"), fail("c"))]);
    expect(r.cases.map((c) => [c.id, c.successes, c.pass_hat_k])).toEqual([["a", 3, 1], ["b", 2, 0], ["c", 0, 0]]);
    expect(r.pass_hat["1"]).toBeCloseTo((1 + 2 / 3 + 0) / 3, 12);
    expect(r.pass_hat["2"]).toBeCloseTo((1 + 1 / 3 + 0) / 3, 12);
    expect(r.pass_hat["3"]).toBeCloseTo(1 / 3, 12);
    expect(r.pass_at_1).toBe(r.pass_hat["1"]);
  });
});
