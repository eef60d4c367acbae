/**
 * Leases: who may write a run. A lease is (owner, generation, expiry) on the run's row.
 * Taking one bumps the generation; every write names the generation it holds and
 * commits only while that lease is unexpired, so a worker that stalled past its lease
 * cannot commit after another took the run over (fencing).
 */
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { PgDatabase } from "./db.js";
import type { Lease, RunSummary } from "../store.js";

/** Another live process holds the run's lease. */
export class LeaseHeldError extends Error {
  constructor(
    readonly runId: string,
    readonly owner: string,
    readonly expiresAt: string,
  ) {
    super(`the run ${runId} is in use by ${owner} (lease until ${expiresAt})`);
    this.name = "LeaseHeldError";
  }
}

/** This process's lease was taken over or expired: it must not write the run any more. */
export class LeaseLostError extends Error {
  constructor(readonly runId: string) {
    super(`lost the lease on run ${runId}: it expired or another worker took the run over`);
    this.name = "LeaseLostError";
  }
}

/**
 * The share of the lease length this process trusts its lease for, counted on its own
 * monotonic clock from the moment it sent the claim or renewal: the server's expiry is
 * later still, so by the time another worker may take the run over, this side has
 * already given up, even when the process was frozen (SIGSTOP, a VM pause) meanwhile.
 */
const TRUSTED_SHARE = 0.9;

/**
 * A lease held by this process, as its tools see it: the generation as fencing token,
 * and a signal that fires once the lease is lost — told by the server (a failed renewal
 * or write), given back, or past its deadline by the local clock. `isLost()` and
 * `check()` read the clock themselves, so a thawed process sees the loss even before
 * the watchdog timer has had its turn.
 */
export class HeldLease implements Lease {
  private readonly abort = new AbortController();
  private deadline = 0;
  private watchdog: NodeJS.Timeout | undefined;

  constructor(
    readonly runId: string,
    readonly token: number,
    private readonly leaseMs: number,
    since: number,
  ) {
    this.extend(since);
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get lost(): boolean {
    return this.abort.signal.aborted;
  }

  /** A claim or renewal sent at `since` (performance.now()) was granted. */
  extend(since: number): void {
    if (this.lost) return;
    this.deadline = Math.max(this.deadline, since + this.leaseMs * TRUSTED_SHARE);
    this.arm();
  }

  private arm(): void {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => (this.expired() ? this.lose() : this.arm()), Math.max(1, this.deadline - performance.now()));
    this.watchdog.unref();
  }

  private expired(): boolean {
    return performance.now() >= this.deadline;
  }

  /** Marks the lease lost: every call holding its signal is aborted. */
  lose(): void {
    clearTimeout(this.watchdog);
    if (!this.lost) this.abort.abort(new LeaseLostError(this.runId));
  }

  isLost(): boolean {
    if (!this.lost && this.expired()) this.lose();
    return this.lost;
  }

  check(): void {
    if (this.isLost()) throw this.abort.signal.reason;
  }
}

/** Default lease length: a dead worker's run waits this long before another takes it. */
export const DEFAULT_LEASE_MS = 15_000;

/** A lease owner id: host, pid and a random suffix (two stores in one process differ). */
export function newOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

/** Tries to take the lease on an existing run; returns the new generation, or throws `LeaseHeldError`. */
export async function takeLease(db: PgDatabase, runId: string, owner: string, leaseMs: number): Promise<number | undefined> {
  const r = await db.query<{ g: string }>(
    `UPDATE planspec.runs SET lease_owner = $2, lease_generation = lease_generation + 1,
       lease_expires_at = clock_timestamp() + make_interval(secs => $3::float8 / 1000)
     WHERE run_id = $1 AND (lease_expires_at IS NULL OR lease_expires_at < clock_timestamp())
     RETURNING lease_generation::text AS g`,
    [runId, owner, leaseMs],
  );
  if (r.rows[0]) return Number(r.rows[0].g);
  const held = await db.query<{ owner: string | null; exp: Date | null }>("SELECT lease_owner AS owner, lease_expires_at AS exp FROM planspec.runs WHERE run_id = $1", [runId]);
  const row = held.rows[0];
  if (!row) return undefined;
  throw new LeaseHeldError(runId, row.owner ?? "another process", row.exp ? row.exp.toISOString() : "unknown");
}

