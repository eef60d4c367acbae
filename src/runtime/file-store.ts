/**
 * The embedded store: one directory per run (`.planspec/runs/<run-id>/`).
 *
 * Durability policy:
 * - idempotency: a checksummed line appended to `idempotency.jsonl` and fdatasynced per
 *   record, folded into `idempotency.json` at the next full state write.
 * - `plan.ir.json`, `config.json`, revisions: atomic
 *   replace with fsync of file and directory (see atomic.ts).
 * - artifacts: write-once, atomic rename; fsynced only when `durable` is asked (results an
 *   idempotency record points at). A non-durable artifact lost to power loss is caught
 *   by resume's hash check and its step re-runs.
 * - state: `state.json` is a snapshot, `journal.jsonl` the transitions since (journal.ts).
 *   A write with a list of changed nodes is one checksummed record appended and
 *   fdatasynced before the scheduler calls the step's tool; the snapshot is rewritten
 *   atomically (and the journal emptied) on every full write — start, end of a session,
 *   decisions, revisions — and once the journal has grown past the snapshot, so the
 *   bytes written per step stay O(1) amortised. Readers replay snapshot + journal.
 *   Records are written at their offset into room laid ahead as newlines (`padJournal`),
 *   so a record's sync does not also write the file's new size.
 * - `events.jsonl`: appended on an append-mode descriptor, the events since the last write
 *   together in one write(2): before each state write (so the events of a turn are on file
 *   before its record), before a tool is called (`flushEvents`: its call event is on file
 *   however long it runs or if it kills the process), when read, and when the store lets
 *   go; fsynced when the run stops (`syncEvents`). Events survive a process crash up to
 *   the last state write or tool call. After power loss the tail may be lost; readers skip
 *   a torn last line.
 */
import {
  closeSync,
  constants,
  existsSync,
  fdatasyncSync,
  fstatSync,
  lstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  rmSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { PlanIR } from "../ir.js";
import { fileRefHash, inStateRef, inStateText, inStateValue } from "./artifact-ref.js";
import { commitStaged, fsyncDir, sha256Hex, stageFile, writeAll, writeFileAtomic, type StagedFile } from "./atomic.js";
import { openOwnFile, readOwnFile, refuseSharedDir, RUN_DIR_MODE } from "./own-files.js";
import { applyRecords, checksummedLine, encodeRecord, IDENTITY, JOURNAL_FILE, linkOf, readChecksummedLines, readJournal, type HeadPart, type JournalRecord } from "./journal.js";
import { acquireLock, releaseLock } from "./lock.js";
import { encodeOverview, fileIdentity, OVERVIEW_FILE, PLAN_INDEX_FILE, writePlanIndex } from "./overview.js";
import { lazyPlan, planFileText } from "./plan-file.js";
import type { ArtifactRef, IdempotencyRecord, RunConfig, RunEvent, RunState, StatusSummary, Store } from "./store.js";
import { IntegrityError, nowIso } from "./store.js";

/**
 * The first record of another run a directory without `state.json` holds: idempotency
 * records, events, journal records (beyond the blank room a crashed create leaves), stored
 * artifacts or revisions. A new run must not take them as its own: a record planted in a
 * `--run-dir` of a checked-out repository made a write "already done", or handed a forged
 * output to the next step. `plan.ir.json` and `config.json` a crashed create left are
 * overwritten by the next, so they do not count. A link or a FIFO in their place is left
 * to the check where the file is opened, which refuses it.
 */
export function strayRunRecords(dir: string): string | undefined {
  for (const name of ["idempotency.json", IDEMPOTENCY_LOG, "events.jsonl", JOURNAL_FILE]) {
    const st = lstatSync(join(dir, name), { throwIfNoEntry: false });
    // A link or a FIFO is refused where the file is opened (own-files.ts), with its own message.
    if (st === undefined || !st.isFile()) continue;
    if (!blank(join(dir, name), name === JOURNAL_FILE ? "\n" : " \t\r\n")) return name;
  }
  for (const name of ["artifacts", "revisions"]) {
    const st = lstatSync(join(dir, name), { throwIfNoEntry: false });
    if (st !== undefined && (!st.isDirectory() || readdirSync(join(dir, name)).length > 0)) return `${name}/`;
  }
  return undefined;
}

/** Whether a file holds only the given characters, read a page at a time. */
function blank(file: string, chars: string): boolean {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const buf = Buffer.alloc(PAGE);
    const allowed = new Set([...chars].map((c) => c.charCodeAt(0)));
    for (let n; (n = readSync(fd, buf, 0, PAGE, null)) > 0; ) {
      for (let i = 0; i < n; i++) if (!allowed.has(buf[i]!)) return false;
    }
    return true;
  } finally {
    closeSync(fd);
  }
}

/** The checksum ends state.json: `...,"checksum":"<sha256 of the document without it>"}`. */
const CHECKSUM_TAIL = /,"checksum":"([0-9a-f]{64})"\}\s*$/;
/** The bytes of that member as written: `,"checksum":"` 64 hex digits `"}` and a newline. */
const CHECKSUM_MEMBER_BYTES = ',"checksum":"'.length + 64 + '"}\n'.length;

/**
 * The journal is folded into a new snapshot once it is this long and longer than the
 * snapshot: a run of a few hundred steps then writes its state twice (start and end), and
 * a reader replays at most this much on top of a small snapshot.
 */
export const MIN_COMPACT_BYTES = 256 * 1024;

/** The journal grows by whole pages, at most this much room at a time (`padJournal`). */
const PAGE = 4096;
const MAX_PAD = 64 * 1024;
const NEWLINES = Buffer.alloc(PAGE, 10);

/** Characters of event lines held back before they are written whatever comes next. */
const MAX_PENDING_EVENTS = 1 << 16;

/** How often a run in progress has its overview rewritten (overview.ts), at most. */
const OVERVIEW_EVERY_MS = 1000;

