/**
 * The run directory's state journal (`journal.jsonl`): the transitions written since the
 * last snapshot (`state.json`). A step's transition costs one small append and one
 * `fdatasync` instead of a rewrite of the whole state, so a write is O(changed nodes)
 * and the bytes written per step stay flat however long the plan.
 *
 * A record is one line: the JSON of `{ v, h, n, i? }` — the state version it produces,
 * the state's head (everything but `nodes` and `inputs`), the nodes that changed, and
 * the inputs when they changed — then a space and the sha256 of that JSON. Records
 * follow the snapshot's `stateVersion` one by one; a record at or below it is left
 * over from a crash between a snapshot and the journal's truncation and is skipped.
 *
 * A record after the first one of its writer may carry a head delta instead:
 * `{ v, d, p, n, i? }`, `d` the head fields whose JSON changed since the record before
 * (`null` for a field removed; `stateVersion` is `v`), `p` the first 16 hex digits of
 * that record's checksum. Most of a record was its head (about 480 of 820 bytes); a
 * step changes only `updatedAt` and `budget`. The chain keeps the plan check as strong
 * as a full head in every record: the first record applied must carry a full head (of
 * the run's plan), and each delta names the record it follows, so a delta cut from
 * another journal is refused. A delta never changes what names the run and its plan
 * (`IDENTITY`): a revision writes a full head. An older planspec, which knows only `h`,
 * refuses a journal with deltas ("not a state record") rather than misreading it.
 *
 * A torn last line (a crash mid-append: no newline, or a checksum that does not match)
 * never reached `fdatasync`, so no tool ran after it: it is dropped. A bad line anywhere
 * else, a gap in the versions or a record of another plan is damage or an edit, and the
 * run is refused like an edited state.json.
 */
import { existsSync } from "node:fs";
import { sha256Hex } from "./atomic.js";
import { readOwnFile } from "./own-files.js";
import { IntegrityError } from "./store.js";

export const JOURNAL_FILE = "journal.jsonl";

/** What one record carries: a full head `h`, or a delta `d` on the head of the record `p` names. */
export interface JournalRecord {
  v: number;
  h?: Record<string, unknown>;
  d?: Record<string, unknown>;
  p?: string;
  n: Record<string, unknown>;
  i?: Record<string, unknown>;
}

/** Head fields that name the run and its plan: a delta never changes them. */
export const IDENTITY = ["schemaVersion", "runId", "planHash", "revision", "createdAt"] as const;

/** How much of the previous record's checksum a delta names (`p`). */
export const LINK_LEN = 16;

/** The keys a record may have; any other is a format this reader does not know. */
const RECORD_KEYS = new Set(["v", "h", "d", "p", "n", "i"]);

/** The journal's valid records and the byte length they end at (what a writer keeps). */
export interface JournalTail {
  records: JournalRecord[];
  validBytes: number;
  /** Bytes after `validBytes`: a torn last record. */
  tornBytes: number;
}

const HASH_LEN = 64;

/** A checksummed line: the JSON, a space, its sha256. */
export function checksummedLine(json: string): string {
  return `${json} ${sha256Hex(json)}\n`;
}

/**
 * The head part of a record: `"h":{...}` (full), or `"d":{...},"p":"<link>"` (a delta on
 * the record whose checksum starts with `link`).
 */
export type HeadPart = { full: Record<string, unknown> } | { delta: Record<string, unknown>; link: string };

/**
 * One record's line. `nodesJson` is the inside of the `n` object (`"id":{...},...`),
 * already serialised by the caller, which keeps the same fragments for the snapshot.
 */
export function encodeRecord(v: number, head: HeadPart, nodesJson: string, inputsJson?: string): string {
  const headJson = "full" in head ? `"h":${JSON.stringify(head.full)}` : `"d":${JSON.stringify(head.delta)},"p":"${head.link}"`;
  return checksummedLine(`{"v":${v},${headJson},"n":{${nodesJson}}${inputsJson !== undefined ? `,"i":${inputsJson}` : ""}}`);
}

/** The link a delta after `line` (a record's line as `encodeRecord` made it) names. */
export function linkOf(line: string): string {
  const end = line.endsWith("\n") ? line.length - 1 : line.length;
  return line.slice(end - HASH_LEN, end - HASH_LEN + LINK_LEN);
}