/**
 * Claims the oldest run that is queued, or running with no live lease, skipping rows
 * other workers are claiming at this instant (FOR UPDATE SKIP LOCKED).
 */
export async function claimNext(db: PgDatabase, owner: string, leaseMs: number): Promise<{ runId: string; generation: number } | undefined> {
  const r = await db.pool.query<{ run_id: string; g: string }>(
    `UPDATE planspec.runs r SET lease_owner = $1, lease_generation = r.lease_generation + 1,
       lease_expires_at = clock_timestamp() + make_interval(secs => $2::float8 / 1000)
     FROM (SELECT run_id FROM planspec.runs
           WHERE status IN ('queued', 'running') AND (lease_expires_at IS NULL OR lease_expires_at < clock_timestamp())
           ORDER BY created_at, run_id LIMIT 1 FOR UPDATE SKIP LOCKED) c
     WHERE r.run_id = c.run_id
     RETURNING r.run_id, r.lease_generation::text AS g`,
    [owner, leaseMs],
  );
  const row = r.rows[0];
  return row ? { runId: row.run_id, generation: Number(row.g) } : undefined;
}

/** Extends a lease still held; false when it was lost (expired or taken over). */
export async function renewLease(db: PgDatabase, runId: string, generation: number, leaseMs: number): Promise<boolean> {
  const r = await db.pool.query(
    `UPDATE planspec.runs SET lease_expires_at = clock_timestamp() + make_interval(secs => $3::float8 / 1000)
     WHERE run_id = $1 AND lease_generation = $2 AND lease_expires_at > clock_timestamp()`,
    [runId, generation, leaseMs],
  );
  return (r.rowCount ?? 0) > 0;
}

/** The channel workers LISTEN on: a run id is notified when the run may be claimed now. */
export const RUNS_CHANNEL = "planspec_runs";

/**
 * Gives a lease back so another worker may take the run at once; with `requeue`, a
 * paused run is queued for workers (a decision was recorded). Workers hear of a run
 * they may claim through NOTIFY, which PostgreSQL delivers when the statement commits.
 */
export async function releaseLease(db: PgDatabase, runId: string, generation: number, requeue = false): Promise<void> {
  await db.pool.query(
    `WITH r AS (
       UPDATE planspec.runs SET lease_owner = NULL, lease_expires_at = NULL,
         status = CASE WHEN $3 AND status = 'paused' THEN 'queued' ELSE status END
       WHERE run_id = $1 AND lease_generation = $2 RETURNING run_id, status)
     SELECT pg_notify('${RUNS_CHANNEL}', run_id) FROM r WHERE status IN ('queued', 'running')`,
    [runId, generation, requeue],
  );
}

/** How many runs a worker could still have to take: queued or running (leased or not). */
export async function openRunCount(db: PgDatabase): Promise<number> {
  const r = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM planspec.runs WHERE status IN ('queued', 'running')");
  return r.rows[0]?.n ?? 0;
}

/** A listed run with the worker holding its lease, if any. */
export interface StoredRunSummary extends RunSummary {
  leaseOwner: string | null;
}

/** Every run in the store, oldest first, with its step counts and lease holder. */
export async function listRuns(db: PgDatabase): Promise<StoredRunSummary[]> {
  const r = await db.query<{ run_id: string; status: string; plan_name: string; done: number; total: number; created_at: Date; updated_at: Date; owner: string | null }>(
    `SELECT run_id, status, plan_name, created_at, updated_at,
       CASE WHEN lease_expires_at > clock_timestamp() THEN lease_owner END AS owner,
       (SELECT count(*)::int FROM planspec.run_nodes n WHERE n.run_id = r.run_id AND n.state->>'status' = 'done') AS done,
       (SELECT count(*)::int FROM planspec.run_nodes n WHERE n.run_id = r.run_id) AS total
     FROM planspec.runs r ORDER BY created_at, run_id`,
  );
  return r.rows.map((x) => ({ id: x.run_id, status: x.status, plan: x.plan_name, done: x.done, total: x.total, createdAt: x.created_at.toISOString(), updatedAt: x.updated_at.toISOString(), leaseOwner: x.owner }));
}
