/**
 * A resumed session starts with a journal record of what its checks changed, not with a
 * rewrite of the whole state: state.json (the snapshot) is left as it was, and the state
 * on disk (snapshot + journal) still says what the checks decided. Real processes,
 * killed with SIGKILL: mid-step, then right after the resume's first write, then resumed
 * again to the end.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_TOOLS, readState, tempDir, writeFile } from "../runtime/helpers.js";
import { fileLines, killHard, planspec, startPlanspec, waitFor } from "./run-helpers.js";

const PLAN = `planspec: 1
name: held
goal: Load, hold, then echo
tools:
  echo: { risk: read }
  gate: { risk: write }
limits: { max_tool_calls: 20 }
steps:
  load: { kind: read, goal: Load, tool: echo, with: { n: 1 }, output: loaded }
  hold: { kind: write, goal: Hold, needs: [load], tool: gate, risk: write, with: { release: release }, output: held }
  after: { kind: analyze, goal: Echo, needs: [hold], tool: echo, with: { v: "\${{ steps.hold.output.released }}" }, output: echoed }
`;

/** A run killed with SIGKILL while its write step "hold" is inside its tool. */
async function killedMidStep(): Promise<{ ws: string; dir: string }> {
  const ws = tempDir("planspec-resume-record-");
  writeFile(ws, "tools.mjs", TEST_TOOLS);
  writeFile(ws, "held.plan.yaml", PLAN);
  const child = startPlanspec(ws, ["run", "held.plan.yaml", "--tools", "tools.mjs", "--run-id", "r", "--no-lint-gate"]);
  await waitFor(() => fileLines(join(ws, "gate-entered")).length > 0);
  await killHard(child);
  return { ws, dir: join(ws, ".planspec/runs/r") };
}