/** The values of a file of checksummed lines, and where the valid ones end. */
export interface ChecksummedLines {
  values: unknown[];
  /** Each value's checksum (its line's last 64 characters). */
  hashes: string[];
  validBytes: number;
  /** Bytes of a torn last line (a crash mid-append), dropped. */
  tornBytes: number;
}

/**
 * Reads a file of checksummed lines. Only the last line may be torn (no newline, or a
 * checksum that does not match): it is dropped. A bad line before it is an
 * `IntegrityError` naming the file and line.
 *
 * Empty lines are the room a writer laid ahead of its records (`padJournal` in
 * file-store.ts: newlines, so every line-by-line reader skips them). A record written
 * into that room and never synced may be torn in pieces (after power loss its pages can
 * land in any order), so the tail is torn from the first bad or empty line on, provided
 * no good line follows it and its pieces are those of one record (`oneRecordTorn`).
 */
export function readChecksummedLines(file: string): ChecksummedLines {
  if (!existsSync(file)) return { values: [], hashes: [], validBytes: 0, tornBytes: 0 };
  return checksummedLinesOf(readWhole(file), file);
}

/**
 * The checksummed lines of `buf`, the part of `file` from byte `origin` on (a tail read
 * from a record's end): a torn record's pieces align to the file's sectors, not the
 * buffer's. Offsets returned are the buffer's.
 */
export function checksummedLinesOf(buf: Buffer, file: string, origin = 0): ChecksummedLines {
  const values: unknown[] = [];
  const hashes: string[] = [];
  let start = 0;
  for (let line = 1; start < buf.length; line++) {
    const nl = buf.indexOf(10, start);
    const end = nl === -1 ? buf.length : nl;
    const value = end === start ? undefined : decodeAt(buf, start, end);
    if (value === undefined) {
      if (nl === -1 || !goodLineAfter(buf, nl + 1)) {
        if (oneRecordTorn(buf, start, origin)) return { values, hashes, validBytes: start, tornBytes: contentEnd(buf, start) - start };
        throw damaged(file, line, "lines after it that no single torn record explains");
      }
      throw damaged(file, line, end === start ? "an empty line before a record" : "its checksum does not match");
    }
    if (value === NOT_JSON) throw damaged(file, line, "its checksum matches but it is not JSON");
    values.push(value);
    hashes.push(buf.toString("latin1", end - HASH_LEN, end));
    // Complete and checksummed, only its newline is missing: the line was written whole.
    if (nl === -1) return { values, hashes, validBytes: start, tornBytes: buf.length - start };
    start = nl + 1;
  }
  return { values, hashes, validBytes: buf.length, tornBytes: 0 };
}

/** The file's bytes; one too large to read (over 2 GiB: no planspec writes one, it compacts first) is damage, not an internal error. */
function readWhole(file: string): Buffer {
  try {
    return readOwnFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ERR_FS_FILE_TOO_LARGE") throw err;
    throw new IntegrityError(`${file} is damaged or was edited outside planspec (larger than planspec ever writes one); restore it, or start a new run`);
  }
}

/** Whether a line from `from` on decodes: a good record after a bad one is damage, not a torn tail. */
function goodLineAfter(buf: Buffer, from: number): boolean {
  for (let start = from; start < buf.length; ) {
    if (buf[start] === 10) {
      start = skipNewlines(buf, start, buf.length);
      continue;
    }
    const nl = buf.indexOf(10, start);
    const end = nl === -1 ? buf.length : nl;
    if (end > start && decodeAt(buf, start, end) !== undefined) return true;
    if (nl === -1) return false;
    start = nl + 1;
  }
  return false;
}

/** The smallest unit a disk writes whole: the pieces of a record torn by power loss begin and end on it. */
const SECTOR = 512;

/**
 * Whether the bytes from `from` on can be one record torn in the room: its prefix (a crash
 * mid-write), or after power loss the pieces of it that landed, separated by room that
 * stayed newlines. Every piece but the first begins on a sector and every piece but the
 * last ends on one (where a sector that did not land begins). Several lines ending
 * anywhere (edited records, a file that is no journal) are not a torn tail: dropping them
 * would silently lose records, or truncate a file planted in the journal's place.
 */
