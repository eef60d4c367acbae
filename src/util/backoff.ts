/**
 * Retry back-off, one helper for the runtime's step retries, the model clients' HTTP
 * retries and lint's worst-case wait: the delay grows from `initialMs` (doubling per retry,
 * or fixed) up to a cap, and "equal jitter" spreads it over its upper half so parallel
 * retries do not fire in lockstep while a delay never collapses to zero.
 */
import type { RetryPolicy } from "../ir.js";

export interface Backoff {
  /** The delay before the first retry. */
  initialMs: number;
  /** `exponential` (default) doubles the delay per retry; `fixed` keeps it. */
  growth?: "exponential" | "fixed";
  /** The cap; 0 or absent: none. */
  maxMs?: number;
}

/** The delay before retry `retry` (0-based) without jitter: the longest the jittered delay can be. */
export function backoffCeilingMs(b: Backoff, retry: number): number {
  const base = b.growth === "fixed" ? b.initialMs : b.initialMs * 2 ** retry;
  return b.maxMs ? Math.min(base, b.maxMs) : base;
}

/** Between half and all of the ceiling, uniformly (`random` in [0, 1)). */
export function backoffMs(b: Backoff, retry: number, random: () => number = Math.random): number {
  const ms = backoffCeilingMs(b, retry);
  return ms / 2 + (random() * ms) / 2;
}

/** A step's retry policy as a back-off; undefined when it does not wait between attempts. */
export function retryBackoff(retry: RetryPolicy | undefined): Backoff | undefined {
  return retry && retry.backoff !== "none" ? { initialMs: retry.initialDelayMs, growth: retry.backoff, maxMs: retry.maxDelayMs } : undefined;
}
