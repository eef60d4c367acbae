/**
 * The PostgreSQL run store: the same `Store` as the file store, for runs shared by many
 * workers. Every write that changes a run is one fenced SQL statement: the state, the
 * events appended since the last write and the idempotency records of finished steps
 * commit together, and only while this store holds an unexpired lease of the current
 * generation. The state is split in two: the run row holds its head (everything but the
 * nodes) and `run_nodes` one row per node, so a commit sends and rewrites the nodes that
 * changed, not the whole state. Artifacts are content-addressed and shared by all runs.
 */
import type { PlanIR } from "../../ir.js";
import { fileRefHash, inStateRef, inStateText, inStateValue } from "../artifact-ref.js";
import { sha256Hex } from "../atomic.js";
import { IntegrityError, nowIso, type ArtifactRef, type IdempotencyRecord, type Lease, type NodeState, type RunConfig, type RunEvent, type RunState, type Store } from "../store.js";
import { StoreError, type PgDatabase } from "./db.js";
import { DEFAULT_LEASE_MS, HeldLease, LeaseLostError, newOwnerId, releaseLease, renewLease, RUNS_CHANNEL, takeLease } from "./lease.js";

export interface PgStoreOptions {
  leaseMs?: number;
  owner?: string;
}


/**
 * $6 holds the nodes to write with their place in the state's key order: all of them on
 * a full write ($7; rows of nodes not in it are removed), else the changed ones. A row
 * whose content is unchanged is left alone, so a full write (start of a session, a
 * revision) rewrites no more rows than it must.
 */
const WRITE_SQL = `
WITH run AS (
  UPDATE planspec.runs SET state = $3::json, state_version = $4, status = $5, updated_at = clock_timestamp()
  WHERE run_id = $1 AND lease_generation = $2 AND lease_expires_at > clock_timestamp()
  RETURNING run_id
), changed AS (
  SELECT * FROM json_to_recordset($6::json) AS n(id text, ord int, state json)
), nodes AS (
  INSERT INTO planspec.run_nodes AS cur (run_id, node_id, ord, state)
  SELECT run.run_id, c.id, c.ord, c.state FROM run, changed c
  ON CONFLICT (run_id, node_id) DO UPDATE SET state = EXCLUDED.state, ord = EXCLUDED.ord
  WHERE cur.state::text <> EXCLUDED.state::text OR cur.ord <> EXCLUDED.ord
  RETURNING 1
), gone AS (
  DELETE FROM planspec.run_nodes d USING run
  WHERE $7 AND d.run_id = run.run_id AND d.node_id NOT IN (SELECT id FROM changed)
  RETURNING 1
), ev AS (
  INSERT INTO planspec.events (run_id, seq, time, type, data)
  SELECT run.run_id, e.seq, e.time, e.type, e.data FROM run, json_to_recordset($8::json) AS e(seq int, time timestamptz, type text, data json)
  ON CONFLICT DO NOTHING RETURNING 1
), idem AS (
  INSERT INTO planspec.idempotency (run_id, key, result_ref, at)
  SELECT run.run_id, i.key, i.result_ref, i.at FROM run, json_to_recordset($9::json) AS i(key text, result_ref text, at timestamptz)
  ON CONFLICT DO NOTHING RETURNING 1
)
SELECT count(*)::int AS n FROM run`;

/** The head and every node row as [id, ord, state], in the state's key order. */
const READ_SQL = `
SELECT r.state AS head, (SELECT json_agg(json_build_array(n.node_id, n.ord, n.state) ORDER BY n.ord) FROM planspec.run_nodes n WHERE n.run_id = r.run_id) AS nodes
FROM planspec.runs r WHERE r.run_id = $1`;

const FENCE = "EXISTS (SELECT 1 FROM planspec.runs WHERE run_id = $1 AND lease_generation = $2 AND lease_expires_at > clock_timestamp())";

export class PgStore implements Store {
  readonly location: string;
  readonly leaseMs: number;
  readonly owner: string;
  private generation: number | undefined;
  private held: HeldLease | undefined;
  private creating = false;
  private lost = false;
  private requeueOnUnlock = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private seq = -1;
  private pendingEvents: RunEvent[] = [];
  private pendingIdem: Array<{ key: string; result_ref: string | null; at: string }> = [];
  private idem: Record<string, IdempotencyRecord> | undefined;
  private readonly knownArtifacts = new Set<string>();
  /**
   * Each stored node's place in the state's key order, as this store last read or wrote
   * it under its current lease; unknown (a full write follows) until then.
   */
  private ords: Map<string, number> | undefined;