function oneRecordTorn(buf: Buffer, from: number, origin: number): boolean {
  const end = contentEnd(buf, from);
  let pieces = 0;
  for (let at = from; at < end; ) {
    if (buf[at] === 10) {
      at = skipNewlines(buf, at, end);
      continue;
    }
    const nl = buf.indexOf(10, at);
    const stop = nl === -1 || nl > end ? end : nl;
    if ((pieces > 0 || at !== from) && (origin + at) % SECTOR !== 0) return false;
    if (stop < end && (origin + stop) % SECTOR !== 0) return false;
    pieces++;
    at = stop;
  }
  return true;
}

/** Where the bytes from `from` on end, not counting the newlines laid ahead (what a torn tail holds). */
function contentEnd(buf: Buffer, from: number): number {
  let end = buf.length;
  while (end > from && buf[end - 1] === 10) {
    const n = Math.min(NEWLINE_RUN.length, end - from);
    if (buf.compare(NEWLINE_RUN, 0, n, end - n, end) === 0) {
      end -= n;
      continue;
    }
    for (const stop = end - n; end > stop && buf[end - 1] === 10; ) end--;
  }
  return end;
}

/**
 * Newlines compared a run at a time (memcmp), not byte by byte: a journal with a gigabyte
 * of room (crafted; a writer lays at most the compaction size) is skipped in well under
 * a second instead of many. Each byte is looked at no more than twice.
 */
const NEWLINE_RUN = Buffer.alloc(64 * 1024, 10);

/** Where the newlines from `at` on end (at most at `end`). */
function skipNewlines(buf: Buffer, at: number, end: number): number {
  while (at < end && buf[at] === 10) {
    const n = Math.min(NEWLINE_RUN.length, end - at);
    if (buf.compare(NEWLINE_RUN, 0, n, at, at + n) === 0) {
      at += n;
      continue;
    }
    for (const stop = at + n; at < stop && buf[at] === 10; ) at++;
  }
  return at;
}

export function damaged(file: string, line: number, why: string): IntegrityError {
  return new IntegrityError(`${file} is damaged or was edited outside planspec (line ${line}: ${why}); restore it, or start a new run`);
}

/**
 * Reads the records that follow a snapshot at `snapshotVersion` of plan `planHash`.
 * Throws an `IntegrityError` (naming the file and line) for damage before the tail.
 */
export function readJournal(file: string, snapshotVersion: number, planHash: string): JournalTail {
  const { values, hashes, validBytes, tornBytes } = readChecksummedLines(file);
  return { records: journalRecords(file, values, hashes, { version: snapshotVersion, planHash }), validBytes, tornBytes };
}

/**
 * The records among a journal's checked lines that follow state version `after.version`
 * of plan `after.planHash`; an `IntegrityError` for one that cannot follow it. Records at
 * or below that version are skipped (left over from before a snapshot), unless the lines
 * start right after the record whose checksum is `after.hash` (a tail read from its end):
 * then the first line must be the next version, and a delta must name that record.
 */
export function journalRecords(file: string, values: readonly unknown[], hashes: readonly string[], after: { version: number; planHash: string; hash?: string }): JournalRecord[] {
  const records: JournalRecord[] = [];
  let expected = after.version + 1;
  values.forEach((value, i) => {
    const r = value as JournalRecord;
    const why = recordProblem(r);
    if (why !== undefined) throw damaged(file, i + 1, why);
    // Left over from before the snapshot (a crash between its rename and the journal's truncation).
    if (r.v < expected && after.hash === undefined) return;
    if (r.v !== expected) throw damaged(file, i + 1, `state version ${r.v} follows ${expected - 1}`);
    if (r.h !== undefined) {
      if (r.h.planHash !== after.planHash) throw damaged(file, i + 1, `a record of plan ${String(r.h.planHash).slice(0, 12)}, not of the run's state`);
    } else {
      // A delta applies to the record before it, which must be a record of this state.
      const before = records.length > 0 ? hashes[i - 1] : i === 0 ? after.hash : undefined;
      if (before === undefined) throw damaged(file, i + 1, "a head delta with no full record before it");
      if (r.p !== before.slice(0, LINK_LEN)) throw damaged(file, i + 1, "a head delta that does not follow the record before it");
    }
    records.push(r);
    expected++;
  });
  return records;
}

