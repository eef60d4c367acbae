/**
 * The CLI against a PostgreSQL store (real processes; build first): run/status/approve/
 * resume/runs with --store or PLANSPEC_STORE, submit + worker, SIGTERM, export/import,
 * and one-line errors for a bad store.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, fileLines, planspec, waitFor } from "../cli/run-helpers.js";
import { readEvents, readOutput, readState, tempDir, TEST_TOOLS, writeFile } from "./helpers.js";
import { freshDatabase, GATED_PLAN as GATED, type TestDatabase } from "./pg-helpers.js";

const SLOW = `planspec: 1
name: slowrun
goal: Wait on a gate
tools: { gate: { risk: write } }
limits: { max_tool_calls: 20 }
steps:
  hold: { kind: write, goal: hold, tool: gate, risk: write, with: { release: release }, output: held }
`;

let tdb: TestDatabase;
let ws: string;

beforeAll(async () => {
  tdb = await freshDatabase();
  ws = tempDir("planspec-pgcli-");
  writeFile(ws, "tools.mjs", TEST_TOOLS);
  writeFile(ws, "gated.plan.yaml", GATED);
  writeFile(ws, "slow.plan.yaml", SLOW);
  expect(planspec(ws, ["store", "migrate", "--store", tdb.url]).stdout).toMatch(/schema upgraded from version 0 to 2/);
});

afterAll(async () => {
  await tdb?.drop();
});

describe("planspec with --store postgres://", () => {
  it("run pauses for approval; status, approve, resume and runs work on the store (PLANSPEC_STORE too)", () => {
    const env = { PLANSPEC_STORE: tdb.url };
    const run = planspec(ws, ["run", "gated.plan.yaml", "--tools", "tools.mjs", "--run-id", "g1", "--no-lint-gate"], env);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toMatch(/run g1: paused/);
    expect(run.stdout).toMatch(/next: planspec status g1 --store postgres:/);
    const status = planspec(ws, ["status", "g1", "--store", tdb.url]);
    expect(status.code).toBe(3);
    expect(status.stdout).toMatch(/send\s+pending.*needs approval by ops/);
    expect(planspec(ws, ["approve", "g1", "send", "--by", "eve"], env).stderr).toMatch(/approvers are ops/);
    const ok = planspec(ws, ["approve", "g1", "send", "--by", "ops"], env);
    expect(ok.code, ok.stderr).toBe(0);
    const resumed = planspec(ws, ["resume", "g1"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(fileLines(join(ws, "ledger.txt"))).toEqual(["g1:send 1"]);
    const runs = planspec(ws, ["runs", "--json"], env);
    expect(JSON.parse(runs.stdout)).toEqual([expect.objectContaining({ id: "g1", status: "done", plan: "gated", done: 2, total: 2 })]);
    expect(planspec(ws, ["status", "nope"], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^planspec: no run "nope" in the store postgres:/) });
  });

  it("export writes a run directory the file store resumes; import brings it back under a new id", async () => {
    const out = join(ws, "exported");
    const exp = planspec(ws, ["store", "export", "g1", "--store", tdb.url, "-o", out]);
    expect(exp.code, exp.stderr).toBe(0);
    const s = readState(out);
    expect(s.status).toBe("done");
    expect(await readOutput(out, s.nodes.send!.outputRef!)).toEqual({ written: "g1:send 1" });
    expect(JSON.parse(readFileSync(join(out, "idempotency.json"), "utf8"))["g1:send"].resultRef).toBe(s.nodes.send!.outputRef);
    expect(readEvents(out).map((e) => e.seq)).toEqual(readEvents(out).map((_e, i) => i));
    expect(planspec(ws, ["status", out]).code).toBe(0);
    const again = planspec(ws, ["resume", out]);
    expect(again.code, again.stderr).toBe(0);
    const imp = planspec(ws, ["store", "import", out, "--run-id", "g1-copy", "--store", tdb.url]);
    expect(imp.code, imp.stderr).toBe(0);
    const st = planspec(ws, ["status", "g1-copy", "--store", tdb.url, "--json"]);
    expect(JSON.parse(st.stdout)).toMatchObject({ status: "done", nodes: { send: { outputRef: s.nodes.send!.outputRef } } });
    expect(planspec(ws, ["store", "import", out, "--run-id", "g1-copy", "--store", tdb.url])).toMatchObject({ code: 2, stderr: expect.stringMatching(/already exists/) });
    expect(fileLines(join(ws, "ledger.txt"))).toEqual(["g1:send 1"]);
  });

  it("submit queues a run; a worker runs it and exits when idle", () => {
    const sub = planspec(ws, ["submit", "gated.plan.yaml", "--store", tdb.url, "--tools", "tools.mjs", "--run-id", "q1", "--no-lint-gate"]);
    expect(sub.code, sub.stderr).toBe(0);
    expect(JSON.parse(planspec(ws, ["runs", "--json", "--store", tdb.url]).stdout).find((r: { id: string }) => r.id === "q1").status).toBe("queued");
    const w = planspec(ws, ["worker", "--store", tdb.url, "--exit-when-idle", "--poll", "50ms"]);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).toMatch(/q1: claimed \(lease generation 1\)/);
    expect(w.stderr).toMatch(/q1: paused/);
  });

  it("a worker stops cleanly on SIGTERM: it finishes the run in hand, then exits 0", async () => {
    const sub = planspec(ws, ["submit", "slow.plan.yaml", "--store", tdb.url, "--tools", "tools.mjs", "--run-id", "s1", "--no-lint-gate"]);
    expect(sub.code, sub.stderr).toBe(0);
    const child = spawn(process.execPath, [BIN, "worker", "--store", tdb.url, "--poll", "50ms"], { cwd: ws, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    await waitFor(() => fileLines(join(ws, "gate-entered")).includes("hold"));
    child.kill("SIGTERM");
    await waitFor(() => stderr.includes("stopping"));
    writeFile(ws, "release", "");
    const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/s1: done/);
  });

  it("a wrong store is one clear line and exit 2", () => {
    const cases: Array<[string[], RegExp]> = [
      [["runs", "--store", "postgres://postgres@127.0.0.1:1/x"], /^planspec: cannot connect to the store postgres:\/\/postgres@127\.0\.0\.1:1\/x: connection refused/],
      [["runs", "--store", "mysql://localhost/x"], /^planspec: --store must be a postgres:\/\/ URL/],
      [["worker", "--store", "postgres://postgres@127.0.0.1:1/x"], /^planspec: cannot connect/],
      [["submit", "gated.plan.yaml"], /^planspec: submit needs --store URL/],
    ];
    for (const [args, re] of cases) {
      const r = planspec(ws, args, { PLANSPEC_STORE: "" });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