  constructor(
    readonly db: PgDatabase,
    readonly runId: string,
    opts: PgStoreOptions = {},
  ) {
    this.location = db.location;
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.owner = opts.owner ?? newOwnerId();
  }

  /** The lease generation this store writes under (undefined when it holds none). */
  get leaseGeneration(): number | undefined {
    return this.lost ? undefined : this.generation;
  }

  /** The lease the session's tools see (kept once lost, so that its `check()` keeps refusing). */
  get lease(): Lease | undefined {
    return this.held;
  }

  private markLost(): void {
    this.lost = true;
    this.stopHeartbeat();
    this.held?.lose();
  }

  async exists(): Promise<boolean> {
    const r = await this.db.query("SELECT 1 FROM planspec.runs WHERE run_id = $1", [this.runId]);
    return r.rows.length > 0;
  }

  /** Creates the run; leased and running when `lock()` came first, else queued for a worker. */
  async create(plan: PlanIR, config: RunConfig, state: RunState): Promise<void> {
    state.stateVersion++;
    state.updatedAt = nowIso();
    const leased = this.creating;
    const events = this.pendingEvents.splice(0);
    const since = performance.now();
    const client = await this.db.pool.connect();
    try {
      await client.query("BEGIN");
      const ins = await client.query(
        `INSERT INTO planspec.runs (run_id, plan_name, status, state, state_version, config, lease_owner, lease_generation, lease_expires_at)
         VALUES ($1, $2, $3, $4::json, $5, $6::json, $7, $8, CASE WHEN $7::text IS NULL THEN NULL ELSE clock_timestamp() + make_interval(secs => $9::float8 / 1000) END)
         ON CONFLICT (run_id) DO NOTHING`,
        [this.runId, plan.name, leased ? state.status : "queued", headJson(state), state.stateVersion, JSON.stringify(config), leased ? this.owner : null, leased ? 1 : 0, this.leaseMs],
      );
      if (ins.rowCount === 0) throw new StoreError(`run ${this.runId} already exists in ${this.location}; use planspec resume`);
      const nodes = allNodes(state);
      await client.query(
        "INSERT INTO planspec.run_nodes (run_id, node_id, ord, state) SELECT $1, n.id, n.ord, n.state FROM json_to_recordset($2::json) AS n(id text, ord int, state json)",
        [this.runId, JSON.stringify(nodes)],
      );
      this.ords = new Map(nodes.map((n) => [n.id, n.ord]));
      await client.query("INSERT INTO planspec.revisions (run_id, revision, plan) VALUES ($1, 0, $2::json)", [this.runId, JSON.stringify(plan)]);
      if (!leased) await client.query(`SELECT pg_notify('${RUNS_CHANNEL}', $1)`, [this.runId]);
      await client.query(
        "INSERT INTO planspec.events (run_id, seq, time, type, data) SELECT $1, e.seq, e.time, e.type, e.data FROM json_to_recordset($2::json) AS e(seq int, time timestamptz, type text, data json)",
        [this.runId, JSON.stringify(events)],
      );
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      this.pendingEvents.unshift(...events);
      throw err;
    } finally {
      client.release();
    }
    if (leased) {
      this.creating = false;
      this.generation = 1;
      this.held = new HeldLease(this.runId, 1, this.leaseMs, since);
      this.startHeartbeat();
    }
  }

  async readPlan(revision: number): Promise<PlanIR> {
    const r = await this.db.query<{ plan: PlanIR }>("SELECT plan FROM planspec.revisions WHERE run_id = $1 AND revision = $2", [this.runId, revision]);
    if (!r.rows[0]) throw new Error(`run ${this.runId} has no plan revision ${revision}`);
    return r.rows[0].plan;
  }

  async readConfig(): Promise<RunConfig> {
    const r = await this.db.query<{ config: RunConfig }>("SELECT config FROM planspec.runs WHERE run_id = $1", [this.runId]);
    if (!r.rows[0]) throw new Error(`no run ${this.runId} in ${this.location}`);
    return r.rows[0].config;
  }

