/** PostgreSQL-only guarantees: schema versions, leases and fencing, one-statement commits, node rows. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { PgDatabase, StoreError } from "../../src/runtime/pg/db.js";
import { claimNext, LeaseHeldError, LeaseLostError, listRuns } from "../../src/runtime/pg/lease.js";
import { PgStore } from "../../src/runtime/pg/pg-store.js";
import { STORE_SCHEMA_VERSION } from "../../src/runtime/pg/schema.js";
import { newRunState } from "../../src/runtime/run.js";
import { plan } from "./helpers.js";
import { freshDatabase, type TestDatabase } from "./pg-helpers.js";

let tdb: TestDatabase;
let db: PgDatabase;

beforeAll(async () => {
  tdb = await freshDatabase();
  db = await PgDatabase.open(tdb.url, { check: false });
});

afterAll(async () => {
  await db?.close();
  await tdb?.drop();
});

const PLAN = plan(`planspec: 1
name: one
goal: one step
tools: { echo: { risk: read } }
limits: { max_tool_calls: 5 }
steps:
  a: { kind: read, goal: a, tool: echo }
`);

const config = { toolModules: [], workspace: "/tmp", concurrency: 1 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function count(sql: string, params: unknown[]): Promise<number> {
  const r = await db.pool.query<{ n: number }>(sql, params);
  return r.rows[0]!.n;
}

describe("PostgreSQL store schema", () => {
  it("an empty database is refused until migrated; migrate is versioned and idempotent", async () => {
    await expect(PgDatabase.open(tdb.url)).rejects.toThrow(/schema version 0, this planspec needs 2: run planspec store migrate/);
    expect(await db.migrate()).toEqual({ from: 0, to: STORE_SCHEMA_VERSION, applied: [1, 2] });
    expect(await db.migrate()).toEqual({ from: STORE_SCHEMA_VERSION, to: STORE_SCHEMA_VERSION, applied: [] });
    const checked = await PgDatabase.open(tdb.url);
    expect(await checked.version()).toBe(STORE_SCHEMA_VERSION);
    await checked.close();
  });

  it("refuses a store whose schema is newer than this planspec knows", async () => {
    await db.pool.query("INSERT INTO planspec.schema_version (version, description) VALUES (99, 'from the future')");
    try {
      await expect(PgDatabase.open(tdb.url)).rejects.toThrow(StoreError);
      await expect(PgDatabase.open(tdb.url)).rejects.toThrow(/schema version 99, newer than this planspec knows \(2\); upgrade planspec/);
    } finally {
      await db.pool.query("DELETE FROM planspec.schema_version WHERE version = 99");
    }
  });

  it("reports a server that is down and a database that does not exist in one line", async () => {
    await expect(PgDatabase.open("postgres://postgres@127.0.0.1:1/x")).rejects.toThrow(/^cannot connect to the store postgres:\/\/postgres@127\.0\.0\.1:1\/x: connection refused/);
    const u = new URL(tdb.url);
    u.pathname = "/no_such_db_planspec";
    await expect(PgDatabase.open(u.toString())).rejects.toThrow(/database "no_such_db_planspec" does not exist/);
    await expect(PgDatabase.open("postgres://u:secret@127.0.0.1:1/x")).rejects.toThrow(/u:\*\*\*@/);
  });
});

describe("leases and fencing", () => {
  it("a submitted run is queued; one claim wins it and a second finds nothing (SKIP LOCKED)", async () => {
    await new PgStore(db, "queued-1").create(PLAN, config, newRunState(PLAN, "queued-1", {}));
    const [a, b] = await Promise.all([claimNext(db, "w1", 5000), claimNext(db, "w2", 5000)]);
    const won = [a, b].filter((x) => x !== undefined);
    expect(won).toEqual([{ runId: "queued-1", generation: 1 }]);
    expect(await claimNext(db, "w3", 5000)).toBeUndefined();
    await db.pool.query("DELETE FROM planspec.runs WHERE run_id = 'queued-1'");
  });

  it("a live lease refuses a second holder; a worker whose lease expired cannot commit after another took over", async () => {
    const id = "fenced-1";
    const a = new PgStore(db, id, { leaseMs: 300 });
    await a.lock();
    const s = newRunState(PLAN, id, {});
    await a.create(PLAN, config, s);
    const b = new PgStore(db, id, { leaseMs: 5000 });
    await expect(b.lock()).rejects.toThrow(LeaseHeldError);
    // A stalls (no heartbeat: a GC pause, a partition) past its lease; B takes the run.
    a.abandon();
    await sleep(400);
    await b.lock();
    expect(b.leaseGeneration).toBe(2);
    // A comes back and tries to finish the step: state, event and idempotency record are all refused.
    await a.recordIdempotency("k", "artifacts/x.json");
    a.appendEvent("node.transition", { node: "a", from: "running", to: "done" });
    s.nodes.a!.status = "done";
    await expect(a.writeState(s)).rejects.toThrow(LeaseLostError);
    await expect(a.writeState(s, ["a"])).rejects.toThrow(LeaseLostError);
    expect(await count("SELECT count(*)::int AS n FROM planspec.idempotency WHERE run_id = $1", [id])).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM planspec.events WHERE run_id = $1 AND type = 'node.transition'", [id])).toBe(0);
    const stored = (await b.readStateRaw()) as { nodes: Record<string, { status: string }> };
    expect(stored.nodes.a!.status).toBe("pending");
    // B commits normally, with its record and event in the same statement.
    await b.recordIdempotency("k", "artifacts/y.json");
    b.appendEvent("note", {});
    const sb = newRunState(PLAN, id, {});
    await b.writeState(sb);
    expect(await b.readIdempotency()).toMatchObject({ k: { resultRef: "artifacts/y.json" } });
    expect((await b.readEvents()).map((e) => e.type)).toEqual(["note"]);
    await b.unlock();
    await a.unlock();
  });

  it("an expired lease also stops its holder even when no one took over", async () => {
    const id = "expired-1";
    const a = new PgStore(db, id, { leaseMs: 200 });
    await a.lock();
    const s = newRunState(PLAN, id, {});
    await a.create(PLAN, config, s);
    a.abandon();
    await sleep(300);
    await expect(a.writeState(s)).rejects.toThrow(LeaseLostError);
    await a.unlock();
  });

  it("the heartbeat keeps a lease alive well past its length", async () => {
    const id = "beat-1";
    // 600 ms, renewed every 200: a 200 ms lease expired under a load of 12 on 2 cores
    // (PostgreSQL slow to answer a renewal), which is not what this test is about.
    const a = new PgStore(db, id, { leaseMs: 600 });
    await a.lock();
    const s = newRunState(PLAN, id, {});
    await a.create(PLAN, config, s);
    await sleep(2000);
    await a.writeState(s);
    await expect(new PgStore(db, id).lock()).rejects.toThrow(/in use by/);
    await a.unlock();
    // Released: the next holder gets it at once.
    const b = new PgStore(db, id);
    await b.lock();
    expect(b.leaseGeneration).toBe(2);
    await b.unlock();
  });

  it("a state write survives a dropped connection by retrying the same statement", async () => {
    const id = "drop-1";
    const a = new PgStore(db, id, { leaseMs: 5000 });
    await a.lock();
    const s = newRunState(PLAN, id, {});
    await a.create(PLAN, config, s);
    // Kill every idle server connection of the pool: the next query finds its socket dead.
    const killer = new pg.Client({ connectionString: tdb.url });
    await killer.connect();
    await killer.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle'");
    await killer.end();
    a.appendEvent("after.drop", {});
    s.nodes.a!.status = "running";
    await a.writeState(s);
    const stored = (await a.readStateRaw()) as { stateVersion: number; nodes: Record<string, { status: string }> };
    expect(stored.nodes.a!.status).toBe("running");
    expect(stored.stateVersion).toBe(s.stateVersion);
    expect((await a.readEvents()).map((e) => e.type)).toEqual(["after.drop"]);
    await a.unlock();
  });
});

const THREE = plan(`planspec: 1
name: three
goal: three steps
tools: { echo: { risk: read } }
limits: { max_tool_calls: 5 }
steps:
  a: { kind: read, goal: a, tool: echo }
  b: { kind: read, goal: b, tool: echo, needs: [a] }
  c: { kind: read, goal: c, tool: echo, needs: [b] }
`);

/** Each node row's transaction id: it changes exactly when the row is rewritten. */
async function rowVersions(id: string): Promise<Record<string, string>> {
  const r = await db.pool.query<{ node_id: string; x: string }>("SELECT node_id, xmin::text AS x FROM planspec.run_nodes WHERE run_id = $1", [id]);
  return Object.fromEntries(r.rows.map((row) => [row.node_id, row.x]));
}

