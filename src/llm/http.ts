/**
 * One JSON POST with the policies every provider shares: a timeout per attempt, a
 * deadline for the whole call, retries on 408/409/429/5xx with backoff that honours
 * `retry-after-ms`, `retry-after` (up to a minute) and `x-should-retry`, replies with
 * the secrets scrubbed out before anyone reads them, and every attempt in the trace.
 */
import { PlannerError } from "./errors.js";
import { redactHeaders, scrub, scrubValue, type TraceSink } from "./trace.js";
import { backoffMs as jittered } from "../util/backoff.js";

export interface HttpPolicy {
  /** Per attempt. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff delay; doubles per retry. */
  baseDelayMs: number;
  /** The longest wait honoured; a server asking for more is not retried. */
  maxDelayMs: number;
  /** All attempts and waits of one call together. */
  deadlineMs: number;
}

export const DEFAULT_POLICY: HttpPolicy = { timeoutMs: 120_000, maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 60_000, deadlineMs: 300_000 };

/** How requests leave the process and what they must never show. */
export interface Transport {
  /** An undici dispatcher (the proxy agent), handed to fetch. */
  dispatcher?: unknown;
  /** Keys and secret header values: scrubbed from replies, errors and the trace. */
  secrets: readonly string[];
}

export interface HttpReply {
  status: number;
  /** The parsed JSON body, undefined when the body is not JSON. */
  body: unknown;
  /** The raw text, for error messages when the body is not JSON. */
  text: string;
  contentType: string;
  /** The provider's id for the request (x-request-id / request-id), for support tickets. */
  requestId?: string;
  /** Why a failed reply was not retried (further), worded for the end of a message. */
  stopped?: string;
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

/** The wait a reply asks for: `retry-after-ms` (OpenAI) first, then `retry-after`. */
export function askedWaitMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms.trim()));
  return retryAfterMs(headers.get("retry-after"), now);
}

/** The backoff before retry number `retry` (0-based) when the server asks for nothing: exponential with jitter, capped. */
export function backoffMs(policy: HttpPolicy, retry: number): number {
  // Jittered before the cap: once the doubling passes twice the cap, every retry waits the maximum.
  return Math.min(policy.maxDelayMs, jittered({ initialMs: policy.baseDelayMs }, retry));
}

/** The error object of an OpenAI/Anthropic-style body, if any. */
export function errorObject(body: unknown): { message?: unknown; code?: unknown; type?: unknown } | string | undefined {
  const e = (body as { error?: unknown } | undefined)?.error;
  return typeof e === "string" || (e && typeof e === "object") ? (e as { message?: unknown }) : undefined;
}

/** A 429 that waiting will not cure: the account is out of quota or credit. */
function outOfQuota(reply: HttpReply): boolean {
  const e = errorObject(reply.body);
  return reply.status === 429 && typeof e === "object" && (e.code === "insufficient_quota" || e.type === "insufficient_quota");
}

/**
 * Whether to retry `reply`, and after how long: `x-should-retry` decides when present,
 * else 408/409/429/5xx are retried except a 429 out of quota. A wait above the policy's
 * maximum is not honoured by waiting less: the call stops, saying what was asked.
 */