  async readStateRaw(): Promise<unknown> {
    const r = await this.db.query<{ head: Record<string, unknown>; nodes: Array<[string, number, unknown]> | null }>(READ_SQL, [this.runId]);
    const row = r.rows[0];
    if (!row) throw new Error(`no run ${this.runId} in ${this.location}`);
    const rows = row.nodes ?? [];
    // Assigned, not spread: "nodes" keeps its place among the head's keys.
    row.head.nodes = Object.fromEntries(rows.map(([id, , st]) => [id, st]));
    if (this.generation !== undefined && !this.lost) this.ords = new Map(rows.map(([id, ord]) => [id, ord]));
    return row.head;
  }

  private fence(): number {
    if (this.held?.lost) this.markLost();
    if (this.lost || this.generation === undefined) throw new LeaseLostError(this.runId);
    return this.generation;
  }

  /** Sends the head and the `dirty` nodes only (every node when `dirty` is undefined). */
  async writeState(state: RunState, dirty?: Iterable<string>): Promise<void> {
    const generation = this.fence();
    state.stateVersion++;
    state.updatedAt = nowIso();
    const events = this.pendingEvents.splice(0);
    const idem = this.pendingIdem.splice(0);
    const changed = dirty === undefined ? undefined : this.dirtyNodes(state, dirty);
    const nodes = changed ?? allNodes(state);
    let n: number;
    try {
      const r = await this.db.query<{ n: number }>(WRITE_SQL, [
        this.runId,
        generation,
        headJson(state),
        state.stateVersion,
        state.status,
        JSON.stringify(nodes),
        changed === undefined,
        JSON.stringify(events),
        JSON.stringify(idem),
      ], "planspec.write-state");
      n = r.rows[0]?.n ?? 0;
    } catch (err) {
      this.pendingEvents.unshift(...events);
      this.pendingIdem.unshift(...idem);
      throw err;
    }
    if (n === 0) {
      this.markLost();
      throw new LeaseLostError(this.runId);
    }
    if (changed === undefined) this.ords = new Map(nodes.map((x) => [x.id, x.ord]));
  }

  /** The named nodes with their stored places; undefined (write them all) when one is not known to be stored. */
  private dirtyNodes(state: RunState, dirty: Iterable<string>): NodeRow[] | undefined {
    const rows: NodeRow[] = [];
    for (const id of new Set(dirty)) {
      const ord = this.ords?.get(id);
      const node = state.nodes[id];
      if (ord === undefined || node === undefined) return undefined;
      rows.push({ id, ord, state: node });
    }
    return rows;
  }

  async putArtifact(value: unknown, _durable: boolean): Promise<ArtifactRef> {
    const text = JSON.stringify(value === undefined ? null : value);
    const hash = sha256Hex(text);
    const inState = inStateRef(text, hash);
    if (inState) return inState;
    // Committed before returning, so always durable: a record may point at it at once.
    if (!this.knownArtifacts.has(hash)) {
      await this.db.query("INSERT INTO planspec.artifacts (sha256, content) VALUES ($1, $2) ON CONFLICT DO NOTHING", [hash, text]);
      this.knownArtifacts.add(hash);
    }
    return { ref: `artifacts/${hash}.json`, hash, size: Buffer.byteLength(text) };
  }

  async getArtifact(ref: string): Promise<unknown> {
    const text = inStateText(ref);
    if (text !== undefined) return inStateValue(text, `run ${this.runId} in ${this.location}`);
    const hash = fileRefHash(ref);
    const r = hash ? await this.db.query<{ content: string }>("SELECT content FROM planspec.artifacts WHERE sha256 = $1", [hash]) : undefined;
    if (!r?.rows[0]) throw new IntegrityError(`artifact ${ref} is missing from ${this.location}`);
    if (sha256Hex(r.rows[0].content) !== hash) throw new IntegrityError(`artifact ${ref} in ${this.location} is altered (its content does not match its hash)`);
    return JSON.parse(r.rows[0].content);
  }

