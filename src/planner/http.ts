/**
 * One JSON POST with the policies both providers share: a timeout per attempt
 * (AbortSignal), retries on 429 and 5xx with exponential backoff that honours
 * `retry-after`, and every attempt in the trace with credentials redacted.
 */
import { PlannerError } from "./errors.js";
import { redactHeaders, type TraceSink } from "./trace.js";

export interface HttpPolicy {
  /** Per attempt. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff delay; doubles per retry. */
  baseDelayMs: number;
  /** Cap on any wait, including a server's `retry-after`. */
  maxDelayMs: number;
}

export const DEFAULT_POLICY: HttpPolicy = { timeoutMs: 120_000, maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 30_000 };

export interface HttpReply {
  status: number;
  body: unknown;
  /** The raw text, for error messages when the body is not JSON. */
  text: string;
}

/** What the trace lines of one call carry besides the HTTP exchange. */
export interface TraceTag {
  round?: number;
  candidate?: number;
  [key: string]: unknown;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds a `retry-after` header asks for (delta-seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before retry number `retry` (0-based): the server's ask if any, else backoff with jitter; capped. */
export function backoffMs(policy: HttpPolicy, retry: number, retryAfter?: number): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, policy.maxDelayMs);
  const exp = policy.baseDelayMs * 2 ** retry;
  // Full jitter halves the chance that parallel clients retry in lockstep.
  return Math.min(policy.maxDelayMs, exp / 2 + Math.random() * (exp / 2));
}

function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * POSTs `body` as JSON and returns the final reply (any status the caller must judge:
 * 2xx, 4xx, or a 429/5xx after the retries ran out). Network failures and timeouts
 * are retried too, then become a PlannerError. An abort of `signal` (a step's) ends
 * the request and the retries at once, rejecting with its reason.
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  policy: HttpPolicy,
  trace: TraceSink,
  tag: TraceTag,
  signal?: AbortSignal,
): Promise<HttpReply> {
  const allHeaders = { "content-type": "application/json", ...headers };
  for (let attempt = 0; ; attempt++) {
    trace.record({ type: "request", ...tag, attempt, url, headers: redactHeaders(allHeaders), body });
    const started = Date.now();
    let reply: HttpReply | undefined;
    let failure: PlannerError | undefined;
    let retryAfter: number | undefined;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: allHeaders,
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(policy.timeoutMs)]) : AbortSignal.timeout(policy.timeoutMs),
      });
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = text === "" ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      reply = { status: res.status, body: parsed, text };
      retryAfter = retryAfterMs(res.headers.get("retry-after"));
      trace.record({ type: "response", ...tag, attempt, status: res.status, ms: Date.now() - started, body: parsed ?? text.slice(0, 2000) });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const e = err as Error & { cause?: { code?: string; message?: string } };
      const timedOut = e.name === "TimeoutError" || e.name === "AbortError";
      failure = timedOut
        ? new PlannerError("timeout", `no answer from ${url} within ${Math.round(policy.timeoutMs / 1000)}s`)
        : new PlannerError("network", `cannot reach ${url}: ${e.cause?.code ?? e.cause?.message ?? e.message}`);
      trace.record({ type: "response", ...tag, attempt, error: failure.message, ms: Date.now() - started });
    }
    const again = failure !== undefined || (reply !== undefined && retryable(reply.status));
    if (!again || attempt >= policy.maxRetries) {
      if (failure) throw failure;
      return reply!;
    }
    await sleep(backoffMs(policy, attempt, retryAfter));
    signal?.throwIfAborted();
  }
}

/** A short, single-line excerpt of an error body for messages. */
export function errorText(reply: HttpReply): string {
  const b = reply.body as { error?: { message?: unknown } | string; message?: unknown } | undefined;
  const msg =
    typeof b?.error === "string" ? b.error : typeof b?.error?.message === "string" ? b.error.message : typeof b?.message === "string" ? b.message : reply.text;
  const one = String(msg).replace(/\s+/g, " ").trim();
  return one.length > 200 ? one.slice(0, 197) + "..." : one;
}

/** Turns a final non-2xx reply into the PlannerError a user sees. */
export function httpFailure(reply: HttpReply, url: string, model: string, keyVar: string): PlannerError {
  const why = errorText(reply);
  if (reply.status === 401 || reply.status === 403)
    return new PlannerError("auth", `${url} refused the API key (${reply.status}): check ${keyVar}${why ? ` — ${why}` : ""}`, reply.status);
  if (reply.status === 404) return new PlannerError("not-found", `model "${model}" or endpoint not found at ${url} (404)${why ? ` — ${why}` : ""}`, 404);
  if (retryable(reply.status)) return new PlannerError("http", `${url} kept failing (${reply.status}) after retries${why ? ` — ${why}` : ""}`, reply.status);
  return new PlannerError("http", `${url} answered ${reply.status}${why ? `: ${why}` : ""}`, reply.status);
}
