/**
 * The run directory's overview (`overview.json`): what `status` needs of a run in
 * progress, so that a run killed mid-step is shown without reading its snapshot. A run
 * of 100,000 steps has a 21 MB state.json and up to as much journal; parsing them was
 * most of a status (0.6–1.2 s), to print some forty steps and a count per status.
 *
 * The writer (the file store) rewrites it now and then after a journal record — at the
 * first record after each snapshot, then at most about once a second — as one
 * checksummed line: the state's head as of that record, one mark per step of the plan's
 * order (`p` a step not started, `d` a done step whose state it leaves out, `*` a step
 * whose whole state it keeps, `-` none), the kept states (every step that is not plain
 * done or untouched, and the last done ones), where that record lies in the journal and
 * its checksum, the identities of the snapshot and the journal it follows, and those of
 * the plan file and of an index of its node lines (`overview-plan.idx`, made once a
 * session), so the plan's 32 MB need not be read either.
 *
 * It is a cache, never a source: resume and every other reader use the snapshot and the
 * journal. A reader believes it only while the snapshot and the journal are the files it
 * names and the journal has its record where it says, of its version and checksum; it then
 * replays the journal's records after it, checked as a full read checks them. Anything
 * else — another snapshot (a compaction since), a journal saved anew, a damaged or torn
 * line, a symlink, a gap — and the reader reads the whole state instead. What it does not
 * catch: an edit made in place to a journal record before its own (the full read and
 * resume refuse it; status shows the state as the writer last summed it up). Like
 * state.json's checksum, the overview's is no signature: one who can write the run
 * directory can forge either.
 */
import { closeSync, constants, fstatSync, lstatSync, readSync, type BigIntStats } from "node:fs";
import { join } from "node:path";
import { checksummedLine, checksummedLinesOf, decodeLine, headAfter, journalRecords, JOURNAL_FILE } from "./journal.js";
import { writeFileAtomic } from "./atomic.js";
import { openOwnFile, readOwnFile } from "./own-files.js";
import type { IRNode, PlanIR } from "../ir.js";
import { END, markListedInOrder, NODES, readOnly } from "./plan-file.js";
import type { NodeState, RunState } from "./store.js";

export const OVERVIEW_FILE = "overview.json";

/** Format of the overview's line; another is not read (the whole state is). */
const FORMAT = 1;

/** Done steps kept whole from the end of the order (the table's and the summary's last done, and room for resets after). */
const KEEP_DONE = 10;
/** Kept from the end until this many of them have outputs (the summary's facts), at most `MAX_DONE` in all. */
const KEEP_WITH_OUTPUT = 10;
const MAX_DONE = 200;

interface OverviewDoc {
  v: number;
  stateVersion: number;
  /** Where the record at `stateVersion` starts and ends in the journal. */
  recordAt: number;
  journalBytes: number;
  /** That record's checksum. */
  record: string;
  /** state.json's identity (inode, size, change time) when the overview was made. */
  snapshot: string;
  /** The journal's inode: records are written into it in place, so another file in its place (an edit saved anew) has another. */
  journal: string;
  /** The plan file's identity as the writer wrote or checked it, and its index's (PLAN_INDEX_FILE); none: the reader hashes the plan. */
  planFile?: string;
  planIndex?: string;
  head: Record<string, unknown>;
  marks: string;
  kept: Record<string, NodeState>;
}

/** A step not started, exactly as a plan's compile leaves it: shown as it is. */
const untouched = (st: NodeState): boolean => st.status === "pending" && st.attempts === 0 && Object.keys(st).length === 2;

/** A done step with nothing a person must look at: only its status is needed, unless it is among the last. */
const plainDone = (st: NodeState): boolean => st.status === "done" && st.awaiting === undefined && st.decision === undefined && st.judgeDecision === undefined;

/** The overview's line for `state` as of its record (at `recordAt` to `journalBytes`, checksum `record`). */
export function encodeOverview(state: RunState, order: readonly string[], at: { recordAt: number; journalBytes: number; record: string; snapshot: string; journal: string; plan?: { file: string; index: string } }): string {
  const { nodes, inputs: _inputs, summary: _summary, ...head } = state;
  const marks: string[] = new Array<string>(order.length);
  const kept: Record<string, NodeState> = {};
  let done = 0;
  let withOutput = 0;
  for (let i = order.length - 1; i >= 0; i--) {
    const id = order[i]!;
    const st = nodes[id];
    if (st === undefined) marks[i] = "-";
    else if (untouched(st)) marks[i] = "p";
    else if (plainDone(st) && (done >= MAX_DONE || (done >= KEEP_DONE && withOutput >= KEEP_WITH_OUTPUT))) marks[i] = "d";
    else {
      marks[i] = "*";
      kept[id] = st;
      if (st.status === "done") {
        done++;
        if (st.outputRef !== undefined) withOutput++;
      }
    }
  }
  const doc: OverviewDoc = { v: FORMAT, stateVersion: state.stateVersion, recordAt: at.recordAt, journalBytes: at.journalBytes, record: at.record, snapshot: at.snapshot, journal: at.journal, ...(at.plan !== undefined ? { planFile: at.plan.file, planIndex: at.plan.index } : {}), head, marks: marks.join(""), kept };
  return checksummedLine(JSON.stringify(doc));
}