  async checkArtifact(ref: string, hash: string): Promise<boolean> {
    const text = inStateText(ref);
    if (text !== undefined) return sha256Hex(text) === hash;
    const h = fileRefHash(ref);
    if (!h) return false;
    const r = await this.db.query<{ ok: boolean }>("SELECT encode(sha256(convert_to(content, 'UTF8')), 'hex') = $2 AS ok FROM planspec.artifacts WHERE sha256 = $1", [h, hash]);
    return r.rows[0]?.ok === true;
  }

  appendEvent(type: string, data: Record<string, unknown>): RunEvent {
    // Buffered: events commit with the next state write (or syncEvents), under the lease.
    const event: RunEvent = { seq: ++this.seq, time: nowIso(), type, data };
    this.pendingEvents.push(event);
    return event;
  }

  async readEvents(): Promise<RunEvent[]> {
    const r = await this.db.query<{ seq: number; time: Date; type: string; data: Record<string, unknown> }>(
      "SELECT seq, time, type, data FROM planspec.events WHERE run_id = $1 ORDER BY seq",
      [this.runId],
    );
    const stored = r.rows.map((row) => ({ seq: row.seq, time: row.time.toISOString(), type: row.type, data: row.data }));
    return [...stored, ...this.pendingEvents];
  }

  async lastEvent(types: readonly string[]): Promise<RunEvent | undefined> {
    const pending = this.pendingEvents.filter((e) => types.includes(e.type)).at(-1);
    if (pending) return pending;
    const r = await this.db.query<{ seq: number; time: Date; type: string; data: Record<string, unknown> }>(
      "SELECT seq, time, type, data FROM planspec.events WHERE run_id = $1 AND type = ANY($2::text[]) ORDER BY seq DESC LIMIT 1",
      [this.runId, types],
    );
    const row = r.rows[0];
    return row ? { seq: row.seq, time: row.time.toISOString(), type: row.type, data: row.data } : undefined;
  }

  async syncEvents(): Promise<void> {
    if (this.pendingEvents.length === 0) return;
    const generation = this.fence();
    const events = this.pendingEvents.splice(0);
    const r = await this.db.query(
      `INSERT INTO planspec.events (run_id, seq, time, type, data)
       SELECT $1, e.seq, e.time, e.type, e.data FROM json_to_recordset($3::json) AS e(seq int, time timestamptz, type text, data json)
       WHERE ${FENCE} ON CONFLICT DO NOTHING`,
      [this.runId, generation, JSON.stringify(events)],
    );
    if ((r.rowCount ?? 0) === 0) {
      this.markLost();
      throw new LeaseLostError(this.runId);
    }
  }

  /** Inserts events as they are (their own seq and time), under the lease; for copying a run in. */
  async importEvents(events: RunEvent[]): Promise<void> {
    const generation = this.fence();
    await this.db.query(
      `INSERT INTO planspec.events (run_id, seq, time, type, data)
       SELECT $1, e.seq, e.time, e.type, e.data FROM json_to_recordset($3::json) AS e(seq int, time timestamptz, type text, data json)
       WHERE ${FENCE} ON CONFLICT DO NOTHING`,
      [this.runId, generation, JSON.stringify(events)],
    );
    this.seq = Math.max(this.seq, ...events.map((e) => e.seq));
  }

  async readIdempotency(): Promise<Record<string, IdempotencyRecord>> {
    // Cached while this store holds the lease: no one else may add records meanwhile.
    if (this.idem) return this.idem;
    const r = await this.db.query<{ key: string; result_ref: string | null; at: Date }>("SELECT key, result_ref, at FROM planspec.idempotency WHERE run_id = $1", [this.runId]);
    const records: Record<string, IdempotencyRecord> = {};
    for (const row of r.rows) records[row.key] = { resultRef: row.result_ref, at: row.at.toISOString() };
    for (const p of this.pendingIdem) records[p.key] ??= { resultRef: p.result_ref, at: p.at };
    if (this.generation !== undefined) this.idem = records;
    return records;
  }

  /**
   * Records the key in the same statement as the next state write, the one that marks its
   * step done. `_result` is not kept: artifacts commit in the same database before the
   * record, so the inline copy the file store keeps would guard against nothing here.
   */
  async recordIdempotency(key: string, resultRef: string | null, _result?: unknown): Promise<void> {
    const records = await this.readIdempotency();
    if (records[key]) return;
    const at = nowIso();
    records[key] = { resultRef, at };
    this.pendingIdem.push({ key, result_ref: resultRef, at });
  }

