/**
 * Many workers on one PostgreSQL store, killed with SIGKILL at random moments and
 * replaced: every run completes, every step's output equals a fault-free run's, and every
 * keyed side effect happens exactly once. Real `planspec` processes (build first).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { startRun } from "../../src/runtime/run.js";
import { BIN, fileLines, planspec } from "../cli/run-helpers.js";
import { plan, readState, tempDir, TEST_TOOLS, writeFile } from "./helpers.js";
import { freshDatabase, type TestDatabase } from "./pg-helpers.js";

const PLAN = `planspec: 1
name: batch
goal: Load, work, pay once and write a receipt
deliverables: [receipt]
inputs: { n: { type: number }, ms: { type: number } }
tools: { echo: { risk: read }, slow: { risk: read }, ledger: { risk: external } }
limits: { max_tool_calls: 50 }
steps:
  load: { kind: read, goal: load, tool: echo, with: { n: "\${{ inputs.n }}" }, output: invoice }
  work: { kind: analyze, goal: work, needs: [load], tool: slow, with: { ms: "\${{ inputs.ms }}" }, output: worked }
  pay:
    kind: external
    goal: pay
    needs: [work]
    tool: ledger
    risk: external
    idempotency_key: "\${{ run.id }}:pay"
    with: { entry: "\${{ steps.load.output.n }}" }
    output: payment
  settle: { kind: analyze, goal: settle, needs: [pay], tool: slow, with: { ms: "\${{ inputs.ms }}" }, output: settled }
  receipt: { kind: write, goal: receipt, needs: [settle], tool: echo, with: { paid: "\${{ steps.pay.output.written }}" }, output: receipt }
`;

let tdb: TestDatabase;

beforeAll(async () => {
  tdb = await freshDatabase();
});

afterAll(async () => {
  await tdb?.drop();
});

/** A small seeded generator so a failing schedule of kills can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const RUNS = 14;

describe("many workers on one PostgreSQL store", () => {
  it("SIGKILLed workers are replaced; every run completes exactly like a fault-free run, each payment exactly once", async () => {
    const seed = Number(process.env.PLANSPEC_TEST_SEED ?? Date.now() % 100000);
    const random = rng(seed);
    const ws = tempDir("planspec-workers-");
    writeFile(ws, "tools.mjs", TEST_TOOLS);
    writeFile(ws, "batch.plan.yaml", PLAN);
    const store = ["--store", tdb.url];
    expect(planspec(ws, ["store", "migrate", ...store]).code).toBe(0);
    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const id = `run-${String(i).padStart(2, "0")}`;
      const r = planspec(ws, ["submit", "batch.plan.yaml", "--tools", "tools.mjs", "--no-lint-gate", "--run-id", id, "--input", `n=${i}`, "--input", `ms=${60 + (i % 4) * 40}`, ...store]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(id);
      ids.push(id);
    }

    const workerArgs = [BIN, "worker", ...store, "--concurrency", "2", "--lease", "700ms", "--poll", "50ms", "--rerun-interrupted", "--exit-when-idle"];
    const live = new Set<ChildProcess>();
    const exited: Array<{ code: number | null; signal: string | null; stderr: string }> = [];
    const start = () => {
      const child = spawn(process.execPath, workerArgs, { cwd: ws, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr!.on("data", (d) => (stderr += String(d)));
      live.add(child);
      child.once("exit", (code, signal) => {
        live.delete(child);
        exited.push({ code, signal, stderr });
      });
    };
    // A victim holds a live lease when killed: a worker still starting up (slow on a loaded
    // machine) holds nothing, and killing it would prove nothing about takeover.
    const watch = new pg.Client({ connectionString: tdb.url });
    await watch.connect();
    const holders = async (): Promise<ChildProcess[]> => {
      const r = await watch.query<{ owner: string }>("SELECT lease_owner AS owner FROM planspec.runs WHERE lease_expires_at > clock_timestamp()");
      const pids = new Set(r.rows.map((x) => Number(x.owner.split(":").at(-2))));
      return [...live].filter((c) => pids.has(c.pid!));
    };
    for (let i = 0; i < 3; i++) start();
    let kills = 0;
    for (let round = 0; round < 5; round++) {
      await new Promise((r) => setTimeout(r, 150 + random() * 350));
      let victims = await holders();
      for (let wait = 0; victims.length === 0 && live.size > 0 && wait < 250; wait++) {
        await new Promise((r) => setTimeout(r, 20));
        victims = await holders();
      }
      if (victims.length === 0) break;
      const victim = victims[Math.floor(random() * victims.length)]!;
      victim.kill("SIGKILL");
      kills++;
      start();
    }
    await watch.end();
    const deadline = Date.now() + 45_000;
    while (live.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    for (const c of live) c.kill("SIGKILL");
    expect(live.size, `workers still running (seed ${seed})`).toBe(0);
    expect(kills).toBeGreaterThan(0);
    const clean = exited.filter((e) => e.signal === null);
    expect(clean.length).toBeGreaterThan(0);
    for (const e of clean) expect(e.code, e.stderr).toBe(0);

    const client = new pg.Client({ connectionString: tdb.url });
    await client.connect();
    try {
      const runs = await client.query<{ run_id: string; status: string; nodes: Record<string, { outputHash?: string }>; g: string }>(
        `SELECT run_id, status, lease_generation::text AS g,
           (SELECT json_object_agg(n.node_id, n.state) FROM planspec.run_nodes n WHERE n.run_id = r.run_id) AS nodes
         FROM planspec.runs r ORDER BY run_id`,
      );
      expect(runs.rows.map((r) => [r.run_id, r.status]), `seed ${seed}`).toEqual(ids.map((id) => [id, "done"]));
      // Killed workers held runs that others took over: the generations show it.
      expect(runs.rows.some((r) => Number(r.g) >= 2), `seed ${seed}: no run was ever taken over`).toBe(true);

      // The fault-free reference: the same runs, one at a time, on the file store.
      const ref = tempDir("planspec-workers-ref-");
      const tools = writeFile(ref, "tools.mjs", TEST_TOOLS);
      const ir = plan(PLAN);
      for (const [i, id] of ids.entries()) {
        const r = await startRun({ plan: ir, cwd: ref, runId: id, inputs: { n: String(i), ms: String(60 + (i % 4) * 40) }, toolModules: [tools] });
        expect(r.outcome.status).toBe("done");
        const expected = readState(r.dir);
        const got = runs.rows.find((x) => x.run_id === id)!;
        for (const step of ["load", "work", "pay", "settle", "receipt"]) {
          expect(got.nodes[step]!.outputHash, `${id}.${step} (seed ${seed})`).toBe(expected.nodes[step]!.outputHash);
        }
      }

      // Exactly once: one ledger line and one idempotency record per run.
      const ledger = fileLines(join(ws, "ledger.txt")).sort();
      expect(ledger).toEqual(ids.map((id, i) => `${id}:pay ${i}`).sort());
      const idem = await client.query<{ run_id: string; key: string }>("SELECT run_id, key FROM planspec.idempotency ORDER BY run_id");
      expect(idem.rows).toEqual(ids.map((id) => ({ run_id: id, key: `${id}:pay` })));
      // Every event log is gap-free despite the takeovers.
      const gaps = await client.query<{ run_id: string }>("SELECT run_id FROM planspec.events GROUP BY run_id HAVING max(seq) + 1 <> count(*)");
      expect(gaps.rows).toEqual([]);
    } finally {
      await client.end();
    }
  }, 120_000);
});
