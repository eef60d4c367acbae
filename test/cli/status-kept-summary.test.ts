/**
 * The kept status summary (issue 15) agrees with what the whole state and plan say: the
 * cases a review found where `status` / `resume` / `runs` answered from the state's head
 * line and the full read did not agree. Real CLI child processes, real run directories.
 */
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planspec, startPlanspec, waitFor } from "./run-helpers.js";
import { STACK, workspace } from "../security/helpers.js";
import { exists } from "../security/helpers.js";

const dir = (ws: string, id: string) => join(ws, ".planspec/runs", id);
const headLine = (ws: string, id: string) => JSON.parse(`${readFileSync(join(dir(ws, id), "state.json"), "utf8").split("\n")[0]!.replace(/,$/, "")}}`);

describe("the kept summary vouches only for the plan file as it was written or checked, not as it is at the session's end", () => {
  it("plan.ir.json edited while the run is in a step: status and resume refuse it as the full read does", async () => {
    const plan = `planspec: 1
name: line
goal: Echo then wait
tools: { echo: { risk: read }, gate: { risk: write } }
steps:
  s0: { kind: analyze, goal: step 0, tool: echo, with: { i: 0 } }
  g: { kind: write, goal: wait, tool: gate, risk: write, needs: [s0], with: { release: go } }
`;
    const ws = workspace("p.plan.yaml", plan);
    const child = startPlanspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", "mid", "--no-lint-gate"]);
    const exited = new Promise<number | null>((res) => child.once("exit", (code) => res(code)));
    await waitFor(() => exists(join(ws, "gate-entered")));
    // Same size, other content: the run's plan no longer hashes to the recorded planHash.
    const file = join(dir(ws, "mid"), "plan.ir.json");
    const text = readFileSync(file, "utf8");
    const edited = text.replace('"goal":"step 0"', '"goal":"step 9"');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    writeFileSync(join(ws, "go"), "");
    expect(await exited).toBe(0);
    expect(headLine(ws, "mid").summary).toBeDefined();

    const full = planspec(ws, ["status", "mid", "--all"]);
    expect(full.code).toBe(2);
    expect(full.stderr).toMatch(/plan\.ir\.json was edited outside planspec/);
    // The kept summary must not hide the edit the full read refuses.
    const kept = planspec(ws, ["status", "mid"]);
    const resumed = planspec(ws, ["resume", "mid", "--no-lint-gate"]);
    expect({ status: kept.code, resume: resumed.code }, kept.stdout + resumed.stdout).toEqual({ status: 2, resume: 2 });
    expect(kept.stderr).toMatch(/plan\.ir\.json was edited outside planspec/);
    expect(resumed.stderr).toMatch(/plan\.ir\.json was edited outside planspec/);
    expect(resumed.stderr).not.toMatch(STACK);
  });
});

describe("the kept summary's facts are the stored (scrubbed) outputs, as the full read shows them", () => {
  const tools = `export default {
  echo: { risk: "read", run: (args) => args },
};
`;
  const same = (ws: string, id: string) => {
    const kept = planspec(ws, ["status", id]);
    const full = planspec(ws, ["status", id, "--all"]);
    expect(kept.code, kept.stderr).toBe(full.code);
    // A plan of 40 steps or fewer: --all prints what status prints.
    expect(kept.stdout).toBe(full.stdout);
  };

  it("an output holding a secret input: the fact shown is the scrubbed one, whichever way status reads", () => {
    const plan = `planspec: 1
name: sec
goal: Echo a token
inputs: { tok: { type: string, secret: true } }
tools: { echo: { risk: read } }
steps:
  s0: { kind: analyze, goal: step 0, tool: echo, with: { t: "\${{ inputs.tok }}xxxxxxxxxx" } }
`;
    const ws = workspace("p.plan.yaml", plan);
    writeFileSync(join(ws, "tools.mjs"), tools);
    const secret = "Zq9-secret-value-abcdef12";
    expect(planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", "sec", "--no-lint-gate", "--input", `tok=${secret}`]).code).toBe(0);
    expect(headLine(ws, "sec").summary).toBeDefined();
    same(ws, "sec");
  });
});


describe("resume of a finished run answered from the kept summary reads config.json as the full resume does", () => {
  it("a run directory whose config.json is gone: resume refuses in one line, as the full resume does", () => {
    const plan = `planspec: 1
name: line
goal: Echo
limits: { max_tool_calls: 5 }
tools: { echo: { risk: read } }
steps:
  s0: { kind: analyze, goal: step 0, tool: echo, with: { i: 0 } }
`;
    const ws = workspace("p.plan.yaml", plan);
    expect(planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", "nocfg"]).code).toBe(0);
    expect(headLine(ws, "nocfg").summary.noopResume).toBe(true);
    rmSync(join(dir(ws, "nocfg"), "config.json"));
    // With the gate, the fast path reads the config (for the verdict) and refuses.
    const gated = planspec(ws, ["resume", "nocfg"]);
    expect(gated.code).toBe(2);
    expect(gated.stderr).toMatch(/config\.json/);
    // Without it, the same run directory is answered "done".
    const r = planspec(ws, ["resume", "nocfg", "--no-lint-gate"]);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toMatch(/config\.json/);
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe("planspec runs after a revision", () => {
  it("names the same plan from the kept summary as from the whole state", () => {
    const plan = `planspec: 1
name: line
goal: Echo along a line
limits: { max_tool_calls: 10 }
tools: { echo: { risk: read }, flaky: { risk: read } }
steps:
  s0: { kind: analyze, goal: step 0, tool: echo, with: { i: 0 } }
  s1: { kind: analyze, goal: step 1, tool: flaky, with: { succeedOn: 99 }, retry: { max_attempts: 1 }, needs: [s0] }
`;
    const ws = workspace("p.plan.yaml", plan);
    writeFileSync(join(ws, "p2.plan.yaml"), plan.replace("name: line", "name: line-v2").replace("tool: flaky, with: { succeedOn: 99 }, retry: { max_attempts: 1 }", "tool: echo, with: { i: 1 }"));
    expect(planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", "rv", "--no-lint-gate"]).code).toBe(1);
    expect(planspec(ws, ["revise", "rv", "p2.plan.yaml", "--reason", "fix", "--no-lint-gate"]).code).toBe(0);
    expect(planspec(ws, ["resume", "rv", "--no-lint-gate"]).code).toBe(0);
    expect(headLine(ws, "rv").summary).toBeDefined();
    const kept = (JSON.parse(planspec(ws, ["runs", "--json"]).stdout) as Array<Record<string, unknown>>).find((r) => r.id === "rv");
    // A chmod changes the plan file's ctime: the kept summary no longer holds, runs reads the whole state.
    chmodSync(join(dir(ws, "rv"), "revisions/1.ir.json"), 0o644);
    const full = (JSON.parse(planspec(ws, ["runs", "--json"]).stdout) as Array<Record<string, unknown>>).find((r) => r.id === "rv");
    expect(kept).toEqual(full);
  });
});