  async forgetIdempotency(key: string): Promise<void> {
    const generation = this.fence();
    this.pendingIdem = this.pendingIdem.filter((p) => p.key !== key);
    if (this.idem) delete this.idem[key];
    const r = await this.db.query(`DELETE FROM planspec.idempotency WHERE run_id = $1 AND key = $3 AND ${FENCE}`, [this.runId, generation, key]);
    if ((r.rowCount ?? 0) === 0 && !(await this.fenceHolds(generation))) throw new LeaseLostError(this.runId);
  }

  private async fenceHolds(generation: number): Promise<boolean> {
    const r = await this.db.query(`SELECT 1 WHERE ${FENCE}`, [this.runId, generation]);
    return r.rows.length > 0;
  }

  async saveRevision(n: number, plan: PlanIR): Promise<void> {
    const generation = this.fence();
    const r = await this.db.query(`INSERT INTO planspec.revisions (run_id, revision, plan) SELECT $1, $3, $4::json WHERE ${FENCE} ON CONFLICT DO NOTHING`, [this.runId, generation, n, JSON.stringify(plan)]);
    if ((r.rowCount ?? 0) === 0) throw new LeaseLostError(this.runId);
  }

  /** Takes the run's lease (`LeaseHeldError` when a live holder has it); for a new run, `create` takes it. */
  async lock(): Promise<void> {
    if (this.generation !== undefined && !this.lost) return;
    const since = performance.now();
    const g = await takeLease(this.db, this.runId, this.owner, this.leaseMs);
    if (g === undefined) {
      this.creating = true;
      return;
    }
    await this.adoptLease(g, since);
  }

  /**
   * Uses a lease claimed elsewhere (a worker's claim query) for this store's writes;
   * `since` is when the claim was sent (performance.now()), where the lease's time starts.
   */
  async adoptLease(generation: number, since = performance.now()): Promise<void> {
    this.held?.lose();
    this.held = new HeldLease(this.runId, generation, this.leaseMs, since);
    this.generation = generation;
    this.lost = false;
    this.idem = undefined;
    this.ords = undefined;
    const r = await this.db.query<{ s: number | null }>("SELECT max(seq) AS s FROM planspec.events WHERE run_id = $1", [this.runId]);
    this.seq = r.rows[0]?.s ?? -1;
    this.startHeartbeat();
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    const g = this.generation!;
    const held = this.held;
    this.heartbeat = setInterval(() => {
      const sent = performance.now();
      renewLease(this.db, this.runId, g, this.leaseMs).then(
        (ok) => {
          if (this.generation !== g) return;
          if (ok) held?.extend(sent);
          else this.markLost();
        },
        // A failed renewal (connection hiccup) is retried at the next beat; the fence decides.
        () => {},
      );
    }, Math.max(50, Math.floor(this.leaseMs / 3)));
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /** Stops renewing without releasing: the lease runs out as if the process had died (tests, benchmarks). */
  abandon(): void {
    this.stopHeartbeat();
  }

  /** Gives the lease back at once while the session may still run: its tool calls are aborted, its writes refused. */
  async giveBack(): Promise<void> {
    const g = this.leaseGeneration;
    this.markLost();
    if (g !== undefined) await releaseLease(this.db, this.runId, g).catch(() => {});
  }

  requeue(): void {
    this.requeueOnUnlock = true;
  }

  async unlock(): Promise<void> {
    this.stopHeartbeat();
    this.creating = false;
    const g = this.generation;
    const requeue = this.requeueOnUnlock;
    this.generation = undefined;
    this.idem = undefined;
    this.ords = undefined;
    this.requeueOnUnlock = false;
    this.held?.lose();
    this.held = undefined;
    if (g !== undefined && !this.lost) await releaseLease(this.db, this.runId, g, requeue).catch(() => {});
  }
}

/** The state without its nodes; "nodes" stays, as {}, in its place among the keys. */
function headJson(state: RunState): string {
  return JSON.stringify({ ...state, nodes: {} });
}

interface NodeRow {
  id: string;
  ord: number;
  state: NodeState;
}

/** Every node with its place in the state's key order. */
function allNodes(state: RunState): NodeRow[] {
  return Object.entries(state.nodes).map(([id, node], ord) => ({ id, ord, state: node }));
}