/** Idempotency records appended since idempotency.json was last written. */
const IDEMPOTENCY_LOG = "idempotency.jsonl";

/** A run directory's state as its readers see it: the snapshot with the journal replayed. */
export interface RunDirState {
  doc: Record<string, unknown>;
  /** state.json had no checksum (a run directory of an older planspec). */
  legacy: boolean;
  snapshotBytes: number;
  /** Where the journal's valid records end (a writer drops anything after it). */
  journalBytes: number;
  /** Bytes of a torn last record (a crash mid-append), dropped. */
  tornBytes: number;
  /** Records replayed on top of the snapshot. */
  replayed: number;
  /** The snapshot as read (checksummed, its nodes one a line) and the ids the records replayed changed. */
  base?: SnapshotBase;
}

/**
 * A checksummed snapshot with its nodes one per line, as a session read it: the lines of
 * the nodes nothing has changed since are the next snapshot's (`splicedNodes`), not
 * serialised again.
 */
interface SnapshotBase {
  bytes: Buffer;
  /** Where the first node's line starts. */
  start: number;
  /** Ids changed since the snapshot: by the records replayed, then by this session's writes. */
  changed: Set<string>;
}

/**
 * Reads a run directory's state: state.json checked against its checksum (a state
 * edited by hand is refused with an `IntegrityError`), then the journal replayed. Reads
 * nothing but files, so `status` and `runs` may call it beside a live run: a snapshot
 * replaced between the two reads is read again.
 */
export function readRunDirState(dir: string, config?: () => RunConfig): RunDirState {
  const file = join(dir, "state.json");
  for (let tries = 0; ; tries++) {
    const bytes = readOwnFile(file);
    // The checksum is of the bytes before it and a closing brace: hashed as read, not re-encoded.
    const from = Math.max(0, bytes.length - 100);
    const m = CHECKSUM_TAIL.exec(bytes.toString("latin1", from));
    const edited = () => new IntegrityError(`${file} was edited outside planspec (its checksum does not match); restore it, or start a new run`);
    let legacy = false;
    if (m) {
      if (createHash("sha256").update(bytes.subarray(0, from + m.index)).update("}").digest("hex") !== m[1]) throw edited();
    } else {
      // Accepted once from an older planspec; the next write adds the checksum and marks the config.
      const cfg = config ? config() : (JSON.parse(readOwnFile(join(dir, "config.json")).toString("utf8")) as RunConfig);
      if (cfg.stateChecksum) throw edited();
      legacy = true;
    }
    const text = bytes.toString("utf8");
    const doc = JSON.parse(text) as Record<string, unknown>;
    delete doc.checksum;
    try {
      const tail = readJournal(join(dir, JOURNAL_FILE), Number(doc.stateVersion), String(doc.planHash));
      const base = legacy ? undefined : snapshotBase(bytes, tail.records);
      const merged = applyRecords(doc, tail.records);
      return { doc: merged, legacy, snapshotBytes: bytes.length, journalBytes: tail.validBytes, tornBytes: tail.tornBytes, replayed: tail.records.length, ...(base ? { base } : {}) };
    } catch (err) {
      // A writer compacted between our two reads: the journal belongs to a newer snapshot.
      if (err instanceof IntegrityError && tries < 5 && !readOwnFile(file).equals(bytes)) continue;
      throw err;
    }
  }
}

/** The snapshot's layout: the head line, then `"inputs":…,"nodes":{` and a newline, a node a line, `}` on the last. */
const NODES_OPEN = Buffer.from('"nodes":{\n');

/** The snapshot as a base for the next one, when its nodes are one a line; `records` are the journal's, whose nodes have changed since. */
function snapshotBase(bytes: Buffer, records: readonly JournalRecord[]): SnapshotBase | undefined {
  const head = bytes.indexOf(10);
  const second = head < 0 ? -1 : bytes.indexOf(10, head + 1);
  if (second < NODES_OPEN.length || bytes.compare(NODES_OPEN, 0, NODES_OPEN.length, second + 1 - NODES_OPEN.length, second + 1) !== 0) return undefined;
  const changed = new Set<string>();
  for (const r of records) for (const id in r.n) changed.add(id);
  return { bytes, start: second + 1, changed };
}

/**
 * The nodes' part of the next snapshot (`"id":{…}` lines joined by `,\n`), the lines of the
 * nodes not changed since `base` copied from it and the others serialised; undefined when
 * the base's lines are not the state's nodes in order (an id that is an array index, which
 * JavaScript orders first; a line that does not start with its node's id; more or fewer
 * lines than the base's nodes). The base was checksummed: its lines are this writer's.
 */
function splicedNodes(base: SnapshotBase, nodes: Record<string, unknown>): Buffer | undefined {
  const keys = Object.keys(nodes);
  const { bytes, changed } = base;
  const pieces: Buffer[] = [];
  const idOf = (id: string): Buffer => Buffer.from(`${JSON.stringify(id)}:`);
  let at = base.start;
  let run = -1;
  let k = 0;
  for (; k < keys.length && bytes[at] !== 125; k++) {
    const id = keys[k]!;
    if (id.charCodeAt(0) <= 57 && /^(?:0|[1-9][0-9]*)$/.test(id)) return undefined;
    const nl = bytes.indexOf(10, at);
    if (nl < 0) return undefined;
    // A line's content ends before its `,` (the last line has none).
    const end = bytes[nl - 1] === 44 ? nl - 1 : nl;
    if (changed.has(id) || k === 0) {
      const prefix = idOf(id);
      if (bytes.compare(prefix, 0, prefix.length, at, at + prefix.length) !== 0) return undefined;
    }
    if (changed.has(id)) {
      if (run >= 0) pieces.push(bytes.subarray(run, at - 2));
      pieces.push(Buffer.from(`${JSON.stringify(id)}:${JSON.stringify(nodes[id])}`));
      run = -1;
    } else if (run < 0) run = at;
    at = nl + 1;
    if (end === nl && bytes[at] !== 125) return undefined;
  }
  // Every base line was a node of the state, in order (the last without a `,`); the state's nodes after them are new.
  if (bytes[at] !== 125 || bytes[at - 2] === 44) return undefined;
  if (run >= 0) pieces.push(bytes.subarray(run, at - 1));
  for (; k < keys.length; k++) pieces.push(Buffer.from(`${JSON.stringify(keys[k])}:${JSON.stringify(nodes[keys[k]!])}`));
  return joinLines(pieces);
}