/**
 * Inode, size and change time: any write, rename over or chmod of the file changes it. Of
 * the name itself, not of what a symlink there points to: a link to a run's real file is
 * not that file (every reader refuses to read through one).
 */
export function fileIdentity(file: string): string | undefined {
  try {
    return identityOf(lstatSync(file, { bigint: true }));
  } catch {
    return undefined;
  }
}

const identityOf = (st: BigIntStats): string => `${st.ino}:${st.size}:${st.ctimeNs}`;

/** Thrown when the status view reads more of a step than the overview kept: the caller reads the whole state. */
export class NotKept extends Error {}

const notKept = (): never => {
  throw new NotKept("a step's state the overview does not keep");
};

/** A done step whose state the overview left out: its status reads, any other detail throws `NotKept`. */
const ELIDED_DONE: NodeState = Object.freeze(
  Object.defineProperties({ status: "done" } as NodeState, Object.fromEntries(["attempts", "lastError", "startedAt", "endedAt", "outputRef", "outputHash", "idempotencyKey", "skipReason"].map((k) => [k, { get: notKept, enumerable: true }]))),
);
const UNTOUCHED: NodeState = Object.freeze({ status: "pending", attempts: 0 });

/** What the overview and the journal after it say: the head, and the kept (or replayed) states of some steps. */
export interface OverviewRead {
  head: Record<string, unknown>;
  /** The identities of the plan file as its writer checked it and of its index. */
  plan?: { file: string; index: string };
  /** States of the steps the overview kept or the journal changed since; every other step is in `marks`. */
  states: Record<string, NodeState>;
  marks: string;
}

/**
 * The overview with the journal's later records replayed, if it can be believed (see
 * the module's comment); undefined when the whole state must be read.
 */
export function readOverview(dir: string): OverviewRead | undefined {
  const snapshotFile = join(dir, "state.json");
  let doc: OverviewDoc;
  try {
    doc = decodeLine(readOwnFile(join(dir, OVERVIEW_FILE)).toString("utf8").replace(/\n$/, "")) as OverviewDoc;
  } catch {
    // Missing, a link, a FIFO, not JSON: the whole read decides.
    return undefined;
  }
  if (!wellFormed(doc)) return undefined;
  const snapshot = fileIdentity(snapshotFile);
  if (snapshot === undefined || snapshot !== doc.snapshot) return undefined;
  const journal = join(dir, JOURNAL_FILE);
  let read: OverviewRead;
  try {
    // From the overview's record to the end, if the journal is still the file of its inode.
    const tail = readRange(journal, doc.recordAt, undefined, (st) => String(st.ino) === doc.journal);
    if (tail === undefined) return undefined;
    // The overview's own record first, ending where it says, of its version and checksum.
    if (tail.indexOf(10) !== doc.journalBytes - doc.recordAt - 1) return undefined;
    const lines = checksummedLinesOf(tail, journal, doc.recordAt);
    if (lines.hashes[0] !== doc.record || (lines.values[0] as { v?: unknown } | undefined)?.v !== doc.stateVersion) return undefined;
    const records = journalRecords(journal, lines.values.slice(1), lines.hashes.slice(1), { version: doc.stateVersion, planHash: String(doc.head.planHash), hash: doc.record });
    const states: Record<string, NodeState> = { ...doc.kept };
    for (const r of records) Object.assign(states, r.n as Record<string, NodeState>);
    const head = headAfter(records, { ...doc.head, stateVersion: doc.stateVersion });
    // A revision since: the marks are of another plan's order.
    if (head.revision !== doc.head.revision) return undefined;
    read = { head, states, marks: doc.marks, ...(typeof doc.planFile === "string" && typeof doc.planIndex === "string" ? { plan: { file: doc.planFile, index: doc.planIndex } } : {}) };
  } catch {
    // Missing, a link, damaged, a gap: the whole read decides (and names the damage).
    return undefined;
  }
  // A compaction while the journal was read: the records may be of the next snapshot.
  if (fileIdentity(snapshotFile) !== snapshot) return undefined;
  return read;
}

