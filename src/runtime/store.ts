/**
 * The run state and the Store interface. The file store (`file-store.ts`) is the
 * embedded default; anything that implements `Store` (e.g. a PostgreSQL store) can hold
 * a run instead, because the scheduler and resume talk only to this interface.
 */
import type { PlanIR } from "../ir.js";
import type { NodeStatus, RunStatus } from "./states.js";

export const STATE_SCHEMA_VERSION = 2;

export interface Decision {
  decision: "approved" | "rejected";
  by: string;
  note?: string;
  at: string;
  /** What the approval is for: a hash of what the step will do (see binding.ts); absent on rejections. */
  binding?: string;
}

/** What a node waits for while the run is paused. */
export interface Awaiting {
  /**
   * `resolve`: a keyed step whose effect happened but whose recorded result is missing or
   * altered (`planspec resolve`); `refine`: an unrefined `kind: phase` (`planspec refine`).
   */
  kind: "approval" | "judge" | "interrupted" | "resolve" | "refine";
  since: string;
  /** For `judge`: the criterion text a person must decide. */
  criterion?: string;
  /** For `resolve`: the idempotency key whose record says the effect happened. */
  key?: string;
}

export interface NodeState {
  status: NodeStatus;
  attempts: number;
  lastError?: string;
  startedAt?: string;
  endedAt?: string;
  /** `artifacts/<sha256>.json`: the step's result; state holds references only. */
  outputRef?: string;
  outputHash?: string;
  /** The evaluated idempotency key of the current attempt (evaluated before the call). */
  idempotencyKey?: string;
  /** Why the node was skipped (`when` false, only skipped needs, rejected). */
  skipReason?: string;
  /** The decision on the step's approval gate. */
  decision?: Decision;
  /** A person's decision on a `judge` criterion (when no judge tool is registered). */
  judgeDecision?: Decision;
  awaiting?: Awaiting;
}

export interface RunState {
  schemaVersion: number;
  /** +1 per write: a reader can tell two states apart and order them. */
  stateVersion: number;
  runId: string;
  planHash: string;
  /** 0 for the plan the run started with, n for `revisions/<n>.ir.json`. */
  revision: number;
  status: RunStatus;
  /** Why the run is paused, failed or terminated, in one line. */
  reason?: string;
  createdAt: string;
  updatedAt: string;
  inputs: Record<string, unknown>;
  nodes: Record<string, NodeState>;
  /**
   * The lint verdict the run's recorded plan passed (`gateKey`): planspec's version, the
   * plan hash and a hash of the plan file. While it still matches, `resume` need not lint
   * the same plan with the same rules again.
   */
  gate?: string;
  /**
   * The file store's sha256 of the run's current plan file, as written (or as last found
   * to hash to `planHash`): while the file's bytes still match, a reader need not
   * recompute the canonical plan hash (seconds for a 100,000-step plan).
   */
  planDigest?: string;
  /**
   * What `planspec status` prints, written with the snapshot that ends a session, so
   * `status` of a finished run reads one line instead of the whole state and plan.
   * Valid only while `stateVersion` and `planspec` (the version) match the state's.
   */
  summary?: StatusSummary;
  /** `elapsedMs`: active time of earlier sessions, so time paused for approval does not count against run_timeout. */
  budget: { toolCalls: number; startedAt: string; elapsedMs: number };
}

export interface StatusSummary {
  stateVersion: number;
  planspec: string;
  text: string;
  done: number;
  total: number;
  /** The plan's name (for `planspec runs`). */
  plan?: string;
  /** Set by the file store: the identity (inode, size, ctime) of the plan file the summary was made with. */
  planFile?: string;
  /**
   * The run is done and a resume has nothing to check or ask for: no secrets to supply
   * again, every output kept in the state (no artifact file to verify). `resume` then
   * answers from the summary without reading the plan.
   */
  noopResume?: boolean;
}

/** One line of a run listing (`planspec runs`), whichever store holds the run. */
export interface RunSummary {
  id: string;
  status: string;
  plan: string;
  done: number;
  total: number;
  createdAt: string;
  updatedAt: string;
}

/** How the run was started, so a bare `resume` can repeat it. */
export interface RunConfig {
  /** Absolute paths of user tool modules. */
  toolModules: string[];
  workspace: string;
  concurrency: number;
  planFile?: string;
  /** The per-step output limit in bytes (`--max-output-size`); absent: the default 16 MiB. */
  maxOutputBytes?: number;
  /**
   * False when the operator started the run with the lint gate overridden (`run --no-lint-gate`):
   * `resume` then does not gate the recorded plan again (the decision was made, and is in run.started).
   */
  lintGate?: boolean;
  /**
   * The salt of this run's secret fingerprints (hex; see fingerprint.ts). Absent in runs
   * created before it: they keep the unsalted fingerprint their records were written with.
   */
  secretSalt?: string;
  /** Set by the file store: this run's state.json carries a checksum (one without it is an edit). */
  stateChecksum?: boolean;
}

export interface RunEvent {
  seq: number;
  time: string;
  type: string;
  data: Record<string, unknown>;
}