describe("the start of a resumed session", () => {
  it("is a journal record of the checks' changes: killed right after it, the snapshot is untouched and the next resume finishes", async () => {
    const { ws, dir } = await killedMidStep();
    const killed = readState(dir);
    expect(killed.nodes.hold!.status).toBe("running");
    const snapshot = readFileSync(join(dir, "state.json"), "utf8");
    const journalBefore = statSync(join(dir, "journal.jsonl")).size;
    writeFile(ws, "release", "");

    // Killed right after the resumed session's first state write.
    const r = planspec(ws, ["resume", "r", "--rerun-interrupted"], { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: String(killed.stateVersion + 1) });
    expect(r.signal, r.stderr).toBe("SIGKILL");
    expect(readFileSync(join(dir, "state.json"), "utf8")).toBe(snapshot);
    expect(statSync(join(dir, "journal.jsonl")).size).toBeGreaterThan(journalBefore);
    const started = readState(dir);
    expect(started.stateVersion).toBe(killed.stateVersion + 1);
    expect(started.status).toBe("running");
    // The check's decision (re-run the interrupted step) is on disk; nothing else changed.
    expect(started.nodes.hold!.status).toBe("pending");
    expect(started.nodes.hold!.awaiting).toBeUndefined();
    expect(started.nodes.load).toEqual(killed.nodes.load);
    expect(started.nodes.after).toEqual(killed.nodes.after);

    // Resumed again: the step is pending, not interrupted, so no --rerun-interrupted is needed.
    const done = planspec(ws, ["resume", "r"]);
    expect(done.code, done.stderr).toBe(0);
    const end = readState(dir);
    expect(end.status).toBe("done");
    expect(Object.values(end.nodes).map((n) => n.status)).toEqual(["done", "done", "done"]);
    expect(fileLines(join(ws, "calls.log")).filter((c) => c === "echo:load")).toHaveLength(1);
    // The session ended with a snapshot: the journal is folded in, and status answers from the head line.
    expect(statSync(join(dir, "journal.jsonl")).size).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "state.json"), "utf8")).nodes).toEqual(end.nodes);
    const status = planspec(ws, ["status", "r"]);
    expect(status.stdout).toMatch(/run r \(held\): done/);
  });

  it("names no node when the checks changed none, and the session's last snapshot of a plan with secrets still holds every node", () => {
    const ws = tempDir("planspec-resume-record-");
    writeFile(ws, "tools.mjs", TEST_TOOLS);
    writeFile(ws, "keyed.plan.yaml", `planspec: 1
name: keyed
goal: Echo a token, then wait for a person
secrets: [RECORD_TEST_TOKEN]
tools: { echo: { risk: read } }
limits: { max_tool_calls: 20 }
steps:
  one: { kind: analyze, goal: One, tool: echo, with: { t: "\${{ secrets.RECORD_TEST_TOKEN }}" }, output: a }
  two: { kind: analyze, goal: Two, needs: [one], tool: echo, with: { v: "\${{ steps.one.output.t }}" }, output: b, approval: { required: true, approvers: [ops] } }
`);
    const env = { RECORD_TEST_TOKEN: "tok-123456789" };
    expect(planspec(ws, ["run", "keyed.plan.yaml", "--tools", "tools.mjs", "--run-id", "k", "--no-lint-gate"], env).code).toBe(3);
    const dir = join(ws, ".planspec/runs/k");
    // Resumed without a decision: the checks change nothing, the session pauses again at the gate.
    const r = planspec(ws, ["resume", "k"], env);
    expect(r.code, r.stderr).toBe(3);
    const snapshot = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as { status: string; nodes: Record<string, { status: string }> };
    expect(snapshot.status).toBe("paused");
    expect(Object.entries(snapshot.nodes).map(([id, n]) => [id, n.status])).toEqual([["one", "done"], ["two", "pending"]]);
    expect(readFileSync(join(dir, "state.json"), "utf8")).not.toContain("tok-123456789");
  });

  it("a resumed session killed after any of its state writes is resumed again to the same end, its external effect once", () => {
    const ws = tempDir("planspec-resume-record-");
    writeFile(ws, "tools.mjs", TEST_TOOLS);
    writeFile(ws, "pay.plan.yaml", `planspec: 1
name: pay
goal: Load, pay, echo
tools: { echo: { risk: read }, ledger: { risk: external } }
limits: { max_tool_calls: 20 }
steps:
  load: { kind: read, goal: Load, tool: echo, with: { n: 7 }, output: loaded }
  pay: { kind: external, goal: Pay, needs: [load], tool: ledger, risk: external, idempotency_key: "\${{ run.id }}:pay", with: { entry: "\${{ steps.load.output.n }}" }, output: paid }
  after: { kind: analyze, goal: Echo, needs: [pay], tool: echo, with: { v: "\${{ steps.pay.output.written }}" }, output: echoed }
`);
    const run = (id: string, env: Record<string, string> = {}) => planspec(ws, ["run", "pay.plan.yaml", "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate"], env);
    // Killed after its first write: the run exists, nothing has started; every later write is the resume's.
    const first = run("probe", { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: "1" });
    expect(first.signal).toBe("SIGKILL");
    const probe = planspec(ws, ["resume", "probe"]);
    expect(probe.code, probe.stderr).toBe(0);
    const last = readState(join(ws, ".planspec/runs/probe")).stateVersion;
    // The start record, a write per turn of the three steps, the closing snapshot.
    expect(last).toBeGreaterThanOrEqual(5);
    for (let v = 2; v < last; v++) {
      const id = `k${v}`;
      expect(run(id, { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: "1" }).signal).toBe("SIGKILL");
      const killed = planspec(ws, ["resume", id], { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: String(v) });
      expect(killed.signal, `resume killed after write ${v}`).toBe("SIGKILL");
      let r = planspec(ws, ["resume", id]);
      // Killed inside the external step's call: a person decides; here the key makes it safe.
      if (r.code === 3) r = planspec(ws, ["resume", id, "--rerun-interrupted"]);
      expect(r.code, `after a kill at ${v}: ${r.stderr}`).toBe(0);
      const end = readState(join(ws, ".planspec/runs", id));
      expect(end.status).toBe("done");
      expect(Object.values(end.nodes).map((n) => n.status)).toEqual(["done", "done", "done"]);
      expect(fileLines(join(ws, "ledger.txt")).filter((l) => l.startsWith(`${id}:pay `)), `pay after a kill at ${v}`).toEqual([`${id}:pay 7`]);
      expect(statSync(join(ws, ".planspec/runs", id, "journal.jsonl")).size).toBe(0);
    }
  });
});