function wellFormed(doc: OverviewDoc | undefined): doc is OverviewDoc {
  if (doc === null || typeof doc !== "object" || doc.v !== FORMAT) return false;
  const { stateVersion, recordAt, journalBytes, record, snapshot, head, marks, kept } = doc;
  const object = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
  return Number.isSafeInteger(stateVersion) && Number.isSafeInteger(recordAt) && recordAt >= 0 && Number.isSafeInteger(journalBytes) && journalBytes > recordAt && typeof record === "string" && /^[0-9a-f]{64}$/.test(record) && typeof snapshot === "string" && typeof doc.journal === "string" && object(head) && typeof marks === "string" && /^[pd*-]*$/.test(marks) && object(kept);
}

/**
 * The state's nodes for the status view, from an overview read against the plan's order:
 * kept and replayed states as they are, untouched steps as they are, other done steps
 * as `ELIDED_DONE` (reading more than their status throws `NotKept`). Undefined when the
 * marks are not of this order (another revision's) or a step marked kept is missing.
 * The nodes are looked up by id through the order (no object of 100,000 keys); a reader
 * going through every step in order takes them by place (`statesInOrder`).
 */
export function overviewNodes(read: OverviewRead, order: readonly string[]): Record<string, NodeState> | undefined {
  if (read.marks.length !== order.length) return undefined;
  const { states, marks } = read;
  const byPlace = new Array<NodeState | undefined>(order.length);
  for (let i = 0; i < order.length; i++) {
    const st = Object.hasOwn(states, order[i]!) ? states[order[i]!] : undefined;
    if (st !== undefined) byPlace[i] = st;
    else {
      const m = marks.charCodeAt(i);
      if (m === STAR) return undefined;
      byPlace[i] = m === P ? UNTOUCHED : m === D ? ELIDED_DONE : undefined;
    }
  }
  // Steps the overview did not keep are found in the order: by a scan for the first few
  // (a long run's last pending steps), then by a map built once, so a walk over many
  // (the facts' walk back over pending steps, each pending step's needs) is not quadratic.
  let places: Map<string, number> | undefined;
  let scans = 0;
  const lookUp = (id: string): NodeState | undefined => {
    if (Object.hasOwn(states, id)) return states[id];
    if (places === undefined && ++scans > SCANS) places = new Map(order.map((o, i) => [o, i]));
    const i = places === undefined ? order.indexOf(id) : (places.get(id) ?? -1);
    return i < 0 ? undefined : byPlace[i];
  };
  const nodes = new Proxy(Object.create(null) as Record<string, NodeState>, {
    get: (_t, key) => (typeof key === "string" ? lookUp(key) : undefined),
    has: (_t, key) => typeof key === "string" && lookUp(key) !== undefined,
    set: readOnly,
    defineProperty: readOnly,
    deleteProperty: readOnly,
  });
  positional.set(nodes, byPlace);
  return nodes;
}

const [P, D, STAR] = ["p", "d", "*"].map((c) => c.charCodeAt(0)) as [number, number, number];

/** Nodes `overviewNodes` made, with their states by place in the order. */
const positional = new WeakMap<object, ReadonlyArray<NodeState | undefined>>();

/** The states by place in the plan's order, when `nodes` came from `overviewNodes`. */
export const statesInOrder = (nodes: object): ReadonlyArray<NodeState | undefined> | undefined => positional.get(nodes);

/** Look-ups of left-out steps made by scanning the order before a map of it is built (`overviewNodes`). */
const SCANS = 32;

/** Nodes of the plan read at once by the status view (`indexedPlan`). */
const WINDOW = 512;

/** Where each node's line of the plan file starts (plan-file.ts's layout), written beside the overview. */
export const PLAN_INDEX_FILE = "overview-plan.idx";

/**
 * Writes the index of the plan file at `planPath` as its bytes are now, if they are the
 * file whose identity is `identity` (one the store wrote or checked): a little-endian
 * uint32 count of nodes, each node line's start, and where the last one ends. Returns
 * the index file's identity; undefined for a plan of another layout or one that changed.
 */
export function writePlanIndex(planPath: string, indexPath: string, identity: string): string | undefined {
  if (fileIdentity(planPath) !== identity) return undefined;
  const bytes = readOwnFile(planPath);
  if (fileIdentity(planPath) !== identity) return undefined;
  const first = bytes.indexOf(10);
  const stop = bytes.length - END.length;
  if (first < NODES.length || bytes.toString("latin1", first - NODES.length, first) !== NODES || bytes.toString("latin1", stop) !== END || stop > 0xffffffff) return undefined;
  const starts: number[] = [first + 1];
  for (let at = bytes.indexOf(10, first + 1); at !== -1 && at < stop; at = bytes.indexOf(10, at + 1)) starts.push(at + 1);
  const index = new Uint32Array(starts.length + 2);
  index[0] = starts.length;
  index.set(starts, 1);
  index[starts.length + 1] = stop;
  writeFileAtomic(indexPath, new Uint8Array(index.buffer), false);
  return fileIdentity(indexPath);
}

