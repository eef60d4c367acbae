/**
 * Workers pick a run up again after `approve --store` (issue 12, item 10): a running
 * worker hears of the decision at once (LISTEN/NOTIFY, here with a 60 s poll so that
 * only the notification can wake it in time), and a worker started later finds the run
 * by its ordinary claim. Real processes, real PostgreSQL (build first).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, fileLines, planspec, waitFor } from "../cli/run-helpers.js";
import { tempDir, TEST_TOOLS, writeFile } from "./helpers.js";
import { freshDatabase, GATED_PLAN as GATED, type TestDatabase } from "./pg-helpers.js";

let tdb: TestDatabase;
let ws: string;

beforeAll(async () => {
  tdb = await freshDatabase();
  ws = tempDir("planspec-pgwake-");
  writeFile(ws, "tools.mjs", TEST_TOOLS);
  writeFile(ws, "gated.plan.yaml", GATED);
  expect(planspec(ws, ["store", "migrate", "--store", tdb.url]).code).toBe(0);
});

afterAll(async () => {
  await tdb?.drop();
});

const submit = (id: string) => {
  const r = planspec(ws, ["submit", "gated.plan.yaml", "--store", tdb.url, "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate"]);
  expect(r.code, r.stderr).toBe(0);
};

describe("workers resume approved runs", () => {
  it("a running worker is woken by approve --store (and by submit) without waiting for its poll", async () => {
    const child = spawn(process.execPath, [BIN, "worker", "--store", tdb.url, "--poll", "60s"], { cwd: ws, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
    try {
      // Give the idle worker time to go to sleep on its 60 s poll, then queue a run.
      await new Promise((r) => setTimeout(r, 1500));
      submit("w1");
      await waitFor(() => /w1: paused/.test(stderr), 10_000);
      const ok = planspec(ws, ["approve", "w1", "send", "--by", "ops", "--store", tdb.url]);
      expect(ok.code, ok.stderr).toBe(0);
      await waitFor(() => /w1: done/.test(stderr), 10_000);
      expect(fileLines(join(ws, "ledger.txt"))).toEqual(["w1:send 1"]);
      expect(stderr.match(/w1: claimed/g)).toHaveLength(2);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited, stderr).toBe(0);
  }, 40_000);

  it("a worker started after the decision claims the run; a rejected run ends failed", () => {
    submit("w2");
    submit("w3");
    const first = planspec(ws, ["worker", "--store", tdb.url, "--exit-when-idle", "--poll", "50ms"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/w2: paused/);
    expect(first.stderr).toMatch(/w3: paused/);
    expect(planspec(ws, ["approve", "w2", "send", "--by", "ops", "--store", tdb.url]).code).toBe(0);
    expect(planspec(ws, ["reject", "w3", "send", "--by", "ops", "--note", "not now"], { PLANSPEC_STORE: tdb.url }).code).toBe(0);
    const runs = JSON.parse(planspec(ws, ["runs", "--json", "--store", tdb.url]).stdout) as Array<{ id: string; status: string }>;
    expect(runs.filter((r) => r.id !== "w1").map((r) => [r.id, r.status])).toEqual([
      ["w2", "queued"],
      ["w3", "queued"],
    ]);
    const second = planspec(ws, ["worker", "--store", tdb.url, "--exit-when-idle", "--poll", "50ms"]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/w2: done/);
    expect(second.stderr).toMatch(/w3: failed — step "send" was rejected by ops: not now/);
    expect(fileLines(join(ws, "ledger.txt"))).toEqual(["w1:send 1", "w2:send 1"]);
    // Nothing is left for a worker: a third one exits at once without claiming.
    const third = planspec(ws, ["worker", "--store", tdb.url, "--exit-when-idle", "--poll", "50ms"]);
    expect(third.stderr).not.toMatch(/claimed/);
  }, 40_000);
});
