/**
 * The planner trace: one JSON line per request, response and diagnostics round, so a
 * run can be reviewed and replayed. Secrets never reach it: credential headers are
 * redacted before a line is built, and key-shaped strings are masked as a second guard.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";

/** One line of the trace; `type` says which. */
export interface TraceEvent {
  type: "start" | "request" | "response" | "diagnostics" | "result";
  [key: string]: unknown;
}

const SECRET_HEADERS = new Set(["authorization", "x-api-key", "api-key", "proxy-authorization", "cookie"]);
const SECRET_NAME = /auth|key|token|secret|password|passwd|session|cookie|signature|credential/i;
const SECRET_VALUE = /^(bearer|basic|token)\s|^(sk|pk|rk|gsk|xai|ghp|gho|github_pat|hf|glpat|AKIA)[-_]/i;

/** True for a header that carries a credential: by name, by a scheme prefix, or by a long key-like value. */
export function isSecretHeader(name: string, value: string): boolean {
  if (SECRET_HEADERS.has(name.toLowerCase()) || SECRET_NAME.test(name) || SECRET_VALUE.test(value.trim())) return true;
  // 24+ characters of one token with letters and digits and no spaces: what API keys look like, and no URL or title does.
  return /^[A-Za-z0-9_\-.=+/]{24,}$/.test(value) && /[0-9]/.test(value) && /[A-Za-z]/.test(value) && !value.includes("://");
}

/** Headers with every credential replaced by "[redacted]". */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = isSecretHeader(k, v) ? "[redacted]" : v;
  return out;
}

/** The values of the credential headers: strings that must not appear in a trace or an error. */
export function secretValues(headers: Record<string, string>): string[] {
  return Object.entries(headers)
    .filter(([k, v]) => isSecretHeader(k, v))
    .flatMap(([, v]) => [v, v.replace(/^(bearer|basic|token)\s+/i, "")])
    .filter((v) => v.length >= 4);
}

/**
 * Secrets shorter than this are not masked in replies and traces: "test" or "ollama" as
 * the key of a local server would otherwise be cut out of the plans themselves. Error
 * lines mask down to 4 characters (they are only read).
 */
export const MIN_SECRET = 12;

/** `text` with every secret of at least `min` characters replaced by "[redacted]". */
export function scrub(text: string, secrets: readonly string[], min = MIN_SECRET): string {
  let out = text;
  for (const s of secrets) if (s.length >= min) out = out.split(s).join("[redacted]");
  return out;
}

/** A JSON value with every secret in its strings (keys included) replaced. */
export function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (!secrets.length) return value;
  if (typeof value === "string") return scrub(value, secrets);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, secrets));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k, secrets), scrubValue(v, secrets)]));
  return value;
}

/** Where trace events go; `NullTrace` when the caller keeps none. */
export interface TraceSink {
  record(event: TraceEvent): void;
}

/** Appends events to a JSONL file, masking any of the given secrets that slipped into a value. */
export class FileTrace implements TraceSink {
  readonly events: TraceEvent[] = [];

  constructor(
    readonly file: string,
    private readonly secrets: readonly string[] = [],
  ) {
    writeFileSync(file, "");
  }

  record(event: TraceEvent): void {
    const line = scrub(JSON.stringify({ ...event, at: new Date().toISOString() }), this.secrets);
    this.events.push(JSON.parse(line) as TraceEvent);
    appendFileSync(this.file, line + "\n");
  }
}

/** Keeps events in memory (tests, candidates that are not written). */
export class MemoryTrace implements TraceSink {
  readonly events: TraceEvent[] = [];
  record(event: TraceEvent): void {
    this.events.push(event);
  }
}

/** Reads a trace file; throws a plain Error naming the bad line. */
export function readTrace(file: string): TraceEvent[] {
  const text = readFileSync(file, "utf8");
  const out: TraceEvent[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${i + 1}: not a JSON line`);
    }
    if (!v || typeof v !== "object" || typeof (v as TraceEvent).type !== "string") throw new Error(`${file}:${i + 1}: not a trace event`);
    out.push(v as TraceEvent);
  });
  return out;
}
