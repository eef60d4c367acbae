/** Schema migrations of the PostgreSQL store: a run written by an older planspec resumes under this one. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgDatabase } from "../../src/runtime/pg/db.js";
import { listRuns } from "../../src/runtime/pg/lease.js";
import { PgStore } from "../../src/runtime/pg/pg-store.js";
import { SCHEMA_MIGRATIONS } from "../../src/runtime/pg/schema.js";
import { newRunState, resumeRun } from "../../src/runtime/run.js";
import type { RunState } from "../../src/runtime/store.js";
import { plan, tempDir, TEST_TOOLS, writeFile } from "./helpers.js";
import { freshDatabase, type TestDatabase } from "./pg-helpers.js";

let tdb: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  tdb = await freshDatabase();
  client = new pg.Client({ connectionString: tdb.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await tdb?.drop();
});

const CHAIN3 = plan(`planspec: 1
name: three
goal: three steps, each fed by the one before
tools: { echo: { risk: read } }
limits: { max_tool_calls: 10 }
steps:
  a: { kind: read, goal: a, tool: echo, with: { x: 1 }, output: first }
  b: { kind: read, goal: b, tool: echo, needs: [a], with: { y: "\${{ steps.a.output.x }}" }, output: second }
  c: { kind: read, goal: c, tool: echo, needs: [b], with: { z: "\${{ steps.b.output.y }}" } }
`);

/** The schema version 1 as planspec 0.1 created it, and a run as its store wrote it: the whole state in `runs.state`. */
async function writeV1Run(ws: string, tools: string, runId: string): Promise<RunState> {
  await client.query("CREATE SCHEMA planspec");
  await client.query("CREATE TABLE planspec.schema_version (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
  await client.query(SCHEMA_MIGRATIONS[0]!.sql);
  await client.query("INSERT INTO planspec.schema_version (version, description) VALUES (1, $1)", [SCHEMA_MIGRATIONS[0]!.description]);
  const output = JSON.stringify({ x: 1 });
  const hash = createHash("sha256").update(output).digest("hex");
  await client.query("INSERT INTO planspec.artifacts (sha256, content) VALUES ($1, $2)", [hash, output]);
  // Crashed mid-run: a is done, b was running (a read step: resume re-runs it), c never started.
  const state = newRunState(CHAIN3, runId, {});
  state.stateVersion = 4;
  state.budget.toolCalls = 2;
  state.nodes.a = { status: "done", attempts: 1, startedAt: state.createdAt, endedAt: state.createdAt, outputRef: `artifacts/${hash}.json`, outputHash: hash };
  state.nodes.b = { status: "running", attempts: 1, startedAt: state.createdAt };
  await client.query(
    `INSERT INTO planspec.runs (run_id, plan_name, status, state, state_version, config, lease_owner, lease_generation, lease_expires_at)
     VALUES ($1, 'three', 'running', $2::json, 4, $3::json, 'dead-worker', 1, now() - interval '1 minute')`,
    [runId, JSON.stringify(state), JSON.stringify({ toolModules: [tools], workspace: ws, concurrency: 1 })],
  );
  await client.query("INSERT INTO planspec.revisions (run_id, revision, plan) VALUES ($1, 0, $2::json)", [runId, JSON.stringify(CHAIN3)]);
  await client.query(
    "INSERT INTO planspec.events (run_id, seq, time, type, data) VALUES ($1, 0, now(), 'run.started', '{}'), ($1, 1, now(), 'node.transition', '{\"node\":\"a\",\"from\":\"pending\",\"to\":\"running\"}')",
    [runId],
  );
  return state;
}

describe("schema version 2: node state as rows", () => {
  it("migrates a version 1 store: its run reads back unchanged, resumes where it stopped and finishes", async () => {
    const ws = tempDir("planspec-pg-v1-");
    const tools = writeFile(ws, "tools.mjs", TEST_TOOLS);
    const written = await writeV1Run(ws, tools, "old-1");

    await expect(PgDatabase.open(tdb.url)).rejects.toThrow(/schema version 1, this planspec needs 2: run planspec store migrate/);
    const migrator = await PgDatabase.open(tdb.url, { check: false });
    expect(await migrator.migrate()).toEqual({ from: 1, to: 2, applied: [2] });
    await migrator.close();

    const db = await PgDatabase.open(tdb.url);
    try {
      const rows = await client.query<{ node_id: string }>("SELECT node_id FROM planspec.run_nodes WHERE run_id = 'old-1' ORDER BY ord");
      expect(rows.rows.map((r) => r.node_id)).toEqual(["a", "b", "c"]);
      const head = await client.query<{ n: string }>("SELECT (state->'nodes')::text AS n FROM planspec.runs WHERE run_id = 'old-1'");
      expect(head.rows[0]!.n).toBe("{}");
      expect(JSON.stringify(await new PgStore(db, "old-1").readStateRaw())).toBe(JSON.stringify(written));
      expect((await listRuns(db))[0]).toMatchObject({ id: "old-1", done: 1, total: 3 });

      const r = await resumeRun(new PgStore(db, "old-1"), {});
      expect(r.outcome.status).toBe("done");
      // a's recorded output was used, not recomputed: only b and c called their tool.
      expect(readFileSync(join(ws, "calls.log"), "utf8").split("\n").filter(Boolean)).toEqual(["echo:b", "echo:c"]);
      const after = (await new PgStore(db, "old-1").readStateRaw()) as RunState;
      expect(Object.keys(after.nodes)).toEqual(["a", "b", "c"]);
      expect(Object.values(after.nodes).map((n) => n.status)).toEqual(["done", "done", "done"]);
      expect(after.nodes.a!.outputHash).toBe(written.nodes.a!.outputHash);
      expect(after.stateVersion).toBeGreaterThan(written.stateVersion);
    } finally {
      await db.close();
    }
  });
});