describe("node state as rows", () => {
  it("a commit rewrites only the rows of the nodes it names; the run row holds the state without them", async () => {
    const id = "rows-1";
    const a = new PgStore(db, id);
    await a.lock();
    const s = newRunState(THREE, id, {});
    await a.create(THREE, config, s);
    const before = await rowVersions(id);
    expect(Object.keys(before).sort()).toEqual(["a", "b", "c"]);
    s.nodes.a!.status = "done";
    s.nodes.b!.status = "running";
    await a.writeState(s, ["a", "b"]);
    const after = await rowVersions(id);
    expect(after.c).toBe(before.c);
    expect(after.a).not.toBe(before.a);
    expect(after.b).not.toBe(before.b);
    const head = await db.pool.query<{ n: string }>("SELECT (state->'nodes')::text AS n FROM planspec.runs WHERE run_id = $1", [id]);
    expect(head.rows[0]!.n).toBe("{}");
    expect(JSON.stringify(await a.readStateRaw())).toBe(JSON.stringify(s));
    expect((await listRuns(db)).find((r) => r.id === id)).toMatchObject({ done: 1, total: 3 });
    await a.unlock();
  });

  it("reads back key for key as written: nodes in the state's order, through reorders, removals and additions", async () => {
    const id = "rows-2";
    const a = new PgStore(db, id);
    await a.lock();
    const s = newRunState(THREE, id, {});
    await a.create(THREE, config, s);
    // A revision rebuilds the node map: another order, one node gone, one new (a full write).
    s.nodes = { c: { status: "pending", attempts: 0 }, z: { status: "pending", attempts: 0 }, a: { status: "done", attempts: 1, outputRef: "artifacts/x.json" } };
    await a.writeState(s);
    expect(JSON.stringify(await a.readStateRaw())).toBe(JSON.stringify(s));
    expect(Object.keys(await rowVersions(id)).sort()).toEqual(["a", "c", "z"]);
    await a.unlock();
    // Another process adds a node (resume fills in what the plan has and the state lacks) and names it dirty.
    const b = new PgStore(db, id);
    await b.lock();
    s.nodes.b = { status: "running", attempts: 1 };
    await b.writeState(s, ["b"]);
    expect(JSON.stringify(await b.readStateRaw())).toBe(JSON.stringify(s));
    expect(Object.keys((await b.readStateRaw()) as object)).toEqual(Object.keys(s));
    await b.unlock();
  });
});
