/**
 * Consistency over repeated planning (τ-bench's pass^k): every case planned k times, each
 * trial scored on its own. A case passes^k when all k trials pass; pass^j for j < k is
 * estimated without bias from the same trials as C(c, j) / C(k, j), c the trials passed,
 * so pass^1 is the mean single-trial success (pass@1).
 */
import type { CaseScore, SuiteScore } from "./score.js";

/** One trial of one case passes: the plan compiles, covers every required step, does nothing forbidden, calls only catalogued tools and passes lint. */
export function trialPassed(c: CaseScore): boolean {
  return c.status === "ok" && c.coverage === 1 && c.forbidden.length === 0 && c.hallucinated.length === 0 && c.lintPass;
}

export interface CaseTrials {
  id: string;
  /** Per trial, in order. */
  passed: boolean[];
  successes: number;
  /** 1 when every trial passed, else 0. */
  pass_hat_k: number;
}

export interface TrialsReport {
  k: number;
  cases: CaseTrials[];
  /** pass^j for j = 1..k, averaged over cases (keys "1".."k"). */
  pass_hat: Record<string, number>;
  /** Mean single-trial success over all cases and trials (= pass^1). */
  pass_at_1: number;
  /** Each trial's suite summary, in order. */
  summaries: Array<SuiteScore["summary"]>;
}

/** C(n, r) for the small n of a trial count. */
function choose(n: number, r: number): number {
  if (r < 0 || r > n) return 0;
  let out = 1;
  for (let i = 1; i <= r; i++) out = (out * (n - r + i)) / i;
  return out;
}

/** Combines the scores of k trials of one suite (same cases, same order). */
export function combineTrials(trials: readonly SuiteScore[]): TrialsReport {
  const k = trials.length;
  if (k === 0) throw new Error("combineTrials needs at least one trial");
  const cases: CaseTrials[] = trials[0]!.cases.map((c, i) => {
    const passed = trials.map((t) => trialPassed(t.cases[i]!));
    const successes = passed.filter(Boolean).length;
    return { id: c.id, passed, successes, pass_hat_k: successes === k ? 1 : 0 };
  });
  const pass_hat: Record<string, number> = {};
  for (let j = 1; j <= k; j++) {
    pass_hat[String(j)] = cases.length === 0 ? 0 : cases.reduce((a, c) => a + choose(c.successes, j) / choose(k, j), 0) / cases.length;
  }
  return { k, cases, pass_hat, pass_at_1: pass_hat["1"]!, summaries: trials.map((t) => t.summary) };
}

/** The trials as a text table: per case the trials passed and pass^k, then the overall figures. */
export function formatTrials(r: TrialsReport): string {
  const head = ["case", "passed", `pass^${r.k}`];
  const rows = r.cases.map((c) => [c.id, `${c.successes}/${r.k}`, String(c.pass_hat_k)]);
  const widths = head.map((_, i) => Math.max(head[i]!.length, ...rows.map((x) => x[i]!.length)));
  const line = (x: string[]) => x.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  const overall = Object.entries(r.pass_hat).map(([j, v]) => `pass^${j} ${v.toFixed(4)}`).join(", ");
  return [
    "",
    `trials: ${r.k} per case (a trial passes when its plan compiles, covers every required step, does nothing forbidden, calls only catalogued tools and passes lint)`,
    line(head),
    ...rows.map(line),
    `overall: pass@1 ${r.pass_at_1.toFixed(4)}, ${overall}`,
  ].join("\n") + "\n";
}
