/**
 * A worker: claims runs from a PostgreSQL store (queued, or running with an expired
 * lease), resumes each under its lease with the ordinary resume path, and keeps up to
 * `concurrency` runs going. A run taken over from a dead worker goes through resume's
 * checks like any crashed run, so interrupted steps are adopted or re-run.
 */
import { resumeRun, type SessionResult } from "../run.js";
import type { RunState } from "../store.js";
import type { PgDatabase } from "./db.js";
import type { PoolClient } from "pg";
import { claimNext, LeaseLostError, newOwnerId, openRunCount, RUNS_CHANNEL } from "./lease.js";
import { PgStore } from "./pg-store.js";

export type WorkerEvent =
  | { type: "claimed"; runId: string; generation: number }
  | { type: "finished"; runId: string; status: string; reason?: string }
  | { type: "lost"; runId: string }
  | { type: "error"; runId: string; message: string }
  | { type: "released"; runId: string };

export interface WorkerOptions {
  db: PgDatabase;
  /** Runs held at once. */
  concurrency: number;
  leaseMs: number;
  /** How often to look for work when there is none. */
  pollMs: number;
  /** Replace the tool modules recorded with each run (absolute paths). */
  toolModules?: string[];
  /** Re-run write/external steps a dead worker left mid-call (keyed tools must honour ctx.idempotencyKey). */
  rerunInterrupted: boolean;
  /** Return once no run is queued or running anywhere in the store. */
  exitWhenIdle: boolean;
  /** Stop claiming; return when the runs in hand have finished. */
  stop: AbortSignal;
  /** Give the runs in hand back at once (release their leases) and return. */
  release?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  onEvent?: (e: WorkerEvent) => void;
}

export interface WorkerSummary {
  owner: string;
  finished: number;
  lost: number;
  errors: number;
  released: number;
}

/** Runs the worker loop until stopped (or idle with `exitWhenIdle`). */
export async function runWorker(opts: WorkerOptions): Promise<WorkerSummary> {
  const owner = newOwnerId();
  const summary: WorkerSummary = { owner, finished: 0, lost: 0, errors: 0, released: 0 };
  const active = new Map<string, { store: PgStore; done: Promise<void> }>();
  let wake: (() => void) | undefined;
  const nudge = () => wake?.();
  opts.stop.addEventListener("abort", nudge);
  opts.release?.addEventListener("abort", nudge);
  const listener = new RunListener(opts.db, nudge);

  const session = async (store: PgStore): Promise<void> => {
    try {
      const r: SessionResult = await resumeRun(store, {
        rerunInterrupted: opts.rerunInterrupted,
        ...(opts.toolModules ? { toolModules: opts.toolModules } : {}),
        ...(opts.env ? { env: opts.env } : {}),
      });
      summary.finished++;
      opts.onEvent?.({ type: "finished", runId: store.runId, status: r.outcome.status, ...(r.outcome.reason ? { reason: r.outcome.reason } : {}) });
    } catch (err) {
      if (opts.release?.aborted) {
        // Given back on purpose: counted as released, not lost.
      } else if (err instanceof LeaseLostError) {
        summary.lost++;
        opts.onEvent?.({ type: "lost", runId: store.runId });
      } else {
        summary.errors++;
        const message = (err as Error).message ?? String(err);
        opts.onEvent?.({ type: "error", runId: store.runId, message });
        await store.unlock().catch(() => {});
        await failRun(store, message).catch(() => {});
      }
      await store.unlock().catch(() => {});
    }
  };

  while (!opts.stop.aborted && !opts.release?.aborted) {
    await listener.ensure();
    let claimed = false;
    while (active.size < opts.concurrency && !opts.stop.aborted) {
      let c;
      const since = performance.now();
      try {
        c = await claimNext(opts.db, owner, opts.leaseMs);
      } catch {
        break; // The server is unreachable for now; try again at the next poll.
      }
      if (!c) break;
      claimed = true;
      opts.onEvent?.({ type: "claimed", runId: c.runId, generation: c.generation });
      const store = new PgStore(opts.db, c.runId, { leaseMs: opts.leaseMs, owner });
      await store.adoptLease(c.generation, since);
      const done = session(store).finally(() => {
        active.delete(c.runId);
        nudge();
      });
      active.set(c.runId, { store, done });
    }
    if (!claimed && active.size === 0 && opts.exitWhenIdle) {
      const open = await openRunCount(opts.db).catch(() => 1);
      if (open === 0) break;
    }
    await new Promise<void>((res) => {
      const t = setTimeout(res, claimed && active.size < opts.concurrency ? 0 : opts.pollMs);
      wake = () => {
        clearTimeout(t);
        res();
      };
    });
    wake = undefined;
  }
  await listener.close();
  if (opts.release?.aborted) {
    for (const [runId, a] of active) {
      await a.store.giveBack();
      summary.released++;
      opts.onEvent?.({ type: "released", runId });
    }
    return summary;
  }
  await Promise.all([...active.values()].map((a) => a.done));
  return summary;
}

/**
 * LISTEN on the runs channel, so a run queued or handed back by a decision wakes the
 * worker at once; the poll stays as the fallback when the connection is lost.
 */
class RunListener {
  private client: PoolClient | undefined;

  constructor(
    private readonly db: PgDatabase,
    private readonly onNotify: () => void,
  ) {}

  /** Listens if not listening (a lost connection is retried at the next loop turn). */
  async ensure(): Promise<void> {
    if (this.client) return;
    let client: PoolClient | undefined;
    try {
      client = await this.db.pool.connect();
      client.on("notification", this.onNotify);
      client.on("error", () => this.drop(client!));
      await client.query(`LISTEN ${RUNS_CHANNEL}`);
      this.client = client;
    } catch {
      if (client) this.drop(client);
    }
  }

  private drop(client: PoolClient): void {
    if (this.client === client) this.client = undefined;
    client.removeAllListeners("notification");
    client.release(true);
  }

  async close(): Promise<void> {
    if (this.client) this.drop(this.client);
  }
}

/** A run that cannot even start (missing tool, bad state) is marked failed so workers stop claiming it. */
async function failRun(store: PgStore, message: string): Promise<void> {
  // resume released the lease on its way out: take it again for this one write.
  await store.lock();
  try {
    const raw = (await store.readStateRaw()) as RunState;
    raw.status = "failed";
    raw.reason = `a worker could not run it: ${message}`;
    store.appendEvent("run.finished", { status: "failed", reason: raw.reason });
    await store.writeState(raw);
  } finally {
    await store.unlock();
  }
}
