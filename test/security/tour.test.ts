/**
 * A new user's tour: what the CLI shows after reject, on an unrefined phase, on replan
 * of a template step, and while a run is going (on a terminal and in a log).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readOutput, readState } from "../runtime/helpers.js";
import { BIN, planspec } from "../cli/run-helpers.js";
import { type ScriptServer, openaiReply, startServer } from "../planner/server.js";
import { planspecAsync, workspace } from "./helpers.js";

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const runDir = (ws: string, id: string) => join(ws, ".planspec/runs", id);

describe("the tour", () => {
  it("a rejected step shows as rejected, not as waiting for approval", () => {
    const plan = `planspec: 1
name: gated
goal: Draft and send
tools: { echo: { risk: read } }
limits: { max_tool_calls: 20 }
steps:
  draft: { kind: analyze, goal: Draft the note, tool: echo, with: { t: 1 }, output: note }
  send: { kind: analyze, goal: Send the note, needs: [draft], tool: echo, with: { t: 2 }, approval: { required: true }, output: sent }
`;
    const ws = workspace("gated.plan.yaml", plan);
    expect(planspec(ws, ["run", "gated.plan.yaml", "--tools", "tools.mjs", "--run-id", "g"]).code).toBe(3);
    expect(planspec(ws, ["reject", "g", "send", "--by", "ops", "--note", "not today"]).code).toBe(0);
    const status = planspec(ws, ["status", "g"]);
    const row = status.stdout.split("\n").find((l) => l.startsWith("send "))!;
    expect(row).toMatch(/rejected by ops: not today/);
    expect(status.stdout).not.toMatch(/needs approval/);
    expect(status.stdout).not.toMatch(/Waiting: send/);
    expect(status.stdout).toMatch(/Rejected: send the note \(by ops: not today\)/);
    const json = JSON.parse(planspec(ws, ["status", "g", "--json"]).stdout);
    expect(json.nodes.send.awaiting).toBeUndefined();
    expect(planspec(ws, ["resume", "g"]).code).toBe(1);
    expect(planspec(ws, ["status", "g"]).stdout.split("\n").find((l) => l.startsWith("send "))).toMatch(/skipped .*rejected by ops/);
  });

  it("an unrefined kind: phase pauses with 'refine this phase' and the command, instead of succeeding without its deliverable", () => {
    const plan = `planspec: 1
name: phased
goal: Read the notes, then fix what they say
deliverables: [patch]
tools: { echo: { risk: read } }
limits: { max_tool_calls: 20 }
steps:
  read: { kind: read, goal: Read the notes, tool: echo, with: { t: 1 }, output: notes }
  fix: { kind: phase, goal: Fix what the notes say, needs: [read], expand: planner, output: patch }
`;
    const ws = workspace("phased.plan.yaml", plan);
    const r = planspec(ws, ["run", "phased.plan.yaml", "--tools", "tools.mjs", "--run-id", "ph", "--no-lint-gate"]);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toContain(`refine this phase: "fix" has no sub-steps yet; run planspec refine ${runDir(ws, "ph")} fix`);
    expect(readState(runDir(ws, "ph")).nodes.fix).toMatchObject({ status: "pending", awaiting: { kind: "refine" } });
    expect(planspec(ws, ["status", "ph"]).stdout).toMatch(/fix .*refine this phase: planspec refine/);
    // Resuming without refining pauses the same way.
    expect(planspec(ws, ["resume", "ph"]).code).toBe(3);
  });

  it("replan handles template step ids (steps.reporting.install)", async () => {
    const template = `planspec: 1
template: reporting
description: Install the reporting tool, then build the report
tools: { pkg.info: { risk: read }, pkg.install: { risk: write }, report.build: { risk: write } }
steps:
  check: { kind: read, goal: Look up the reporting package, tool: pkg.info, with: { name: reportgen }, output: info }
  install: { kind: write, goal: Install the reporting package, needs: [check], tool: pkg.install, with: { name: "\${{ steps.check.output.name }}" }, output: installed, retry: { max_attempts: 1 } }
  build: { kind: write, goal: Build the monthly report with the installed tool, needs: [install], tool: report.build, with: { v: "\${{ steps.install.output.version }}", from: "\${{ steps.check.output.name }}" }, output: report }
`;
    const plan = `planspec: 1
name: reports
goal: Build the monthly report
deliverables: [report]
templates: [./reporting.template.yaml]
tools: { pkg.info: { risk: read }, pkg.install: { risk: write }, report.build: { risk: write }, pkg.fetch: { risk: write } }
limits: { max_tool_calls: 20 }
steps:
  reporting: { uses: reporting }
`;
    const tools = `export default {
  "pkg.info": { risk: "read", run: async (a) => ({ name: a.name }) },
  "pkg.install": { risk: "write", run: async () => { throw new Error("no such package: reportgen"); } },
  "pkg.fetch": { risk: "write", run: async (a) => ({ version: "2.1", name: a.name }) },
  "report.build": { risk: "write", run: async (a) => ({ built: a.v, from: a.from }) },
};
`;
    const ws = workspace("reports.plan.yaml", plan);
    writeFileSync(join(ws, "reporting.template.yaml"), template);
    writeFileSync(join(ws, "rtools.mjs"), tools);
    const first = planspec(ws, ["run", "reports.plan.yaml", "--tools", "rtools.mjs", "--run-id", "rep", "--no-lint-gate"]);
    expect(first.code, first.stderr).toBe(1);
    expect(readState(runDir(ws, "rep")).nodes["reporting.install"]!.status).toBe("failed");
    const sub = { steps: { fetch: { kind: "write", goal: "Fetch and install the reporting package", tool: "pkg.fetch", risk: "write", with: { name: "${{ params.check.name }}" }, output: "installed" } } };
    server = await startServer([openaiReply(JSON.stringify(sub))]);
    const r = await planspecAsync(ws, ["replan", "rep", "--base-url", `${server.url}/v1`, "--max-repairs", "0"], { OPENAI_API_KEY: "k" });
    expect(r.stderr, r.stdout).toBe("");
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('"reporting.install" replaced by reporting.install.fetch');
    const resumed = planspec(ws, ["resume", "rep"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const state = readState(runDir(ws, "rep"));
    expect(state.nodes["reporting.install.fetch"]!.status).toBe("done");
    expect(await readOutput(runDir(ws, "rep"), state.nodes["reporting.build"]!.outputRef!)).toEqual({ built: "2.1", from: "reportgen" });
  });

  const LONG = `planspec: 1
name: long
goal: Three slow reads
tools: { slow: { risk: read } }
limits: { max_tool_calls: 20 }
steps:
  fetch_orders: { kind: read, goal: Fetch the orders, tool: slow, with: { ms: 300 }, output: a }
  fetch_refunds: { kind: read, goal: Fetch the refunds, tool: slow, with: { ms: 300 }, output: b }
  compare: { kind: analyze, goal: Compare, needs: [fetch_orders, fetch_refunds], tool: slow, with: { ms: 300 }, output: c }
`;

  it("run on a TTY shows the running steps by name, coloured by status, in one redrawn block", () => {
    const ws = workspace("long.plan.yaml", LONG);
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} run long.plan.yaml --tools tools.mjs --run-id tty`;
    const env = { ...process.env };
    delete env.NO_COLOR;
    delete env.FORCE_COLOR;
    const r = spawnSync("script", ["-qfec", cmd, "/dev/null"], { cwd: ws, env: { ...env, COLUMNS: "100", LINES: "40" }, encoding: "utf8", timeout: 30_000 });
    expect(r.status, r.stdout).toBe(0);
    const out = r.stdout;
    for (const step of ["fetch_orders", "fetch_refunds", "compare"]) {
      expect(out).toMatch(new RegExp(`\\x1b\\[\\d+m[^\\n]*${step}`));
    }
    // Running in yellow, done in green; the block is redrawn in place (cursor up, clear line).
    expect(out).toMatch(/\x1b\[33m[^\n]*running[^\n]*fetch_orders|\x1b\[33m[^\n]*fetch_orders[^\n]*running/);
    expect(out).toMatch(/\x1b\[32m[^\n]*done[^\n]*compare|\x1b\[32m[^\n]*compare[^\n]*done/);
    expect(out).toMatch(/\x1b\[\d+A/);
    expect(out).toMatch(/\x1b\[2K/);
    expect(out).toMatch(/run tty: done/);
  });

  it("run when stderr is not a TTY prints plain lines, one per transition, without escape sequences", () => {
    const ws = workspace("long.plan.yaml", LONG);
    const r = planspec(ws, ["run", "long.plan.yaml", "--tools", "tools.mjs", "--run-id", "plain"]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/\x1b/);
    expect(r.stderr.split("\n")).toEqual(expect.arrayContaining(["fetch_orders: pending -> running", "fetch_orders: running -> done", "compare: running -> done"]));
  });
});
