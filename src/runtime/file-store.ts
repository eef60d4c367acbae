/**
 * The embedded store: one directory per run (`.planspec/runs/<run-id>/`).
 *
 * Durability policy:
 * - `state.json`, `idempotency.json`, `plan.ir.json`, `config.json`, revisions: atomic
 *   replace with fsync of file and directory (see atomic.ts).
 * - artifacts: write-once, atomic rename; fsynced only when `durable` is asked (results an
 *   idempotency record points at). A non-durable artifact lost to power loss is caught
 *   by resume's hash check and its step re-runs.
 * - `events.jsonl`: one write(2) per event on an append-mode descriptor, so events
 *   survive a process crash; fsynced when the run stops (`syncEvents`). After power loss
 *   the tail may be lost; readers skip a torn last line.
 */
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  unlinkSync,
} from "node:fs";
import { join } from "node:path";
import type { PlanIR } from "../ir.js";
import { fsyncDir, sha256Hex, writeAll, writeFileAtomic } from "./atomic.js";
import { acquireLock, releaseLock } from "./lock.js";
import type { ArtifactRef, IdempotencyRecord, RunConfig, RunEvent, RunState, Store } from "./store.js";
import { IntegrityError, nowIso } from "./store.js";

/** The checksum ends state.json: `...,"checksum":"<sha256 of the document without it>"}`. */
const CHECKSUM_TAIL = /,"checksum":"([0-9a-f]{64})"\}\s*$/;

