/**
 * The gate bypasses issue 11 names: plans a careful reviewer stops that `planspec lint`
 * passed (exit 0). Each must now fail the gate (exit 1) with the findings that say why,
 * through the real CLI in-process; their full output is pinned by the golden walker.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { repoRoot } from "../helpers.js";

async function lint(file: string): Promise<{ status: number; errors: string[] }> {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const err = new Writable({ write: (_c, _e, done) => done() });
  const status = await main(["lint", file, "--format", "json"], { stdout: out, stderr: err, cwd: repoRoot, env: { NO_COLOR: "1" } });
  const list = JSON.parse(chunks.join("") || "[]") as Array<{ code: string; severity: string; message: string }>;
  return { status, errors: list.filter((d) => d.severity === "error").map((d) => d.code) };
}

const cases: Array<[string, string, string[]]> = [
  ["DROP TABLE through a read-catalogued tool", "risk-under-labelled-drop-table", ["risk-under-labelled"]],
  ["rm -rf in a read-catalogued shell tool", "risk-under-labelled-rm-rf", ["risk-under-labelled"]],
  ["kubectl delete on a production context with no approval", "high-impact-without-approval-kubectl-production", ["high-impact-without-approval"]],
  ["repeat: { max_attempts: 10000 }", "excessive-bound-repeat-10000", ["excessive-bound"]],
  ["500 refunds in a for_each, retried, no key, no approval", "high-impact-without-approval-bulk-refunds", ["high-impact-without-approval", "side-effect-without-idempotency-key"]],
  ["an approval step on a parallel branch", "approval-not-gating-parallel-branch", ["approval-not-gating"]],
];

describe("gate bypasses of issue 11 fail the gate", () => {
  it.each(cases)("%s", async (_name, file, rules) => {
    const r = await lint(`specs/lint/err/${file}.plan.yaml`);
    for (const rule of rules) expect(r.errors, `an error of ${rule}`).toContain(rule);
    expect(r.status).toBe(1);
  });
});