const NODE_SEPARATOR = Buffer.from(",\n");

/** Buffers joined by `,\n`. */
function joinLines(pieces: readonly Buffer[]): Buffer {
  const all: Buffer[] = [];
  pieces.forEach((p, i) => {
    if (i > 0) all.push(NODE_SEPARATOR);
    all.push(p);
  });
  return Buffer.concat(all);
}

/**
 * The status summary of a run directory whose last session ended with a snapshot and
 * nothing since (`status` of a finished or paused run), with the run's status; undefined
 * when there is none to trust (a live or crashed run, a decision since, another planspec
 * version). The state's checksum is checked, as for every read; nothing is parsed but
 * the head line, so a 100,000-step run prints at once.
 */
export function readStatusSummary(dir: string, version: string): KeptSummary | undefined {
  const file = join(dir, "state.json");
  const journal = join(dir, JOURNAL_FILE);
  // Records after the snapshot: the summary is older than the state. Looked at before the
  // snapshot is read (a killed or live run's state is then read once, by the full read)
  // and again after it (a writer may have appended in between).
  const recordsAfter = () => existsSync(journal) && statSync(journal).size > 0;
  if (recordsAfter()) return undefined;
  const bytes = readOwnFile(file);
  if (recordsAfter()) return undefined;
  const newline = bytes.indexOf(10);
  const from = Math.max(0, bytes.length - 100);
  const tail = CHECKSUM_TAIL.exec(bytes.subarray(from).toString("latin1"));
  // No head line (an older layout) or no checksum: the full read decides.
  if (newline < 0 || newline === bytes.length - 1 || !tail) return undefined;
  if (createHash("sha256").update(bytes.subarray(0, from + tail.index)).update("}").digest("hex") !== tail[1]) {
    throw new IntegrityError(`${file} was edited outside planspec (its checksum does not match); restore it, or start a new run`);
  }
  let head: { stateVersion?: unknown; status?: unknown; revision?: unknown; planHash?: unknown; gate?: unknown; createdAt?: unknown; updatedAt?: unknown; summary?: StatusSummary };
  try {
    head = JSON.parse(`${bytes.subarray(0, newline).toString("utf8").replace(/,$/, "")}}`) as typeof head;
  } catch {
    return undefined;
  }
  const s = head.summary;
  if (!s || s.stateVersion !== head.stateVersion || s.planspec !== version || typeof s.text !== "string" || typeof head.status !== "string") return undefined;
  // The plan file was touched since (an edit, a restore): the full read checks it.
  if (typeof head.revision !== "number" || s.planFile === undefined || s.planFile !== fileIdentity(join(dir, planFileName(head.revision)))) return undefined;
  return {
    summary: s,
    status: head.status,
    planHash: String(head.planHash),
    stateVersion: Number(head.stateVersion),
    createdAt: String(head.createdAt ?? ""),
    updatedAt: String(head.updatedAt ?? ""),
    ...(typeof head.gate === "string" ? { gate: head.gate } : {}),
  };
}

/** A session's kept status summary and the head fields a reader needs beside it. */
export interface KeptSummary {
  summary: StatusSummary;
  status: string;
  planHash: string;
  stateVersion: number;
  createdAt: string;
  updatedAt: string;
  /** The lint verdict key the run recorded (RunState.gate). */
  gate?: string;
}

/**
 * Makes (or finds) a subdirectory of the run that the store writes files into. Made
 * lazily (artifacts/ at the first output stored as a file, revisions/ at the first
 * revision), so a session may find it made by someone else: a symlink, or anything but
 * a directory, would have the run's files written wherever it points, outside the run.
 */
function ownDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: RUN_DIR_MODE });
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) throw new IntegrityError(`${dir} is not a directory of the run (${st.isSymbolicLink() ? "a symlink" : "another kind of file"}): planspec writes nothing through it; remove it, or start a new run`);
}

/** A run's plan file for a revision, relative to the run directory. */
function planFileName(revision: number): string {
  return revision === 0 ? "plan.ir.json" : join("revisions", `${revision}.ir.json`);
}

/**
 * Removes a cache of the run directory (the overview and its plan index). Anything planted
 * in its place that cannot be removed (a directory) is left: no reader believes it, and a
 * cache must never fail the run.
 */
function discard(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Left as it is.
  }
}