/**
 * The plan for the status view from its index: the head read and parsed, each node read
 * and parsed only when it is looked at — no 32 MB read, no object per node. Undefined
 * unless the plan file and the index are the ones the writer checked and made
 * (`planFile`, `planIndex`). The view looks a step up by its place in the order, so node
 * `i` must be the order's step `i`: that is checked as each node is read, on the file as
 * it still is (`NotKept` if not: the whole read then decides).
 */
export function indexedPlan(planPath: string, indexPath: string, planFile: string, planIndex: string): PlanIR | undefined {
  if (fileIdentity(indexPath) !== planIndex) return undefined;
  const raw = readOwnFile(indexPath);
  if (fileIdentity(indexPath) !== planIndex || raw.length % 4 !== 0 || raw.length < 8) return undefined;
  const index = new Uint32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
  const count = index[0]!;
  if (index.length !== count + 2 || count === 0) return undefined;
  const starts = index.subarray(1);
  const same = (st: BigIntStats) => identityOf(st) === planFile;
  const head = readRange(planPath, 0, starts[0]!, same);
  if (head === undefined || head.toString("latin1", head.length - NODES.length - 1) !== `${NODES}\n`) return undefined;
  let plan: PlanIR;
  try {
    plan = JSON.parse(`${head.toString("utf8", 0, head.length - NODES.length - 1).replace(/,$/, "")}}`) as PlanIR;
  } catch {
    return undefined;
  }
  if (plan === null || typeof plan !== "object" || !Array.isArray(plan.order) || plan.order.length !== count) return undefined;
  const order = plan.order;
  const parsed = new Array<IRNode>(count);
  // Nodes are read a window at a time: the view's walk over pending steps (their needs)
  // reads a long run's plan in a few hundred reads, not one per step.
  let window: { from: number; to: number; bytes: Buffer | undefined } | undefined;
  const nodeAt = (i: number): IRNode => {
    if (parsed[i] !== undefined) return parsed[i];
    if (window === undefined || i < window.from || i >= window.to) {
      const to = Math.min(count, i + WINDOW);
      window = { from: i, to, bytes: readRange(planPath, starts[i]!, starts[to]!, same) };
    }
    const base = starts[window.from]!;
    // Lines are joined by ",\n"; the last ends where the index says.
    const end = i + 1 < count ? starts[i + 1]! - 2 : starts[count]!;
    let node: IRNode | undefined;
    try {
      node = window.bytes === undefined || end < starts[i]! ? undefined : (JSON.parse(window.bytes.toString("utf8", starts[i]! - base, end - base)) as IRNode);
    } catch {
      node = undefined;
    }
    if (node === null || typeof node !== "object" || node.id !== order[i]) throw new NotKept(`the plan's node ${i} is not step ${order[i]} as the index says`);
    return (parsed[i] = Object.freeze(node));
  };
  const at = (key: string | symbol): number => (typeof key === "string" && /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < count ? Number(key) : -1);
  plan.nodes = new Proxy(parsed, {
    get: (target, key, receiver) => (at(key) >= 0 ? nodeAt(at(key)) : Reflect.get(target, key, receiver)),
    has: (target, key) => at(key) >= 0 || Reflect.has(target, key),
    set: readOnly,
    defineProperty: readOnly,
    deleteProperty: readOnly,
  });
  markListedInOrder(plan);
  return plan;
}

/**
 * Bytes `from` to `to` (the end: undefined) of `file` as `openOwnFile` opens it, if `isFile`
 * says it is still the file meant (its inode, or its whole identity); undefined if not, or
 * if the range is not all there.
 */
function readRange(file: string, from: number, to: number | undefined, isFile: (st: BigIntStats) => boolean): Buffer | undefined {
  let fd: number;
  try {
    fd = openOwnFile(file, constants.O_RDONLY);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    const end = to ?? Number(st.size);
    if (!isFile(st) || end > Number(st.size) || end <= from) return undefined;
    const buf = Buffer.alloc(end - from);
    for (let at = 0; at < buf.length; ) {
      const n = readSync(fd, buf, at, buf.length - at, from + at);
      if (n === 0) return undefined;
      at += n;
    }
    return buf;
  } finally {
    closeSync(fd);
  }
}
