/**
 * Red team, round 10: a program that leaves `exec`'s process tree. At 61095c6 a step's
 * timeout killed the program and everything below it, but a daemon (`setsid` and a fork, a
 * `detached` child of node, `setsid -f`) had left the tree: it went on after the step had
 * failed as timed out, beside the retry and after the run had ended. Real CLI, real shells,
 * real daemons; each does its effect 2 s after it starts, the step times out after 1 s.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { json, planspecAsync, put, scratch } from "./helpers.js";

const daemonPlan = (args: string[]): string => `planspec: 1
name: start
goal: start the sync daemon
tools: { exec: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  start:
    kind: write
    goal: start the sync daemon and wait for it
    tool: exec
    with: { command: sh, args: ${JSON.stringify(args)} }
    timeout: 1s
    retry: { max_attempts: 2, backoff: fixed, initial_delay: 10ms }
`;

const effects = (ws: string): string => (existsSync(join(ws, "effects.txt")) ? readFileSync(join(ws, "effects.txt"), "utf8") : "");

/** Runs the plan, waits past the daemons' 2 s, and returns what they wrote. */
async function afterTimeout(ws: string): Promise<string> {
  const r = await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "r", "--no-lint-gate"]);
  expect(r.stdout + r.stderr).toContain('step "start" timed out after 1000ms');
  expect(json<{ nodes: { start: { status: string; attempts: number } } }>(join(ws, "r/state.json")).nodes.start).toMatchObject({ status: "failed", attempts: 2 });
  await new Promise((res) => setTimeout(res, 3000));
  return effects(ws);
}

describe("red team 10: a daemon started by an exec step past its timeout", () => {
  it.each([
    // A new session and a fork inside it: the daemon's parent exits, it is init's child.
    ["setsid and a fork", `setsid sh -c '(sleep 2; echo "setsid $$" >> effects.txt) &'\nsleep 30\n`],
    // util-linux's own fork into a new session.
    ["setsid -f", `setsid -f sh -c 'sleep 2; echo "setsid -f" >> effects.txt'\nsleep 30\n`],
    // node's detached child, unreferenced: its own session, its parent gone at once.
    [
      "node detached",
      `${process.execPath} -e 'require("child_process").spawn("sh", ["-c", "sleep 2; echo node >> effects.txt"], { detached: true, stdio: "ignore" }).unref()'\nsleep 30\n`,
    ],
    // nohup and a double fork, the classic daemon.
    ["nohup and a double fork", `( ( nohup sh -c 'sleep 2; echo nohup >> effects.txt' >/dev/null 2>&1 & ) & )\nsleep 30\n`],
  ])("%s: killed with the step, no effect after it failed", async (_name, script) => {
    const ws = scratch();
    put(ws, "start.sh", script);
    put(ws, "p.plan.yaml", daemonPlan(["./start.sh"]));
    // Before: one line per attempt, written after the run had ended with the step failed.
    expect(await afterTimeout(ws)).toBe("");
  }, 20_000);
});