export class FileStore implements Store {
  readonly location: string;
  /** Each node's JSON as last written (`"id":{...}`), when complete: a compaction joins them. */
  private readonly fragments = new Map<string, string>();
  /**
   * `fragments` holds every node (a full write built it). A resumed session starts with a
   * record of what resume's checks changed, not a full write, so it has none: its closing
   * snapshot serialises the nodes in one call.
   */
  private fragmentsComplete = false;
  private dirFd: number | undefined;
  private eventsFd: number | undefined;
  private seq = -1;
  /** Event lines appended since the last write to events.jsonl. */
  private pendingEvents = "";
  private idem: Record<string, IdempotencyRecord> | undefined;
  private readonly knownArtifacts = new Set<string>();
  private readonly planDigests = new Map<number, string>();
  /** Plan files as this store wrote or read them (`fileIdentity`), by revision. */
  private readonly planIdentities = new Map<number, string>();
  private artifactsDirReady = false;
  /** The run directory was synced after artifacts/ was made or found, this session. */
  private artifactsDirSynced = false;
  /** Every artifact in the directory was written by this store (a run it created): an unknown hash has no file yet. */
  private artifactsComplete = false;
  /** The state read had no checksum (a run directory of an older planspec): mark the config once a checksummed state is written. */
  private legacyState = false;
  private journalFd: number | undefined;
  /** The journal file's size: its records and the room laid ahead of them (`padJournal`). */
  private journalSize = 0;
  /** Bytes of valid records in the journal, when known (after a read or a snapshot by this store). */
  private journalBytes: number | undefined;
  private snapshotBytes = 0;
  /** The snapshot this session read, while its lines can make the closing one (`splicedNodes`). */
  private base: SnapshotBase | undefined;
  /** The inputs as last written (snapshot or record): a record carries them only when they change. */
  private inputsJson: string | undefined;
  /**
   * The head of the last record this store appended (each field's JSON) and the link a
   * delta after it names; none after a snapshot or before the first record, whose record
   * then carries the full head.
   */
  private lastHead: { fields: Map<string, string>; link: string } | undefined;
  private idemFd: number | undefined;
  private idemLogBytes = 0;
  /** The plan and config of a run being created, synced and waiting for the state's rename (`create`). */
  private creating: StagedFile[] | undefined;
  /** Each revision's step order, as this store wrote or read its plan: the overview's marks follow it. */
  private readonly orders = new Map<number, readonly string[]>();
  /**
   * The overview (overview.ts) is written at the next record: a compaction removed it.
   * Not at a session's start: a resumed session's journal goes on from the records the
   * last overview names, so it still holds (with a longer tail) until the first refresh,
   * a second after the session's first record; a session shorter than that (a resume of
   * a few steps) pays nothing.
   */
  private overviewDue = false;
  /** When the overview was last written, or the session's first record, and what writing it cost (ms, `performance.now`). */
  private overviewAt: number | undefined;
  private overviewCost = 0;
  /** The overview's index of a plan file, as this store made it (`planIndexFor`). */
  private planIndex: { revision: number; file: string; index: string } | undefined;

  constructor(
    readonly dir: string,
    readonly runId: string,
  ) {
    this.location = dir;
  }

  private path(name: string): string {
    return join(this.dir, name);
  }

  async exists(): Promise<boolean> {
    return existsSync(this.path("state.json"));
  }

  async create(plan: PlanIR, config: RunConfig, state: RunState): Promise<void> {
    if (existsSync(this.path("state.json"))) throw new Error(`run ${this.runId} already exists at ${this.dir}`);
    // artifacts/ is made at the first output too long for the state (`ensureArtifactsDir`):
    // a run of small outputs never needs it.
    this.artifactsComplete = true;
    const planText = planFileText(plan);
    state.planDigest = sha256Hex(planText);
    // The run exists (state.json) only once plan and config are synced and named: the three
    // are synced at once, then state.json is renamed into place by the state's write and
    // all three named durably by one directory sync (`replaceState`). Until then no reader
    // opens plan or config (every reader starts from state.json), so they are written in
    // place: a crash before the rename leaves no run, and the next create overwrites them.
    this.creating = [stageFile(this.path("plan.ir.json"), planText, true), stageFile(this.path("config.json"), JSON.stringify({ ...config, stateChecksum: true }, null, 2), true)];
    try {
      // Named by that same directory sync: a record synced into the journal later must not
      // lose its file's name to a power loss.
      this.openJournal();
      await this.writeState(state);
    } finally {
      for (const f of this.creating ?? []) void f.synced.then(() => rmSync(f.tmp, { force: true }));
      this.creating = undefined;
    }
    this.remember(0, this.path("plan.ir.json"));
    this.orders.set(0, plan.order);
  }

  /**
   * A revision's plan. `lazyNodes`: each node parsed when first looked at (for readers such
   * as `status` that look at a few; plan-file.ts), where the file has the layout for it.
   */
  async readPlan(revision: number, opts?: { lazyNodes?: boolean }): Promise<PlanIR> {
    const file = this.path(planFileName(revision));
    const before = fileIdentity(file);
    const bytes = readOwnFile(file);
    this.planDigests.set(revision, sha256Hex(bytes));
    // The identity of the bytes read: unknown if the file changed while it was read.
    if (before !== undefined && before === fileIdentity(file)) this.planIdentities.set(revision, before);
    else this.planIdentities.delete(revision);
    const text = bytes.toString("utf8");
    const plan = (opts?.lazyNodes === true ? lazyPlan(text) : undefined) ?? (JSON.parse(text) as PlanIR);
    if (Array.isArray(plan.order)) this.orders.set(revision, plan.order);
    return plan;
  }

  /** Where a revision's plan file and the overview's index of it (overview.ts) are. */
  planPaths(revision: number): { plan: string; index: string } {
    return { plan: this.path(planFileName(revision)), index: this.path(PLAN_INDEX_FILE) };
  }

  /**
   * The plan file's identity, if it is still the file this store wrote or read (and its
   * reader checked): a file edited since — during the session, say — gets none, so no
   * kept summary vouches for it.
   */
  private checkedPlanIdentity(revision: number): string | undefined {
    const now = fileIdentity(this.path(planFileName(revision)));
    return now !== undefined && now === this.planIdentities.get(revision) ? now : undefined;
  }

  /** Notes the identity of a plan file this store has just written. */
  private remember(revision: number, file: string): void {
    const id = fileIdentity(file);
    if (id !== undefined) this.planIdentities.set(revision, id);
  }

  /** The sha256 of a plan file's bytes as `readPlan` last read them (state.planDigest). */
  planDigest(revision: number): string | undefined {
    return this.planDigests.get(revision);
  }

  async readConfig(): Promise<RunConfig> {
    return JSON.parse(readOwnFile(this.path("config.json")).toString("utf8")) as RunConfig;
  }