export function retryDecision(reply: HttpReply, headers: Headers, policy: HttpPolicy, retry: number): { waitMs: number } | { stop: string } | undefined {
  const should = headers.get("x-should-retry")?.trim().toLowerCase();
  const status = reply.status;
  const usual = status === 408 || status === 409 || status === 429 || status >= 500;
  if (should === "false") return usual ? { stop: "the server said not to retry (x-should-retry: false)" } : undefined;
  if (should !== "true") {
    if (!usual) return undefined;
    if (outOfQuota(reply)) return { stop: "not retried: waiting does not restore quota" };
  }
  const asked = askedWaitMs(headers);
  if (asked !== undefined && asked > policy.maxDelayMs)
    return { stop: `the server asks to wait ${Math.round(asked / 1000)} s before a retry (more than ${Math.round(policy.maxDelayMs / 1000)} s): try again later` };
  return { waitMs: asked ?? backoffMs(policy, retry) };
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * POSTs `body` as JSON and returns the final reply (any status the caller must judge:
 * 2xx, 4xx, or a failure that was not or no longer retried, with `stopped` saying why).
 * `final` marks replies the caller handles itself (a fallback), which are never retried.
 * Network failures are retried too, then become a PlannerError; a timeout is not
 * retried (a model too slow once is as slow again). An abort of `signal` (a step's)
 * ends the request and the retries at once, rejecting with its reason.
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  policy: HttpPolicy,
  transport: Transport,
  trace: TraceSink,
  tag: TraceTag,
  final: (reply: HttpReply) => boolean = () => false,
  signal?: AbortSignal,
): Promise<HttpReply> {
  const allHeaders = { "content-type": "application/json", ...headers };
  const secrets = transport.secrets;
  const deadline = Date.now() + policy.deadlineMs;
  for (let attempt = 0; ; attempt++) {
    trace.record({ type: "request", ...tag, attempt, url, headers: redactHeaders(allHeaders), body });
    const started = Date.now();
    const budget = Math.max(1, Math.min(policy.timeoutMs, deadline - started));
    let reply: HttpReply;
    let res: Response;
    try {
      const init: RequestInit & { dispatcher?: unknown } = { method: "POST", headers: allHeaders, body: JSON.stringify(body), signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(budget)]) : AbortSignal.timeout(budget) };
      if (transport.dispatcher) init.dispatcher = transport.dispatcher;
      res = await fetch(url, init);
      reply = await readReply(res, secrets);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const failure = networkFailure(err, url, budget, budget < policy.timeoutMs, transport);
      trace.record({ type: "response", ...tag, attempt, error: failure.message, ms: Date.now() - started });
      const wait = backoffMs(policy, attempt);
      if (failure.kind === "timeout" || attempt >= policy.maxRetries || Date.now() + wait >= deadline) throw failure;
      await sleep(wait);
      signal?.throwIfAborted();
      continue;
    }
    trace.record({ type: "response", ...tag, attempt, status: reply.status, ms: Date.now() - started, body: reply.body ?? reply.text.slice(0, 2000) });
    if (reply.status >= 200 && reply.status < 300) return reply;
    if (final(reply)) return reply;
    const decision = retryDecision(reply, res.headers, policy, attempt);
    if (decision === undefined) return reply;
    if ("stop" in decision) return { ...reply, stopped: decision.stop };
    const tries = `${attempt + 1} attempt${attempt ? "s" : ""}`;
    if (attempt >= policy.maxRetries) return { ...reply, stopped: `still failing after ${tries} (--retries ${policy.maxRetries})` };
    if (Date.now() + decision.waitMs >= deadline) return { ...reply, stopped: `still failing after ${tries}; the --deadline of ${seconds(policy.deadlineMs)} leaves no time for another` };
    await sleep(decision.waitMs);
    signal?.throwIfAborted();
  }
}

async function readReply(res: Response, secrets: readonly string[]): Promise<HttpReply> {
  const raw = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = raw === "" ? undefined : JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const reply: HttpReply = { status: res.status, body: scrubValue(parsed, secrets), text: scrub(raw, secrets), contentType: res.headers.get("content-type") ?? "" };
  const id = res.headers.get("x-request-id") ?? res.headers.get("request-id");
  if (id) reply.requestId = scrub(id, secrets);
  return reply;
}

/** A fetch that threw: a timeout (the per-attempt one or the deadline) or a network error, worded with the proxy if one was used. */
function networkFailure(err: unknown, url: string, budgetMs: number, byDeadline: boolean, transport: Transport): PlannerError {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError") {
    return byDeadline
      ? new PlannerError("timeout", `no answer from ${url} before the --deadline ran out (${seconds(budgetMs)} left for the last attempt)`)
      : new PlannerError("timeout", `no answer from ${url} within ${seconds(budgetMs)}: a slow (local) model needs a longer --timeout; not retried`);
  }
  const via = (transport.dispatcher as { via?: string } | undefined)?.via;
  const cause = typeof e.cause?.code === "string" ? e.cause.code : (e.cause?.message ?? e.message);
  return new PlannerError("network", scrub(`cannot reach ${url}: ${cause}${via ? ` (proxy setting: ${via})` : ""}`, transport.secrets));
}

