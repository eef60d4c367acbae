/** Retry and timeout policy of a step. */
import type { IRNode } from "../ir.js";
import { backoffMs as jittered, retryBackoff } from "../util/backoff.js";

/** A retry written without `max_attempts` compiles (the linter flags it); the runtime caps it here. */
export const DEFAULT_UNBOUNDED_RETRIES = 3;

/** How many attempts a step gets in total. */
export function maxAttemptsOf(node: IRNode): number {
  if (!node.retry) return 1;
  return Math.max(1, node.retry.maxAttempts ?? DEFAULT_UNBOUNDED_RETRIES);
}

/** The delay in whole ms before attempt `attempt + 1`: the policy's delay with equal jitter (src/util/backoff.ts). */
export function backoffMs(node: IRNode, attempt: number, random: () => number = Math.random): number {
  const b = retryBackoff(node.retry);
  return b ? Math.round(jittered(b, Math.max(0, attempt - 1), random)) : 0;
}

/**
 * A step attempt that ran past its timeout. `stillRunning`: the tool of a call that had not
 * stopped a timeout later, 10 s at most (an in-process tool that does not heed `ctx.signal`):
 * the step is not retried, so no second call runs beside it.
 */
export class StepTimeoutError extends Error {
  constructor(
    readonly node: string,
    readonly ms: number,
    readonly stillRunning?: string,
  ) {
    super(
      `step "${node}" timed out after ${ms}ms` +
        (stillRunning === undefined ? "" : `, and its tool "${stillRunning}" has not stopped a timeout later (it does not heed ctx.signal): not retried while it may still act`),
    );
    this.name = "StepTimeoutError";
  }
}
