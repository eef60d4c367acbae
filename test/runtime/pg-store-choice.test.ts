/**
 * Every run command chooses its store the same way: `--store URL`, else `PLANSPEC_STORE`,
 * else run directories (real processes on a real PostgreSQL; build first). `report` and
 * `revise` used to read run directories only, whatever the environment said.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planspec } from "../cli/run-helpers.js";
import { cliAsync } from "../planner/fixtures.js";
import { openaiReply, startServer } from "../planner/server.js";
import { tempDir, TEST_TOOLS, writeFile } from "./helpers.js";
import { freshDatabase, GATED_PLAN, type TestDatabase } from "./pg-helpers.js";


const FAILING = `planspec: 1
name: fix-typo
goal: Fix the typo in the README
deliverables: [patch]
tools: { doc.read: { risk: read }, code.edit: { risk: write } }
limits: { run_timeout: 10m, max_tool_calls: 20 }
defaults: { timeout: 1m }
steps:
  read_readme: { kind: read, goal: Read the README to find the typo, tool: doc.read, with: { path: README.md }, output: readme }
  fix:
    kind: write
    goal: Fix the typo in the README
    needs: [read_readme]
    tool: code.edit
    with: { text: "\${{ steps.read_readme.output.text }}", fail: true }
    output: patch
`;

const EDIT_TOOLS = `export default {
  "doc.read": { risk: "read", run: async (a) => ({ text: "Teh quick brown fox", path: a.path }) },
  "code.edit": { risk: "write", run: async (a) => { if (a.fail) throw new Error("patch does not apply"); return { diff: "-Teh +The" }; } },
};
`;

const SUB_STEPS = {
  steps: {
    edit: { kind: "write", goal: "Fix the typo in the README", tool: "code.edit", risk: "write", with: { text: "\${{ params.read_readme.text }}" }, output: "patch", success: [{ check: "\${{ exists(output.diff) }}" }] },
  },
};

let tdb: TestDatabase;
let ws: string;

beforeAll(async () => {
  tdb = await freshDatabase();
  ws = tempDir("planspec-pgchoice-");
  writeFile(ws, "tools.mjs", TEST_TOOLS);
  writeFile(ws, "gated.plan.yaml", GATED_PLAN);
  writeFile(ws, "gated-v2.plan.yaml", GATED_PLAN.replace("with: { x: 1 }", "with: { x: 2 }"));
  expect(planspec(ws, ["store", "migrate", "--store", tdb.url]).code).toBe(0);
});

afterAll(async () => {
  await tdb?.drop();
});

describe("store choice on every run command", () => {
  it("report and revise find a run of the store through PLANSPEC_STORE and through --store", () => {
    const env = { PLANSPEC_STORE: tdb.url };
    const run = planspec(ws, ["run", "gated.plan.yaml", "--tools", "tools.mjs", "--run-id", "c1", "--no-lint-gate"], env);
    expect(run.code, run.stderr).toBe(3);

    for (const [args, e] of [[["report", "c1"], env], [["report", "c1", "--store", tdb.url], {}]] as const) {
      const r = planspec(ws, [...args], { ...e });
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/^<!doctype html>/i);
      expect(r.stdout).toContain("c1");
      expect(r.stdout).toContain("prep");
    }

    const rev = planspec(ws, ["revise", "c1", "gated-v2.plan.yaml", "--reason", "x changes", "--no-lint-gate"], env);
    expect(rev.code, rev.stderr).toBe(0);
    expect(rev.stdout).toMatch(/revision 1 recorded: prep \(changed\)/);
    expect(rev.stdout).toContain(`next: planspec resume c1 --store ${tdb.url}`);
    const status = JSON.parse(planspec(ws, ["status", "c1", "--json", "--store", tdb.url]).stdout) as { revision: number; reason: string };
    expect(status).toMatchObject({ revision: 1, reason: expect.stringMatching(/plan revised/) });

    const again = planspec(ws, ["revise", "c1", "gated.plan.yaml", "--reason", "back", "--no-lint-gate", "--store", tdb.url]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/revision 2 recorded/);
  });

  it("a run id the store does not hold is one line, exit 2, for every command that opens a run", () => {
    for (const cmd of [["report", "nope"], ["revise", "nope", "gated.plan.yaml", "--reason", "r"], ["status", "nope"], ["resume", "nope"], ["approve", "nope", "send", "--by", "ops"]]) {
      const r = planspec(ws, cmd, { PLANSPEC_STORE: tdb.url });
      expect(r.code, cmd.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^planspec: no run "nope" in the store postgres:\/\/[^\n]*\n$/);
    }
  });

  it("replan finds a failed run of the store through PLANSPEC_STORE; resume --store then finishes it", async () => {
    writeFile(ws, "edit-tools.mjs", EDIT_TOOLS);
    writeFile(ws, "fix.plan.yaml", FAILING);
    const env = { PLANSPEC_STORE: tdb.url };
    const run = await cliAsync(["run", "fix.plan.yaml", "--tools", "edit-tools.mjs", "--run-id", "r1", "--no-lint-gate"], ws, env);
    expect(run.status, run.stderr).toBe(1);
    const server = await startServer([openaiReply(JSON.stringify(SUB_STEPS))]);
    try {
      const r = await cliAsync(["replan", "r1", "--base-url", `${server.url}/v1`], ws, { ...env, OPENAI_API_KEY: "k" });
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('revision 1 recorded: "fix" replaced by fix.edit');
      expect(r.stdout).toContain(`next: planspec resume r1 --store ${tdb.url}`);
      expect(r.stdout).toMatch(/trace: .*\.planspec\/refine\/r1\/fix\.trace\.jsonl/);
    } finally {
      await server.close();
    }
    const resumed = await cliAsync(["resume", "r1", "--store", tdb.url], ws);
    expect(resumed.status, resumed.stderr).toBe(0);
    const state = JSON.parse(planspec(ws, ["status", "r1", "--json"], env).stdout) as { status: string; nodes: Record<string, { status: string }> };
    expect(state.status).toBe("done");
    expect(state.nodes["fix.edit"]!.status).toBe("done");
  });

  it("an empty PLANSPEC_STORE means run directories", () => {
    const run = planspec(ws, ["run", "gated.plan.yaml", "--tools", "tools.mjs", "--run-id", "d1", "--no-lint-gate"], { PLANSPEC_STORE: " " });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toMatch(/run directory: .*\.planspec\/runs\/d1/);
    const r = planspec(ws, ["report", "d1"], { PLANSPEC_STORE: "" });
    expect(r.code, r.stderr).toBe(0);
  });
});