describe("red team 10: what the mark does not kill", () => {
  it("a step beside the one that timed out runs to its end, with the program it started", async () => {
    const ws = scratch();
    put(ws, "start.sh", `setsid -f sh -c 'sleep 2; echo "late" >> effects.txt'\nsleep 30\n`);
    // Its own program and a child in the background, done within the other step's three attempts (3 s).
    put(ws, "other.sh", `sh -c 'sleep 1; echo "other" > other.txt' &\nwait\n`);
    put(
      ws,
      "p.plan.yaml",
      daemonPlan(["./start.sh"]).replace("max_attempts: 2", "max_attempts: 3") +
        `  other:
    kind: write
    goal: run the other script
    tool: exec
    with: { command: sh, args: [./other.sh] }
    timeout: 20s
`,
    );
    const r = await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "r", "--no-lint-gate"]);
    expect(r.stdout + r.stderr).toContain('step "start" timed out after 1000ms');
    expect(json<{ nodes: Record<string, { status: string }> }>(join(ws, "r/state.json")).nodes.other?.status).toBe("done");
    expect(readFileSync(join(ws, "other.txt"), "utf8")).toBe("other\n");
    await new Promise((res) => setTimeout(res, 2500));
    expect(effects(ws)).toBe("");
  }, 20_000);

  it("a step that ended on its own leaves the daemon it started (a server for the steps after it)", async () => {
    const ws = scratch();
    // Its output away from the step's pipes: a daemon holding them keeps the step running (and then timed out).
    put(ws, "start.sh", `setsid -f sh -c 'sleep 1; echo "served" >> effects.txt' >/dev/null 2>&1\n`);
    put(ws, "p.plan.yaml", daemonPlan(["./start.sh"]));
    const r = await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "r", "--no-lint-gate"]);
    expect(r.code, r.stderr).toBe(0);
    await new Promise((res) => setTimeout(res, 2500));
    expect(effects(ws)).toBe("served\n");
  }, 20_000);
});

describe("red team 10: a tool module that does not heed its signal, past its step's timeout", () => {
  /** A tool module whose `slow` notes each call's start and end (ms since the run began) and ignores ctx.signal. */
  const slowTools = (ms: number) => `import { appendFileSync } from "node:fs";
const t0 = Date.now();
export default {
  slow: {
    risk: "write",
    run: async (args, ctx) => {
      appendFileSync("calls.txt", \`start \${ctx.attempt} \${Date.now() - t0}\\n\`);
      await new Promise((res) => setTimeout(res, ${ms}));
      appendFileSync("calls.txt", \`end \${ctx.attempt} \${Date.now() - t0}\\n\`);
      return { ok: true };
    },
  },
};
`;
  const slowPlan = `planspec: 1
name: sync
goal: sync the records
tools: { slow: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  sync:
    kind: write
    goal: sync the records
    tool: slow
    timeout: 500ms
    retry: { max_attempts: 2, backoff: fixed, initial_delay: 10ms }
`;
  const calls = (ws: string) =>
    readFileSync(join(ws, "calls.txt"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" "));

  it("the retry starts after the call before it has ended, never beside it", async () => {
    const ws = scratch();
    put(ws, "tools.mjs", slowTools(800));
    put(ws, "p.plan.yaml", slowPlan);
    const r = await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "r", "--no-lint-gate", "--tools", "tools.mjs"]);
    expect(r.stdout + r.stderr).toContain('step "sync" timed out after 500ms');
    await new Promise((res) => setTimeout(res, 1000));
    const lines = calls(ws);
    const at = (kind: string, attempt: string) => Number(lines.find(([k, a]) => k === kind && a === attempt)?.[2]);
    // Before: "start 2" at ≈ 510 ms, while the first call ran on to ≈ 800 ms.
    expect(at("start", "2"), lines.join("; ")).toBeGreaterThanOrEqual(at("end", "1"));
    expect(json<{ nodes: { sync: { attempts: number } } }>(join(ws, "r/state.json")).nodes.sync.attempts).toBe(2);
  }, 20_000);

  it("a call still running a timeout after its own is not retried: the step fails, saying why", async () => {
    const ws = scratch();
    put(ws, "tools.mjs", slowTools(4000));
    put(ws, "p.plan.yaml", slowPlan);
    const r = await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "r", "--no-lint-gate", "--tools", "tools.mjs"]);
    const node = json<{ nodes: { sync: { attempts: number; lastError: string } } }>(join(ws, "r/state.json")).nodes.sync;
    // Before: a second call beside the first, both doing their effect.
    expect(node.attempts).toBe(1);
    expect(node.lastError).toContain('step "sync" timed out after 500ms');
    expect(node.lastError).toContain('its tool "slow" has not stopped');
    expect(r.stdout + r.stderr).toContain('its tool "slow" has not stopped');
    expect(calls(ws).filter(([k]) => k === "start")).toHaveLength(1);
  }, 20_000);
});