export interface IdempotencyRecord {
  resultRef: string | null;
  at: string;
  /** The result itself when small (`INLINE_RESULT_MAX`), so a lost artifact can be restored. */
  result?: unknown;
}

/** Results up to this many bytes of JSON are also kept in their idempotency record. */
export const INLINE_RESULT_MAX = 64 * 1024;

export interface ArtifactRef {
  ref: string;
  hash: string;
  /** Bytes of the stored JSON. */
  size?: number;
}

/**
 * The lease a session writes under (a PostgreSQL store; a run directory has none). Tools
 * see `token` as `ctx.fencingToken`, and `signal` aborts their calls once the lease is lost.
 */
export interface Lease {
  /** The lease generation: grows with every claim, so a downstream service can refuse an older one. */
  readonly token: number;
  /** Fires (reason: a `LeaseLostError`) when the lease is lost, expired by the clock, or given back. */
  readonly signal: AbortSignal;
  /** Whether the lease is lost, by the local clock too: past its time, it is marked lost (its signal fires) now. */
  isLost(): boolean;
  /** Throws (a `LeaseLostError`) when `isLost()`. */
  check(): void;
}

export interface Store {
  readonly runId: string;
  /** The lease this store holds now, if it is a leased store. */
  readonly lease?: Lease;
  /** A human-readable location (the run directory for the file store). */
  readonly location: string;
  exists(): Promise<boolean>;
  /** Creates the run: plan, config and the first state. Fails if the run exists. */
  create(plan: PlanIR, config: RunConfig, state: RunState): Promise<void>;
  readPlan(revision: number): Promise<PlanIR>;
  readConfig(): Promise<RunConfig>;
  /** The raw parsed state, before migration and validation. */
  readStateRaw(): Promise<unknown>;
  /**
   * Durably replaces the state; increments `stateVersion`. `dirty` names the nodes that
   * changed since the last write so an implementation may re-serialise only those.
   * `snapshot`: the write ends a session, so a store that keeps a journal writes its
   * readable snapshot now (from what it has, plus `dirty`).
   */
  writeState(state: RunState, dirty?: Iterable<string>, opts?: { snapshot?: boolean }): Promise<void>;
  /**
   * Stores a value content-addressed (write-once). `durable` forces it to stable
   * storage before returning (needed when an idempotency record will point at it).
   */
  putArtifact(value: unknown, durable: boolean): Promise<ArtifactRef>;
  /** The artifact's value; throws `IntegrityError` when it is missing or its content does not match its hash. */
  getArtifact(ref: string): Promise<unknown>;
  /** True when the artifact exists and its content hashes to `hash`. */
  checkArtifact(ref: string, hash: string): Promise<boolean>;
  appendEvent(type: string, data: Record<string, unknown>): RunEvent;
  readEvents(): Promise<RunEvent[]>;
  /**
   * The last event of one of `types`, without reading every event (`approve` on a run of
   * 100,000 steps wants one line of 400,000). Default: `readEvents` and a search.
   */
  lastEvent?(types: readonly string[]): Promise<RunEvent | undefined>;
  /** Makes appended events durable (called when the run stops). */
  syncEvents(): Promise<void>;
  /** Writes events a store holds back (a run directory batches them per turn) so readers see them now. */
  flushEvents?(): void;
  readIdempotency(): Promise<Record<string, IdempotencyRecord>>;
  /**
   * Durably records a key before the step that used it is marked done; `result`, when
   * given, is kept in the record too (callers pass it for small results only).
   */
  recordIdempotency(key: string, resultRef: string | null, result?: unknown): Promise<void>;
  /**
   * A key as this store writes it (a redacting store tags the secrets in it), so a key
   * evaluated now compares with one a step recorded in an earlier session. Default: as is.
   */
  storedKey?(key: string): string;
  /** Removes a key's record (a person chose to run the call again: `planspec resolve --rerun`). */
  forgetIdempotency(key: string): Promise<void>;
  saveRevision(n: number, plan: PlanIR): Promise<void>;
  /**
   * Hands the run to workers once this session lets go of it (a decision was recorded):
   * a PostgreSQL store queues it and notifies listening workers at `unlock`. Run
   * directories have no workers.
   */
  requeue?(): void;
  /** Takes the run's lock; throws `LockHeldError` when a live process holds it. */
  lock(): Promise<void>;
  unlock(): Promise<void>;
}

/** A store or run that cannot be used: bad URL, server down, wrong schema version, no such run. */
export class StoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreError";
  }
}

/** Another live process holds the run. */
export class LockHeldError extends Error {
  constructor(
    readonly pid: number,
    readonly since: string,
  ) {
    super(`the run is in use by process ${pid} (since ${since})`);
    this.name = "LockHeldError";
  }
}

/** A run file that is missing, altered or edited outside planspec. */
export class IntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IntegrityError";
  }
}

let isoMs = Number.NaN;
let iso = "";

/** Current time as UTC ISO-8601; a step asks several times per millisecond, so the last text is kept. */
export function nowIso(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    iso = new Date(ms).toISOString();
  }
  return iso;
}
