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

/** Headers with every credential replaced by "[redacted]". */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? "[redacted]" : v;
  return out;
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
    let line = JSON.stringify({ ...event, at: new Date().toISOString() });
    for (const s of this.secrets) if (s.length >= 4) line = line.split(s).join("[redacted]");
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