  /** The state: snapshot + journal, checked (checksums, versions, plan hash); an edit is an `IntegrityError`. */
  async readStateRaw(): Promise<unknown> {
    let config: RunConfig | undefined;
    const r = readRunDirState(this.dir, () => (config ??= JSON.parse(readOwnFile(this.path("config.json")).toString("utf8")) as RunConfig));
    this.legacyState = r.legacy;
    this.snapshotBytes = r.snapshotBytes;
    this.base = r.base;
    // A writer's own count stays authoritative; before it writes, the read tells where to append.
    if (this.journalFd === undefined) this.journalBytes = r.journalBytes;
    return r.doc;
  }

  /**
   * Temp files left by a process killed mid-write are garbage: the rename never happened.
   * Removed only by the lock holder: a reader must never touch a live writer's files.
   */
  private removeTempFiles(): void {
    for (const dir of [this.dir, this.path("artifacts")]) {
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir)) {
        if (name.startsWith(".") && name.endsWith(".tmp")) unlinkSync(join(dir, name));
      }
    }
  }

  async writeState(state: RunState, dirty?: Iterable<string>, opts?: { snapshot?: boolean }): Promise<void> {
    this.flushEvents();
    if (opts?.snapshot === true) {
      // The session ends: a finished run's kept summary needs no index of its plan (a next session makes one).
      discard(this.path(PLAN_INDEX_FILE));
      this.planIndex = undefined;
    }
    state.stateVersion++;
    state.updatedAt = nowIso();
    const ids = dirty === undefined ? undefined : [...dirty];
    // A node that left the state (a revision) needs a snapshot: a record cannot remove one.
    if (ids === undefined || ids.some((id) => state.nodes[id] === undefined)) return this.writeFull(state);
    if (this.base !== undefined) for (const id of ids) this.base.changed.add(id);
    // Only changed nodes are re-serialised; their fragments make the journal record and,
    // joined with the others, the next snapshot.
    const changed = ids.map((id) => {
      const fragment = `${JSON.stringify(id)}:${JSON.stringify(state.nodes[id])}`;
      if (this.fragmentsComplete) this.fragments.set(id, fragment);
      return fragment;
    });
    // A record never carries the status summary: only the session's last snapshot does.
    const { nodes: _nodes, inputs, summary: _summary, ...head } = state;
    const inputsJson = JSON.stringify(inputs);
    if (opts?.snapshot === true || this.legacyState || this.journalBytes === undefined || this.journalBytes >= Math.max(this.snapshotBytes, MIN_COMPACT_BYTES)) {
      if (this.fragmentsComplete) return this.writeSnapshot(state, inputsJson);
      // The session's last snapshot: the lines of the nodes unchanged since the snapshot read
      // copied from it, the others serialised (nothing reuses fragments after it). A
      // compaction mid-session builds fragments for the next one.
      if (opts?.snapshot === true) {
        const spliced = this.base === undefined ? undefined : splicedNodes(this.base, state.nodes);
        return this.writeSnapshot(state, inputsJson, spliced ?? Object.entries(state.nodes).map(([id, node]) => `${JSON.stringify(id)}:${JSON.stringify(node)}`).join(",\n"));
      }
      return this.writeFull(state);
    }
    const { part, fields } = this.headPart(head);
    const line = encodeRecord(state.stateVersion, part, changed.join(","), inputsJson !== this.inputsJson ? inputsJson : undefined);
    const record = Buffer.from(line);
    const fd = this.openJournal();
    this.padJournal(fd, this.journalBytes + record.length);
    writeAll(fd, record, this.journalBytes);
    // Before the scheduler calls the tools this write marked running.
    fdatasyncSync(fd);
    this.journalBytes += record.length;
    this.journalSize = Math.max(this.journalSize, this.journalBytes);
    this.inputsJson = inputsJson;
    this.lastHead = { fields, link: linkOf(line) };
    this.writeOverview(state, line, record.length);
  }

  /**
   * The identities of the revision's plan file (as this store wrote or checked it) and of
   * the overview's index of it, made once a session (or again when either file changed).
   */
  private planIndexFor(revision: number): { file: string; index: string } | undefined {
    const file = this.checkedPlanIdentity(revision);
    if (file === undefined) return undefined;
    const paths = this.planPaths(revision);
    const made = this.planIndex;
    if (made?.revision === revision && made.file === file && fileIdentity(paths.index) === made.index) return made;
    const index = writePlanIndex(paths.plan, paths.index, file);
    this.planIndex = index === undefined ? undefined : { revision, file, index };
    return this.planIndex;
  }

  /**
   * Rewrites the overview (overview.ts) after the record just appended (`line`, `length`
   * bytes), if it is due: at the first record after a compaction, then once a second
   * from the session's first record, or less often when making it costs more than a
   * twentieth of that (a plan of a million steps). Not synced: it is a cache that a reader
   * checks against the journal, and one that cannot be written (a full disk, a directory
   * planted in its place) leaves `status` the whole read, never fails the run.
   */
  private writeOverview(state: RunState, line: string, length: number): void {
    const t0 = performance.now();
    // A session's clock starts at its first record: reading a long run's state takes a second or more.
    this.overviewAt ??= t0;
    if (!this.overviewDue && t0 - this.overviewAt < Math.max(OVERVIEW_EVERY_MS, 20 * this.overviewCost)) return;
    const order = this.orders.get(state.revision);
    const snapshot = fileIdentity(this.path("state.json"));
    if (order === undefined || snapshot === undefined) return;
    try {
      const journal = String(fstatSync(this.openJournal(), { bigint: true }).ino);
      const at = { recordAt: this.journalBytes! - length, journalBytes: this.journalBytes!, record: line.slice(-65, -1), snapshot, journal, plan: this.planIndexFor(state.revision) };
      writeFileAtomic(this.path(OVERVIEW_FILE), encodeOverview(state, order, at), false);
    } catch {
      // Tried again at the next refresh.
    }
    this.overviewDue = false;
    this.overviewAt = performance.now();
    this.overviewCost = this.overviewAt - t0;
  }

  /**
   * A record's head: the fields changed since this store's last record (a step changes
   * `updatedAt` and `budget`), or the full head for the first record after a snapshot,
   * the first of a session, and one that changes what names the run or its plan.
   */
  private headPart(head: Record<string, unknown>): { part: HeadPart; fields: Map<string, string> } {
    const fields = new Map<string, string>();
    for (const [k, v] of Object.entries(head)) if (k !== "stateVersion" && v !== undefined) fields.set(k, JSON.stringify(v));
    const last = this.lastHead;
    if (last === undefined || IDENTITY.some((k) => fields.get(k) !== last.fields.get(k))) return { part: { full: head }, fields };
    const delta: Record<string, unknown> = {};
    for (const [k, json] of fields) if (last.fields.get(k) !== json) delta[k] = head[k];
    for (const k of last.fields.keys()) if (!fields.has(k)) delta[k] = null;
    return { part: { delta, link: last.link }, fields };
  }

  /** A write after which the fragment cache must be rebuilt from the whole state. */
  private async writeFull(state: RunState): Promise<void> {
    this.fragments.clear();
    for (const [id, node] of Object.entries(state.nodes)) this.fragments.set(id, `${JSON.stringify(id)}:${JSON.stringify(node)}`);
    this.fragmentsComplete = true;
    return this.writeSnapshot(state, JSON.stringify(state.inputs));
  }

  /** Rewrites state.json atomically, then empties the journal (its records are at or below the snapshot now). */
  private async writeSnapshot(state: RunState, inputsJson: string, nodesJson: string | Buffer = [...this.fragments.values()].join(",\n")): Promise<void> {
    const created = this.creating !== undefined;
    const { nodes: _nodes, inputs: _inputs, summary, ...head } = state;
    // A summary of an earlier version (a write since: a decision, a revision) is dropped;
    // a kept one names the plan file it was made with (any change to that file changes its ctime).
    const kept = summary?.stateVersion === state.stateVersion ? { ...summary, planFile: this.checkedPlanIdentity(state.revision) } : undefined;
    const headJson = JSON.stringify(kept ? { ...head, summary: kept } : head);
    // The snapshot's key order: the head, inputs before nodes (as the state object has
    // them). The head ends the first line (JSON strings hold no raw newline), so
    // `status` can read it alone (readStatusSummary).
    // The nodes one a line (`"nodes":{` and a newline, then `"id":{…}` lines joined by `,` and a
    // newline, then `}` on a line of its own): the next session copies the lines it did not change.
    // Encoded once: the checksum is of these bytes and a closing brace, and they are what is written.
    // One buffer with room for the checksum member: a 21 MB state is encoded once and not copied again.
    const lines = nodesJson.length > 0;
    const before = `${headJson.slice(0, -1)},\n"inputs":${inputsJson},"nodes":{${lines ? "\n" : ""}`;
    const after = lines ? "\n}" : "}";
    const text = typeof nodesJson === "string" ? before + nodesJson + after : undefined;
    // Room for the longest encoding (3 bytes per UTF-16 unit) instead of a pass to count
    // the bytes first: the pages past the end are never touched.
    const room = Buffer.allocUnsafe((text ?? before + after).length * 3 + (typeof nodesJson === "string" ? 0 : nodesJson.length) + CHECKSUM_MEMBER_BYTES);
    let length: number;
    if (text !== undefined) length = room.write(text, 0, "utf8");
    else {
      length = room.write(before, 0, "utf8");
      length += (nodesJson as Buffer).copy(room, length);
      length += room.write(after, length, "utf8");
    }
    const bytes = room.subarray(0, length + CHECKSUM_MEMBER_BYTES);
    const checksum = createHash("sha256").update(bytes.subarray(0, length)).update("}").digest("hex");
    bytes.write(`,"checksum":"${checksum}"}\n`, length, "latin1");
    await this.replaceState(bytes);
    this.snapshotBytes = bytes.length;
    // A base for a closing snapshot later in the session, if the fragments are not kept (a closing one has ended it).
    this.base = undefined;
    this.inputsJson = inputsJson;
    // The journal is emptied: its next record carries the full head.
    this.lastHead = undefined;
    if (this.journalBytes !== 0 || existsSync(this.path(JOURNAL_FILE))) {
      ftruncateSync(this.openJournal(), 0);
      this.journalSize = 0;
    }
    this.journalBytes = 0;
    // The overview was of the journal just emptied: a reader would not believe it (another
    // snapshot), and a finished run's kept summary answers without it. A compaction
    // mid-run has the next record write a new one; a new run's first comes a second in.
    discard(this.path(OVERVIEW_FILE));
    this.overviewDue = !created;
    this.foldIdempotency();
    if (this.legacyState) {
      writeFileAtomic(this.path("config.json"), JSON.stringify({ ...(await this.readConfig()), stateChecksum: true }, null, 2), true);
      this.legacyState = false;
    }
  }

  /** Replaces state.json atomically and durably; at creation, with the plan and config staged before it. */
  private async replaceState(text: string | Uint8Array): Promise<void> {
    if (this.dirFd === undefined) this.dirFd = openSync(this.dir, "r");
    const staged = this.creating;
    if (staged === undefined) return writeFileAtomic(this.path("state.json"), text, true, this.dirFd);
    this.creating = undefined;
    await commitStaged([...staged, stageFile(this.path("state.json"), text)], this.dirFd);
  }

  /**
   * The journal, open for appending. Anything after the valid records (a torn record
   * of a crashed writer) is cut first, or the next record would be glued to it.
   */
  private openJournal(): number {
    if (this.journalFd !== undefined) return this.journalFd;
    // Not in append mode: records are written at `journalBytes`, into the room laid ahead (padJournal).
    const fd = openOwnFile(this.path(JOURNAL_FILE), constants.O_WRONLY | constants.O_CREAT);
    this.journalSize = fstatSync(fd).size;
    if (this.journalBytes !== undefined && this.journalSize > this.journalBytes) {
      ftruncateSync(fd, this.journalBytes);
      this.journalSize = this.journalBytes;
    }
    this.journalFd = fd;
    return fd;
  }

  /**
   * Lays room ahead of the journal's records, as newlines (empty lines, which readers
   * skip), so that most records are written inside the file instead of growing it: the
   * record's fdatasync then writes its page alone, not the inode's new size as well (on
   * this ext4, 0.15 instead of 0.24 ms). A journal's first page gets none (a short
   * session writes no more than it did); past it the room grows with the journal (at most
   * 64 KiB at a time, synced with the record that needed it) and never past the size that
   * compacts it, so the file stays as small as before.
   */
  private padJournal(fd: number, need: number): void {
    if (need <= this.journalSize || need <= PAGE) return;
    const grow = Math.min(Math.max(this.journalSize, PAGE), MAX_PAD);
    const target = Math.min(Math.ceil((need + grow) / PAGE) * PAGE, Math.max(this.snapshotBytes, MIN_COMPACT_BYTES));
    if (target <= need) return;
    // A page per write(2): one large write would make the page cache hold the room as one
    // large folio, which a record rewrites whole in /proc's write_bytes (64 KiB counted a
    // record, 5 KB reaching the disk), hiding what the journal really writes.
    for (let at = this.journalSize; at < target; ) {
      const end = Math.min(target, (Math.floor(at / PAGE) + 1) * PAGE);
      writeAll(fd, NEWLINES.subarray(0, end - at), at);
      at = end;
    }
    this.journalSize = target;
  }

  /**
   * artifacts/ exists; for a `durable` artifact, also by a name that survives power loss:
   * the run directory is synced once per session (the directory may have been made by a
   * session that never synced it), so the artifact's own directory sync is not in vain.
   */
  private ensureArtifactsDir(durable: boolean): void {
    if (!this.artifactsDirReady) {
      ownDir(this.path("artifacts"));
      this.artifactsDirReady = true;
    }
    if (durable && !this.artifactsDirSynced) {
      fsyncDir(this.dir);
      this.artifactsDirSynced = true;
    }
  }

  async putArtifact(value: unknown, durable: boolean): Promise<ArtifactRef> {
    const text = JSON.stringify(value === undefined ? null : value);
    const hash = sha256Hex(text);
    const inState = inStateRef(text, hash);
    if (inState) return inState;
    const ref = `artifacts/${hash}.json`;
    const file = this.path(ref);
    if (this.knownArtifacts.has(hash) || (!this.artifactsComplete && existsSync(file) && sha256Hex(readOwnFile(file)) === hash)) {
      // Write-once: the same content is already there. Make it durable if asked,
      // since an earlier writer may not have been.
      if (durable) {
        const fd = openSync(file, "r");
        try {
          fdatasyncSync(fd);
        } finally {
          closeSync(fd);
        }
      }
    } else {
      this.ensureArtifactsDir(durable);
      writeFileAtomic(file, text, durable);
    }
    this.knownArtifacts.add(hash);
    return { ref, hash, size: Buffer.byteLength(text) };
  }

  async getArtifact(ref: string): Promise<unknown> {
    const text = inStateText(ref);
    if (text !== undefined) return inStateValue(text, `run ${this.runId}`);
    const hash = fileRefHash(ref);
    if (!hash) throw new IntegrityError(`${ref} is not an artifact reference`);
    let bytes: Buffer;
    try {
      bytes = readOwnFile(this.path(ref));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      throw new IntegrityError(`artifact ${ref} of run ${this.runId} is missing`);
    }
    if (sha256Hex(bytes) !== hash) {
      this.knownArtifacts.delete(hash);
      throw new IntegrityError(`artifact ${ref} of run ${this.runId} is altered (its content does not match its hash)`);
    }
    return JSON.parse(bytes.toString("utf8"));
  }

  async checkArtifact(ref: string, hash: string): Promise<boolean> {
    const text = inStateText(ref);
    if (text !== undefined) return sha256Hex(text) === hash;
    if (fileRefHash(ref) === undefined) return false;
    try {
      return sha256Hex(readOwnFile(this.path(ref))) === hash;
    } catch {
      return false;
    }
  }

  private openEvents(): number {
    if (this.eventsFd !== undefined) return this.eventsFd;
    const fd = openOwnFile(this.path("events.jsonl"), constants.O_RDWR | constants.O_CREAT | constants.O_APPEND);
    try {
      this.seq = lastSeq(fd);
      // A torn last line (crash mid-append) must not swallow the next event.
      const size = fstatSync(fd).size;
      if (size > 0) {
        const last = Buffer.alloc(1);
        readSync(fd, last, 0, 1, size - 1);
        if (last[0] !== 10) writeAll(fd, "\n");
      }
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    return (this.eventsFd = fd);
  }

  appendEvent(type: string, data: Record<string, unknown>): RunEvent {
    this.openEvents();
    const event: RunEvent = { seq: ++this.seq, time: nowIso(), type, data };
    this.pendingEvents += `${JSON.stringify(event)}\n`;
    // A long stretch without a state write (a transfer of a whole run's events) is written as it goes.
    if (this.pendingEvents.length > MAX_PENDING_EVENTS) this.flushEvents();
    return event;
  }

  /** Writes the events appended since the last write, in one write(2). */
  flushEvents(): void {
    if (this.pendingEvents === "") return;
    const text = this.pendingEvents;
    // Taken before the write: a failed write is reported once, not again at unlock.
    this.pendingEvents = "";
    try {
      writeAll(this.openEvents(), text);
    } catch (err) {
      // A failed write(2) names no file: name the log, so the one-line error can.
      (err as { path?: string }).path ??= this.path("events.jsonl");
      throw err;
    }
  }

  async readEvents(): Promise<RunEvent[]> {
    this.flushEvents();
    const file = this.path("events.jsonl");
    if (!existsSync(file)) return [];
    const out: RunEvent[] = [];
    for (const line of readOwnFile(file).toString("utf8").split("\n")) {
      if (line.trim() === "") continue;
      try {
        out.push(JSON.parse(line) as RunEvent);
      } catch {
        // A line torn by power loss: only the last one can be, skip it.
      }
    }
    return out;
  }

  async lastEvent(types: readonly string[]): Promise<RunEvent | undefined> {
    this.flushEvents();
    const file = this.path("events.jsonl");
    if (!existsSync(file)) return undefined;
    const bytes = readOwnFile(file);
    let last: RunEvent | undefined;
    for (const type of types) {
      // `"type":"run.started"` can also be text inside an event's data (a tool's output): a
      // candidate counts only when its line's own type is that.
      const needle = Buffer.from(`"type":${JSON.stringify(type)}`);
      for (let at = bytes.lastIndexOf(needle); at >= 0; at = at > 0 ? bytes.lastIndexOf(needle, at - 1) : -1) {
        const start = at > 0 ? bytes.lastIndexOf(10, at - 1) + 1 : 0;
        const newline = bytes.indexOf(10, at);
        let e: RunEvent;
        try {
          e = JSON.parse(bytes.toString("utf8", start, newline < 0 ? bytes.length : newline)) as RunEvent;
        } catch {
          continue;
        }
        if (e.type !== type) continue;
        if (last === undefined || e.seq > last.seq) last = e;
        break;
      }
    }
    return last;
  }

  async syncEvents(): Promise<void> {
    this.flushEvents();
    if (this.eventsFd !== undefined) fdatasyncSync(this.eventsFd);
  }

  /** idempotency.json (folded at full writes) with idempotency.jsonl (appended since) replayed over it. */
  async readIdempotency(): Promise<Record<string, IdempotencyRecord>> {
    if (this.idem) return this.idem;
    const file = this.path("idempotency.json");
    const records = existsSync(file) ? (JSON.parse(readOwnFile(file).toString("utf8")) as Record<string, IdempotencyRecord>) : {};
    const log = readChecksummedLines(this.path(IDEMPOTENCY_LOG));
    for (const entry of log.values as Array<{ k: string; r?: IdempotencyRecord }>) {
      if (entry.r) records[entry.k] = entry.r;
      else delete records[entry.k];
    }
    this.idemLogBytes = log.validBytes;
    this.idem = records;
    return records;
  }

  async recordIdempotency(key: string, resultRef: string | null, result?: unknown): Promise<void> {
    const records = await this.readIdempotency();
    records[key] = { resultRef, at: nowIso(), ...(result !== undefined ? { result } : {}) };
    this.appendIdempotency({ k: key, r: records[key] });
  }

  async forgetIdempotency(key: string): Promise<void> {
    const records = await this.readIdempotency();
    if (!(key in records)) return;
    delete records[key];
    this.appendIdempotency({ k: key });
  }

  /** One checksummed line, durable before the step it records is marked done: O(1) per keyed step. */
  private appendIdempotency(entry: { k: string; r?: IdempotencyRecord }): void {
    if (this.idemFd === undefined) {
      this.idemFd = openOwnFile(this.path(IDEMPOTENCY_LOG), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND);
      // A torn line of a crashed writer is cut, or this one would be glued to it.
      if (fstatSync(this.idemFd).size > this.idemLogBytes) ftruncateSync(this.idemFd, this.idemLogBytes);
    }
    const line = checksummedLine(JSON.stringify(entry));
    writeAll(this.idemFd, line);
    fdatasyncSync(this.idemFd);
    this.idemLogBytes += Buffer.byteLength(line);
  }

  /** Folds the idempotency log into idempotency.json (at a full write: rare, so O(keys) there is fine). */
  private foldIdempotency(): void {
    if (this.idemLogBytes === 0 || !this.idem) return;
    writeFileAtomic(this.path("idempotency.json"), JSON.stringify(this.idem, null, 1), true, this.dirFd);
    ftruncateSync(this.idemFd ?? (this.idemFd = openOwnFile(this.path(IDEMPOTENCY_LOG), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND)), 0);
    this.idemLogBytes = 0;
  }

  async saveRevision(n: number, plan: PlanIR): Promise<void> {
    ownDir(this.path("revisions"));
    writeFileAtomic(this.path(join("revisions", `${n}.ir.json`)), planFileText(plan), true);
    fsyncDir(this.dir);
    this.remember(n, this.path(join("revisions", `${n}.ir.json`)));
    this.orders.set(n, plan.order);
  }

  async lock(): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: RUN_DIR_MODE });
    refuseSharedDir(this.dir);
    acquireLock(this.path("lock"));
    this.removeTempFiles();
  }

  async unlock(): Promise<void> {
    try {
      this.flushEvents();
    } finally {
      for (const fd of [this.dirFd, this.eventsFd, this.journalFd, this.idemFd]) if (fd !== undefined) closeSync(fd);
      this.dirFd = undefined;
      this.eventsFd = undefined;
      this.journalFd = undefined;
      this.idemFd = undefined;
      releaseLock(this.path("lock"));
    }
  }
}

/** The sequence number of the last complete event, reading only the file's tail. */
function lastSeq(fd: number): number {
  const size = fstatSync(fd).size;
  let span = 4096;
  while (true) {
    const start = Math.max(0, size - span);
    const buf = Buffer.alloc(size - start);
    readSync(fd, buf, 0, buf.length, start);
    const lines = buf.toString("utf8").split("\n");
    // The first piece may be cut mid-line unless we read from the start.
    for (let i = lines.length - 1; i >= (start === 0 ? 0 : 1); i--) {
      const line = lines[i]!;
      if (line.trim() === "") continue;
      try {
        const ev = JSON.parse(line) as RunEvent;
        if (typeof ev.seq === "number") return ev.seq;
      } catch {
        // Torn tail line.
      }
    }
    if (start === 0) return -1;
    span *= 4;
  }
}