/** A short, single-line excerpt of an error body for messages. */
export function errorText(reply: HttpReply): string {
  const b = reply.body as { message?: unknown; detail?: unknown } | undefined;
  const e = errorObject(b);
  const msg = typeof e === "string" ? e : typeof e?.message === "string" ? e.message : typeof b?.message === "string" ? b.message : typeof b?.detail === "string" ? b.detail : reply.text;
  // A second guard behind the scrubbing of known secrets: anything shaped like an API key.
  const one = String(msg)
    .replace(/\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, "[redacted]")
    .replace(/\s+/g, " ")
    .trim();
  return one.length > 200 ? one.slice(0, 197) + "..." : one;
}

/** What a failure message needs to know about the call. */
export interface CallContext {
  url: string;
  model: string;
  keyVar: string;
  /** What to check when the URL does not exist (404 not about the model). */
  notFoundHint: string;
  /** "model" or, on Azure, "deployment". */
  modelWord?: string;
}

/** Turns a final non-2xx reply into the one line a user sees. */
export function httpFailure(reply: HttpReply, ctx: CallContext): PlannerError {
  const why = errorText(reply);
  const id = reply.requestId ? ` (request id ${reply.requestId})` : "";
  const s = reply.status;
  const e = errorObject(reply.body);
  let msg: string;
  if (s === 401 || s === 403) msg = `${ctx.url} refused the API key (${s}): check ${ctx.keyVar}${why ? ` — ${why}` : ""}`;
  else if (s === 404) msg = notFound(reply, ctx, why);
  else if (outOfQuota(reply)) msg = `${ctx.url}: the account is out of quota (429 insufficient_quota): check its plan and billing${why ? ` — ${why}` : ""}`;
  else msg = `${ctx.url} answered ${s}${why ? `: ${why}` : ""}`;
  if (typeof e === "object" && e.code === "unsupported_parameter") msg += " (a parameter planspec sends is not supported by this model or server)";
  const stopped = reply.stopped ? `; ${reply.stopped}` : "";
  return new PlannerError(s === 401 || s === 403 ? "auth" : s === 404 ? "not-found" : "http", `${msg}${stopped}${id}`, s);
}

/** A 404 names the model only when the server's answer is about the model; otherwise it is the URL, with the client's hint. */
function notFound(reply: HttpReply, ctx: CallContext, why: string): string {
  const word = ctx.modelWord ?? "model";
  if (/model|deployment/i.test(why)) return `${word} "${ctx.model}" not found at ${ctx.url} (404)${why ? ` — ${why}` : ""}`;
  return `${ctx.url} does not exist (404): ${ctx.notFoundHint}`;
}

/**
 * A 2xx that is not a reply: an `{error}` body (OpenRouter sends errors with 200), an
 * HTML page (a web UI or login page at the base URL), an event stream (a gateway that
 * forces streaming) or any other non-JSON body. Undefined when the body is JSON.
 */
export function notAReply(reply: HttpReply, url: string): PlannerError | undefined {
  const id = reply.requestId ? ` (request id ${reply.requestId})` : "";
  const head = reply.text.trimStart().slice(0, 200).toLowerCase();
  if (reply.body !== undefined && typeof reply.body === "object") {
    const e = errorObject(reply.body);
    const b = reply.body as Record<string, unknown>;
    if (e === undefined || "choices" in b || "content" in b) return undefined;
    const code = typeof e === "object" && (typeof e.code === "number" || typeof e.code === "string") ? ` (code ${e.code})` : "";
    return new PlannerError("http", `${url} answered ${reply.status} with an error: ${errorText(reply)}${code}${id}`, reply.status);
  }
  if (/text\/html/i.test(reply.contentType) || head.startsWith("<!doctype html") || head.startsWith("<html"))
    return new PlannerError("bad-response", `${url} answered with an HTML page, not the API's JSON: --base-url must be the API root (e.g. http://localhost:11434/v1), not a web page${id}`);
  if (/text\/event-stream/i.test(reply.contentType) || /^(data|event):/.test(head))
    return new PlannerError("bad-response", `${url} answered with an event stream (SSE), not one JSON reply: the server or a gateway forces streaming; turn that off for this client${id}`);
  if (reply.body === undefined) return new PlannerError("bad-response", `${url} answered ${reply.status} with a body that is not JSON: ${errorText(reply) || "(empty)"}${id}`);
  return undefined;
}
