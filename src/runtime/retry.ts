/** Retry and timeout policy of a step. */
import type { IRNode } from "../ir.js";

/** A retry written without `max_attempts` compiles (the linter flags it); the runtime caps it here. */
export const DEFAULT_UNBOUNDED_RETRIES = 3;

/** How many attempts a step gets in total. */
export function maxAttemptsOf(node: IRNode): number {
  if (!node.retry) return 1;
  return Math.max(1, node.retry.maxAttempts ?? DEFAULT_UNBOUNDED_RETRIES);
}

/**
 * The delay before attempt `attempt + 1`: the policy's base delay with "equal jitter"
 * (half fixed, half random) so retries of parallel steps do not synchronise while a
 * delay never collapses to zero.
 */
export function backoffMs(node: IRNode, attempt: number, random: () => number = Math.random): number {
  const r = node.retry;
  if (!r || r.backoff === "none") return 0;
  const base = r.backoff === "fixed" ? r.initialDelayMs : r.initialDelayMs * 2 ** Math.max(0, attempt - 1);
  const capped = Math.min(base, r.maxDelayMs || base);
  return Math.round(capped / 2 + (random() * capped) / 2);
}

/** A step attempt that ran past its timeout. */
export class StepTimeoutError extends Error {
  constructor(
    readonly node: string,
    readonly ms: number,
  ) {
    super(`step "${node}" timed out after ${ms}ms`);
    this.name = "StepTimeoutError";
  }
}
