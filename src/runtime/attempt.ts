/**
 * One attempt of a step, from idempotency lookup to stored result: a recorded key
 * adopts the recorded result without calling the tool; otherwise the body runs under
 * the step timeout, the output is checked (schema, success criteria) and stored, and
 * the key is recorded durably before the scheduler may mark the step done.
 */
import type { IRNode } from "../ir.js";
import type { EvalEnv } from "../compiler/expr/index.js";
import { evaluateCriteria, type Judge } from "./criteria.js";
import type { Gateway } from "./gateway.js";
import { outputSchemaError } from "./output-schema.js";
import { inlineCopy, recordedResult, ResultLostError } from "./recorded.js";
import { maxAttemptsOf, StepTimeoutError } from "./retry.js";
import { DEFAULT_MAX_OUTPUT_BYTES, formatSize, jsonSize } from "./limits.js";
import { evaluateKey } from "./keys.js";
import { PermanentStepError, runStepBody } from "./step.js";
import { StepAbort } from "./step-abort.js";
import type { ArtifactRef, NodeState, Store } from "./store.js";

export type AttemptResult =
  | { kind: "ok"; output: unknown; art: ArtifactRef; adopted: boolean }
  | { kind: "ask"; output: unknown; art: ArtifactRef; criterion: string }
  | { kind: "error"; error: unknown };

export interface AttemptInput {
  node: IRNode;
  state: NodeState;
  env: EvalEnv;
  key?: string;
  store: Store;
  gateway: Gateway;
  runSignal: AbortSignal;
  trace: (id: string) => NodeState | undefined;
  emit: (type: string, data: Record<string, unknown>) => void;
  /** The largest output the step may return, in bytes (default 16 MiB). */
  maxOutputBytes?: number;
}

/** The longest a retry waits for a call of the attempt before it that did not heed its timeout. */
const STRAGGLER_WAIT_MS = 10_000;

/** Runs one attempt; never throws (failures come back as `{ kind: "error" }`). */
export async function runAttempt(a: AttemptInput): Promise<AttemptResult> {
  const { node, store, gateway } = a;
  let timer: NodeJS.Timeout | undefined;
  // The run's abort reaches the step's own signal, once there is one, through one listener
  // removed when the attempt ends (AbortSignal.any would cost a weak-reference registry per step).
  const inFlight = node.forEach ? Math.max(1, node.forEach.concurrency ?? 1) : 1;
  const abort = new StepAbort(a.runSignal, { own: node.timeoutMs !== undefined, inFlight });
  try {
    if (a.key !== undefined) {
      const rec = (await store.readIdempotency())[a.key];
      if (rec) {
        a.emit("idempotency.hit", { node: node.id, key: a.key, resultRef: rec.resultRef });
        const r = await recordedResult(store, rec);
        if (r.kind === "lost") throw new ResultLostError(a.key, r.problem);
        if (r.kind === "restored") a.emit("artifact.restored", { node: node.id, key: a.key, resultRef: r.art.ref });
        return { kind: "ok", output: r.output, art: r.art, adopted: true };
      }
    }
    if (node.timeoutMs !== undefined) {
      const ms = node.timeoutMs;
      timer = setTimeout(() => abort.abort(new StepTimeoutError(node.id, ms)), ms);
    }
    const cc = { node, attempt: a.state.attempts, abort, idempotencyKey: a.key, lease: store.lease, flushEvents: () => store.flushEvents?.() };
    const started = performance.now();
    const returned = await runStepBody(node, a.env, gateway, cc, (env) => evaluateKey(node, env));
    clearTimeout(timer);
    // A tool that blocks the event loop keeps the timer from firing: judge by the clock.
    if (node.timeoutMs !== undefined && performance.now() - started > node.timeoutMs) throw new StepTimeoutError(node.id, node.timeoutMs);
    const max = a.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const size = jsonSize(returned, max);
    if (size > max) {
      throw new PermanentStepError(`the output of step "${node.id}" is more than ${formatSize(max)} (the per-step limit; raise it with --max-output-size)`);
    }
    // A copy, as JSON: the tool may still hold (and change) the object it returned after it was checked and stored.
    const text = JSON.stringify(returned);
    const output = text === undefined ? returned : (JSON.parse(text) as unknown);
    const schemaError = await outputSchemaError(node, output);
    if (schemaError) throw new Error(schemaError);
    const judge: Judge | undefined = gateway.has("judge")
      ? async (criterion, out) => normaliseVerdict(await gateway.call("judge", { criterion, output: out, step: node.id, goal: node.goal }, cc))
      : undefined;
    const verdict = await evaluateCriteria(node, output, a.env, a.state, a.trace, judge);
    if (verdict.ok === false) throw new Error(verdict.error);
    // Durable when keyed: the idempotency record must never point at a lost artifact.
    const art = await stored(() => store.putArtifact(output, a.key !== undefined));
    const key = a.key;
    if (key !== undefined) await stored(() => store.recordIdempotency(key, art.ref, inlineCopy(output, art)));
    if (verdict.ok === "ask") return { kind: "ask", output, art, criterion: verdict.criterion };
    return { kind: "ok", output, art, adopted: false };
  } catch (error) {
    // A call left running past the timeout, a timeout later still (10 s at most): a retry would run beside it.
    if (error instanceof StepTimeoutError && error.stillRunning === undefined && a.state.attempts < maxAttemptsOf(node)) {
      const tool = await abort.stillRunning(Math.min(error.ms, STRAGGLER_WAIT_MS));
      if (tool !== undefined) return { kind: "error", error: new StepTimeoutError(error.node, error.ms, tool) };
    }
    return { kind: "error", error };
  } finally {
    clearTimeout(timer);
    abort.dispose();
  }
}

/**
 * The store could not keep a result (disk full, permission denied). Not the step's
 * failure: the session stops with the step still `running`, so resume treats it as
 * interrupted (re-run if it reads, held for a person if it wrote) instead of retrying it.
 */
export class StorageError extends Error {
  readonly code: string;
  readonly syscall?: string;
  readonly path?: string;
  constructor(cause: Error & { code: string; syscall?: string; path?: string }) {
    super(cause.message);
    this.name = "StorageError";
    this.code = cause.code;
    this.syscall = cause.syscall;
    this.path = cause.path;
  }
}

async function stored<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) throw new StorageError(err as Error & { code: string });
    throw err;
  }
}

/** A judge tool may return a boolean or `{ pass | ok, reason? }`. */
function normaliseVerdict(v: unknown): { pass: boolean; reason?: string } {
  if (typeof v === "boolean") return { pass: v };
  if (v && typeof v === "object") {
    const o = v as { pass?: unknown; ok?: unknown; reason?: unknown };
    return { pass: o.pass === true || o.ok === true, reason: typeof o.reason === "string" ? o.reason : undefined };
  }
  return { pass: false, reason: "the judge tool returned no verdict" };
}
