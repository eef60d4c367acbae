/**
 * Crash tests: a real `planspec run` is killed with SIGKILL at every step boundary and in
 * the middle of a step, then `planspec resume` finishes the run. The deliverable must
 * equal a fault-free run's, the keyed external side effect must happen exactly once, and
 * read steps run at most once more than needed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_TOOLS, tempDir, writeFile, readState } from "../runtime/helpers.js";
import { fileLines, killHard, planspec, startPlanspec, waitFor } from "./run-helpers.js";

const PLAN = `planspec: 1
name: crashy
goal: Record a payment and write a receipt
deliverables: [receipt]
inputs: { amount: { type: number, default: 42 } }
tools:
  echo: { risk: read }
  gate: { risk: write }
  ledger: { risk: external }
  fs.write: { risk: write }
limits: { max_tool_calls: 50 }
steps:
  load:
    kind: read
    goal: Load the invoice
    tool: echo
    with: { amount: "\${{ inputs.amount }}" }
    output: invoice
  prepare:
    kind: write
    goal: Prepare the payment
    needs: [load]
    tool: gate
    risk: write
    idempotency_key: "\${{ run.id }}:prepare"
    with: { release: release }
    output: prepared
  pay:
    kind: external
    goal: Pay the invoice
    needs: [prepare]
    tool: ledger
    risk: external
    idempotency_key: "\${{ run.id }}:pay"
    with: { entry: "\${{ steps.load.output.amount }}" }
    output: payment
  receipt:
    kind: write
    goal: Write the receipt
    needs: [pay]
    tool: fs.write
    risk: write
    with: { path: receipt.txt, content: "paid \${{ steps.load.output.amount }}" }
    output: receipt
`;

function workspace(release: boolean): string {
  const ws = tempDir("planspec-crash-");
  writeFile(ws, "tools.mjs", TEST_TOOLS);
  writeFile(ws, "crashy.plan.yaml", PLAN);
  if (release) writeFile(ws, "release", "");
  return ws;
}

const runArgs = (id: string) => ["run", "crashy.plan.yaml", "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate"];

/** Resumes until the run ends; an interrupted write/external step needs --rerun-interrupted (exit 3 first). */
function resumeToEnd(ws: string, id: string): string[] {
  const codes: string[] = [];
  let r = planspec(ws, ["resume", id]);
  codes.push(`${r.code}: ${r.stderr}`);
  if (r.code === 3) {
    expect(r.stderr).toMatch(/interrupted mid-call/);
    r = planspec(ws, ["resume", id, "--rerun-interrupted"]);
    codes.push(`${r.code}: ${r.stderr}`);
  }
  return codes;
}

describe("crash and resume through the CLI", () => {
  const baseline = (() => {
    let cached: { receipt: string; receiptHash: string; writes: number } | undefined;
    return () => {
      if (cached) return cached;
      const ws = workspace(true);
      const r = planspec(ws, runArgs("clean"));
      expect(r.code, r.stderr).toBe(0);
      const state = readState(join(ws, ".planspec/runs/clean"));
      cached = { receipt: readFileSync(join(ws, "receipt.txt"), "utf8"), receiptHash: state.nodes.receipt!.outputHash!, writes: state.stateVersion };
      return cached;
    };
  })();

  it("a fault-free run is the reference", () => {
    const b = baseline();
    expect(b.receipt).toBe("paid 42");
    // Creation, one write as each of the 4 steps starts, the closing snapshot (with the last step's end).
    expect(b.writes).toBe(6);
  });

  // A fault-free run writes state 6 times; killing after write 6 would kill a finished run.
  it.each([1, 2, 3, 4, 5])("SIGKILL right after state write %i (a step boundary), then resume: same deliverable, side effect exactly once", (v) => {
    const b = baseline();
    {
      const ws = workspace(true);
      const id = `kill-${v}`;
      const r = planspec(ws, runArgs(id), { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: String(v) });
      expect(r.signal, `kill at state version ${v}`).toBe("SIGKILL");
      const codes = resumeToEnd(ws, id);
      expect(codes.at(-1)!.split(":")[0], `resume after kill at ${v}: ${codes.join("\n")}`).toBe("0");
      const state = readState(join(ws, ".planspec/runs", id));
      expect(state.status).toBe("done");
      expect(readFileSync(join(ws, "receipt.txt"), "utf8")).toBe(b.receipt);
      expect(state.nodes.receipt!.outputHash).toBe(b.receiptHash);
      const calls = fileLines(join(ws, "calls.log"));
      expect(calls.filter((c) => c === "ledger:pay"), `pay calls after kill at ${v}`).toHaveLength(1);
      expect(fileLines(join(ws, "ledger.txt"))).toEqual([`${id}:pay 42`]);
      expect(calls.filter((c) => c === "echo:load").length).toBeLessThanOrEqual(2);
    }
  });

  it("SIGKILL in the middle of a write step: resume stops and asks, --rerun-interrupted finishes exactly once", async () => {
    const b = baseline();
    const ws = workspace(false);
    const child = startPlanspec(ws, runArgs("mid"));
    await waitFor(() => fileLines(join(ws, "gate-entered")).length > 0);
    await killHard(child);
    const runDir = join(ws, ".planspec/runs/mid");
    expect(readState(runDir).nodes.prepare!.status).toBe("running");
    const asked = planspec(ws, ["resume", "mid"]);
    expect(asked.code).toBe(3);
    expect(asked.stderr).toMatch(/step "prepare" \(write\) was interrupted mid-call/);
    const status = planspec(ws, ["status", "mid"]);
    expect(status.stdout).toMatch(/prepare .*interrupted mid-call/);
    writeFile(ws, "release", "");
    const done = planspec(ws, ["resume", "mid", "--rerun-interrupted"]);
    expect(done.code, done.stderr).toBe(0);
    expect(readFileSync(join(ws, "receipt.txt"), "utf8")).toBe(b.receipt);
    expect(fileLines(join(ws, "ledger.txt"))).toEqual(["mid:pay 42"]);
    expect(fileLines(join(ws, "calls.log")).filter((c) => c === "echo:load")).toHaveLength(1);
  });

  it("a second resumer is refused while the first holds the run; a stale lock is taken over", async () => {
    const ws = workspace(false);
    const child = startPlanspec(ws, runArgs("locked"));
    await waitFor(() => fileLines(join(ws, "gate-entered")).length > 0);
    const second = planspec(ws, ["resume", "locked"]);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/in use by process \d+/);
    await killHard(child);
    writeFile(ws, "release", "");
    // The dead process's lock file is still there: it is stale and taken over.
    const r = planspec(ws, ["resume", "locked", "--rerun-interrupted"]);
    expect(r.code, r.stderr).toBe(0);
  });
});