export class FileStore implements Store {
  readonly location: string;
  private readonly fragments = new Map<string, string>();
  private dirFd: number | undefined;
  private eventsFd: number | undefined;
  private seq = -1;
  private idem: Record<string, IdempotencyRecord> | undefined;
  private readonly knownArtifacts = new Set<string>();
  private artifactsDirReady = false;
  /** The state read had no checksum (a run directory of an older planspec): mark the config once a checksummed state is written. */
  private legacyState = false;

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
    mkdirSync(this.path("artifacts"), { recursive: true });
    this.artifactsDirReady = true;
    writeFileAtomic(this.path("plan.ir.json"), JSON.stringify(plan), true);
    writeFileAtomic(this.path("config.json"), JSON.stringify({ ...config, stateChecksum: true }, null, 2), true);
    await this.writeState(state);
  }

  async readPlan(revision: number): Promise<PlanIR> {
    const file = revision === 0 ? this.path("plan.ir.json") : this.path(join("revisions", `${revision}.ir.json`));
    return JSON.parse(readFileSync(file, "utf8")) as PlanIR;
  }

  async readConfig(): Promise<RunConfig> {
    return JSON.parse(readFileSync(this.path("config.json"), "utf8")) as RunConfig;
  }

  /** The state, checked against its checksum: a state edited by hand is refused (an `IntegrityError`). */
  async readStateRaw(): Promise<unknown> {
    const text = readFileSync(this.path("state.json"), "utf8");
    const m = CHECKSUM_TAIL.exec(text);
    const edited = () => new IntegrityError(`${this.path("state.json")} was edited outside planspec (its checksum does not match); restore it, or start a new run`);
    if (m) {
      if (sha256Hex(`${text.slice(0, m.index)}}`) !== m[1]) throw edited();
    } else {
      // Accepted once from an older planspec; the next write adds the checksum and marks the config.
      if ((await this.readConfig()).stateChecksum) throw edited();
      this.legacyState = true;
    }
    const doc = JSON.parse(text) as Record<string, unknown>;
    delete doc.checksum;
    return doc;
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

  async writeState(state: RunState, dirty?: Iterable<string>): Promise<void> {
    state.stateVersion++;
    state.updatedAt = nowIso();
    // Only changed nodes are re-serialised; the document is still O(nodes) by nature,
    // but joining cached fragments is a memcpy, not a JSON walk of every node.
    if (dirty === undefined || this.fragments.size === 0) {
      this.fragments.clear();
      for (const [id, node] of Object.entries(state.nodes)) this.fragments.set(id, `${JSON.stringify(id)}:${JSON.stringify(node)}`);
    } else {
      for (const id of dirty) this.fragments.set(id, `${JSON.stringify(id)}:${JSON.stringify(state.nodes[id])}`);
    }
    const { nodes: _nodes, ...head } = state;
    const body = `${JSON.stringify(head).slice(0, -1)},"nodes":{${[...this.fragments.values()].join(",")}}`;
    const text = `${body},"checksum":"${sha256Hex(`${body}}`)}"}\n`;
    if (this.dirFd === undefined) this.dirFd = openSync(this.dir, "r");
    writeFileAtomic(this.path("state.json"), text, true, this.dirFd);
    if (this.legacyState) {
      writeFileAtomic(this.path("config.json"), JSON.stringify({ ...(await this.readConfig()), stateChecksum: true }, null, 2), true);
      this.legacyState = false;
    }
  }

  private ensureArtifactsDir(): void {
    if (this.artifactsDirReady) return;
    mkdirSync(this.path("artifacts"), { recursive: true });
    this.artifactsDirReady = true;
  }

  async putArtifact(value: unknown, durable: boolean): Promise<ArtifactRef> {
    const text = JSON.stringify(value === undefined ? null : value);
    const hash = sha256Hex(text);
    const ref = `artifacts/${hash}.json`;
    const file = this.path(ref);
    if (this.knownArtifacts.has(hash) || (existsSync(file) && sha256Hex(readFileSync(file)) === hash)) {
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
      this.ensureArtifactsDir();
      writeFileAtomic(file, text, durable);
    }
    this.knownArtifacts.add(hash);
    return { ref, hash, size: Buffer.byteLength(text) };
  }

  async getArtifact(ref: string): Promise<unknown> {
    const hash = /^artifacts\/([0-9a-f]{64})\.json$/.exec(ref)?.[1];
    if (!hash) throw new IntegrityError(`${ref} is not an artifact reference`);
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.path(ref));
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
    if (!/^artifacts\/[0-9a-f]{64}\.json$/.test(ref)) return false;
    try {
      return sha256Hex(readFileSync(this.path(ref))) === hash;
    } catch {
      return false;
    }
  }

  private openEvents(): number {
    if (this.eventsFd !== undefined) return this.eventsFd;
    const file = this.path("events.jsonl");
    this.seq = lastSeq(file);
    this.eventsFd = openSync(file, "a", 0o644);
    // A torn last line (crash mid-append) must not swallow the next event.
    const size = fstatSync(this.eventsFd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      const rfd = openSync(file, "r");
      try {
        readSync(rfd, last, 0, 1, size - 1);
      } finally {
        closeSync(rfd);
      }
      if (last[0] !== 10) writeAll(this.eventsFd, "\n");
    }
    return this.eventsFd;
  }

  appendEvent(type: string, data: Record<string, unknown>): RunEvent {
    const fd = this.openEvents();
    const event: RunEvent = { seq: ++this.seq, time: nowIso(), type, data };
    writeAll(fd, `${JSON.stringify(event)}\n`);
    return event;
  }

  async readEvents(): Promise<RunEvent[]> {
    const file = this.path("events.jsonl");
    if (!existsSync(file)) return [];
    const out: RunEvent[] = [];
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      try {
        out.push(JSON.parse(line) as RunEvent);
      } catch {
        // A line torn by power loss: only the last one can be, skip it.
      }
    }
    return out;
  }

  async syncEvents(): Promise<void> {
    if (this.eventsFd !== undefined) fdatasyncSync(this.eventsFd);
  }

  async readIdempotency(): Promise<Record<string, IdempotencyRecord>> {
    if (this.idem) return this.idem;
    const file = this.path("idempotency.json");
    this.idem = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, IdempotencyRecord>) : {};
    return this.idem;
  }

  async recordIdempotency(key: string, resultRef: string | null, result?: unknown): Promise<void> {
    const records = await this.readIdempotency();
    records[key] = { resultRef, at: nowIso(), ...(result !== undefined ? { result } : {}) };
    writeFileAtomic(this.path("idempotency.json"), JSON.stringify(records, null, 1), true);
  }

  async forgetIdempotency(key: string): Promise<void> {
    const records = await this.readIdempotency();
    if (!(key in records)) return;
    delete records[key];
    writeFileAtomic(this.path("idempotency.json"), JSON.stringify(records, null, 1), true);
  }

  async saveRevision(n: number, plan: PlanIR): Promise<void> {
    mkdirSync(this.path("revisions"), { recursive: true });
    writeFileAtomic(this.path(join("revisions", `${n}.ir.json`)), JSON.stringify(plan), true);
    fsyncDir(this.dir);
  }

  async lock(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    acquireLock(this.path("lock"));
    this.removeTempFiles();
  }

  async unlock(): Promise<void> {
    for (const fd of [this.dirFd, this.eventsFd]) if (fd !== undefined) closeSync(fd);
    this.dirFd = undefined;
    this.eventsFd = undefined;
    releaseLock(this.path("lock"));
  }
}

/** The sequence number of the last complete event, reading only the file's tail. */
function lastSeq(file: string): number {
  if (!existsSync(file)) return -1;
  const fd = openSync(file, "r");
  try {
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
  } finally {
    closeSync(fd);
  }
}