/** Why a decoded line is not a record this reader knows, if it is not. */
function recordProblem(r: JournalRecord): string | undefined {
  if (r === null || typeof r !== "object" || Array.isArray(r) || typeof r.v !== "number" || !isObject(r.n)) return "not a state record";
  for (const k in r) if (!RECORD_KEYS.has(k)) return `not a state record (unknown key ${JSON.stringify(k)}: a newer planspec's?)`;
  if (r.i !== undefined && !isObject(r.i)) return "not a state record";
  if (r.h !== undefined) return isObject(r.h) && r.d === undefined && r.p === undefined ? undefined : "not a state record";
  if (!isObject(r.d) || typeof r.p !== "string") return "not a state record";
  for (const k of IDENTITY) if (k in r.d) return `a head delta that changes ${k}`;
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The value of the line at `start..end`; none when its checksum does not match, or for a
 * line longer than a string can be (no writer's JSON is: it was one string). The checksum
 * is of the bytes as written, hashed as read: not decoded and encoded again.
 */
function decodeAt(buf: Buffer, start: number, end: number): unknown {
  const json = end - HASH_LEN - 1;
  if (json <= start || buf[json] !== 32) return undefined;
  if (sha256Hex(buf.subarray(start, json)) !== buf.toString("latin1", json + 1, end)) return undefined;
  let text: string;
  try {
    text = buf.toString("utf8", start, json);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_STRING_TOO_LONG") return undefined;
    throw err;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Checksummed, so written whole, and yet no JSON: made by hand, not torn.
    return NOT_JSON;
  }
}

/** What `decodeAt` returns for a line whose checksum matches but which is not JSON. */
const NOT_JSON = Symbol("not JSON");

/** The value of a checksummed line (without its newline); none when the checksum does not match. */
export function decodeLine(text: string): unknown {
  if (text.length <= HASH_LEN + 1 || text[text.length - HASH_LEN - 1] !== " ") return undefined;
  const json = text.slice(0, -HASH_LEN - 1);
  return sha256Hex(json) === text.slice(-HASH_LEN) ? (JSON.parse(json) as unknown) : undefined;
}

/**
 * Applies records to a snapshot document in place of its head, inputs and nodes. Keys
 * keep the snapshot's order, so a replayed state reads like a rewritten one.
 */
export function applyRecords(doc: Record<string, unknown>, records: readonly JournalRecord[]): Record<string, unknown> {
  if (records.length === 0) return doc;
  const nodes = doc.nodes as Record<string, unknown>;
  let inputs = doc.inputs;
  for (const r of records) {
    for (const [id, st] of Object.entries(r.n)) nodes[id] = st;
    if (r.i !== undefined) inputs = r.i;
  }
  const head = headAfter(records);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(doc)) {
    if (k === "nodes") out.nodes = nodes;
    else if (k === "inputs") out.inputs = inputs;
    else if (k in head) out[k] = head[k];
  }
  for (const [k, v] of Object.entries(head)) if (!(k in out)) out[k] = v;
  return out;
}

/**
 * The head after the last record: the last full head with the deltas after it applied
 * (`readJournal` saw to it that one comes first), or `base` (the head of the state the
 * records follow) when none is full. `stateVersion` is the last record's.
 */
export function headAfter(records: readonly JournalRecord[], base?: Record<string, unknown>): Record<string, unknown> {
  let last = records.length - 1;
  while (last >= 0 && records[last]!.h === undefined) last--;
  if (last === records.length - 1 && last >= 0) return records[last]!.h!;
  const head = { ...(last >= 0 ? records[last]!.h! : base!) };
  for (let i = last + 1; i < records.length; i++) {
    for (const [k, v] of Object.entries(records[i]!.d!)) {
      if (v === null) delete head[k];
      else head[k] = v;
    }
  }
  if (records.length > 0) head.stateVersion = records[records.length - 1]!.v;
  return head;
}
