/**
 * The run directory's state journal: a transition is one checksummed append, readers
 * replay snapshot + journal, a torn tail is dropped, damage is refused, and a writer
 * killed with SIGKILL mid-append or mid-compaction leaves a state that reads back with
 * every acknowledged write in it.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync, readdirSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileStore, MIN_COMPACT_BYTES, readRunDirState } from "../../src/runtime/file-store.js";
import { IntegrityError, type RunState } from "../../src/runtime/store.js";
import { tempDir } from "./helpers.js";

const root = join(import.meta.dirname, "../..");

function state(n: number): RunState {
  const nodes: RunState["nodes"] = {};
  for (let i = 0; i < n; i++) nodes[`s${i}`] = { status: "pending", attempts: 0 };
  const now = new Date().toISOString();
  return { schemaVersion: 2, stateVersion: 0, runId: "r", planHash: "a".repeat(64), revision: 0, status: "running", createdAt: now, updatedAt: now, inputs: { topic: "x" }, nodes, budget: { toolCalls: 0, startedAt: now, elapsedMs: 0 } };
}

const merged = (dir: string) => readRunDirState(dir).doc as unknown as RunState;
/** A record's line with its JSON changed by `edit` and its checksum recomputed (a forger's edit). */
const resealed = (line: string, edit: (json: string) => string) => {
  const json = edit(line.slice(0, -65));
  return `${json} ${createHash("sha256").update(json).digest("hex")}`;
};
const journal = (dir: string) => join(dir, "journal.jsonl");
/** Bytes this process has handed to write(2) so far (Linux). */
const wchar = () => Number(/wchar: (\d+)/.exec(readFileSync("/proc/self/io", "utf8"))![1]);

async function started(n: number): Promise<{ dir: string; store: FileStore; s: RunState }> {
  const dir = tempDir();
  const store = new FileStore(dir, "r");
  writeFileSync(join(dir, "config.json"), JSON.stringify({ toolModules: [], workspace: dir, concurrency: 1, stateChecksum: true }));
  const s = state(n);
  await store.writeState(s);
  return { dir, store, s };
}

describe("state journal", () => {
  it("a transition writes O(changed nodes) bytes, not the whole state, and readers see it", async () => {
    const { dir, store, s } = await started(2000);
    const snapshot = statSync(join(dir, "state.json")).size;
    const before = wchar();
    for (let i = 0; i < 400; i++) {
      const id = `s${i}`;
      s.nodes[id]!.status = "done";
      s.budget.toolCalls++;
      await store.writeState(s, [id]);
    }
    const perWrite = (wchar() - before) / 400;
    // The snapshot is ~70 KB; a record is a node and the head (~400 B). Compaction
    // (journal past the snapshot) adds at most one snapshot per snapshot's worth of records.
    expect(snapshot).toBeGreaterThan(50_000);
    expect(perWrite).toBeLessThan(1500);
    const st = merged(dir);
    expect(st.stateVersion).toBe(401);
    expect(st.budget.toolCalls).toBe(400);
    expect(Object.values(st.nodes).filter((n) => n.status === "done")).toHaveLength(400);
    expect(Object.keys(st.nodes).slice(0, 3)).toEqual(["s0", "s1", "s2"]);
    expect(st.inputs).toEqual({ topic: "x" });
  });

  it("a full write (start, end of session, decision) folds the journal into state.json", async () => {
    const { dir, store, s } = await started(10);
    s.nodes.s1!.status = "running";
    await store.writeState(s, ["s1"]);
    expect(readFileSync(journal(dir), "utf8").split("\n").filter(Boolean)).toHaveLength(1);
    // state.json alone still shows the snapshot; the merged read shows the record.
    expect((JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as RunState).nodes.s1!.status).toBe("pending");
    expect(merged(dir).nodes.s1!.status).toBe("running");
    s.nodes.s1!.status = "done";
    s.status = "done";
    await store.writeState(s);
    expect(readFileSync(journal(dir), "utf8")).toBe("");
    const snap = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as RunState;
    expect(snap).toMatchObject({ stateVersion: 3, status: "done" });
    expect(snap.nodes.s1!.status).toBe("done");
  });

  it("drops a torn last record at every byte it can be cut at, and the next writer appends cleanly", async () => {
    const { dir, store, s } = await started(5);
    s.nodes.s0!.status = "running";
    await store.writeState(s, ["s0"]);
    const good = readFileSync(journal(dir));
    s.nodes.s0!.status = "done";
    s.nodes.s1!.status = "running";
    await store.writeState(s, ["s0", "s1"]);
    await store.unlock();
    const full = readFileSync(journal(dir));
    for (let cut = good.length; cut < full.length; cut++) {
      writeFileSync(journal(dir), full.subarray(0, cut));
      const r = readRunDirState(dir);
      const st = r.doc as unknown as RunState;
      // Cut anywhere before the record's newline: the record is gone, the one before it stands.
      if (cut < full.length - 1) {
        expect(st.stateVersion, `cut at ${cut}`).toBe(2);
        expect(st.nodes.s1!.status).toBe("pending");
        expect(r.tornBytes).toBe(cut - good.length);
      } else {
        expect(st.stateVersion).toBe(3);
      }
    }
    // A new session after a torn tail: its first write folds everything into a snapshot.
    writeFileSync(journal(dir), full.subarray(0, full.length - 20));
    const next = new FileStore(dir, "r");
    const st = (await next.readStateRaw()) as RunState;
    st.nodes.s2!.status = "running";
    await next.writeState(st, ["s2"]);
    st.nodes.s2!.status = "done";
    await next.writeState(st, ["s2"]);
    const after = merged(dir);
    expect(after.stateVersion).toBe(4);
    expect(after.nodes.s1!.status).toBe("pending");
    expect(after.nodes.s2!.status).toBe("done");
  });

  it("a record damaged before the tail, a gap in versions or another plan's record is refused", async () => {
    const { dir, store, s } = await started(5);
    for (const id of ["s0", "s1", "s2"]) {
      s.nodes[id]!.status = "done";
      await store.writeState(s, [id]);
    }
    const lines = readFileSync(journal(dir), "utf8").split("\n").filter(Boolean);
    expect(lines).toHaveLength(3);
    const attempt = (text: string) => {
      writeFileSync(journal(dir), text);
      return () => readRunDirState(dir);
    };
    // An edit inside the first record (its checksum no longer matches).
    expect(attempt([lines[0]!.replace('"done"', '"pending"'), lines[1], lines[2], ""].join("\n"))).toThrow(/journal\.jsonl is damaged or was edited.*line 1/);
    // A record removed from the middle.
    expect(attempt([lines[0], lines[2], ""].join("\n"))).toThrow(/line 2: state version 4 follows 2/);
    // A well-formed record of another plan, checksum recomputed (the first record carries the full head).
    const forged = resealed(lines[0]!, (json) => json.replace("a".repeat(64), "b".repeat(64)));
    expect(attempt([forged, lines[1], lines[2], ""].join("\n"))).toThrow(IntegrityError);
    expect(attempt([forged, lines[1], lines[2], ""].join("\n"))).toThrow(/line 1: a record of plan bbbbbbbbbbbb/);
  });

  it("records left over from a crash between a snapshot and the journal's truncation are skipped", async () => {
    const { dir, store, s } = await started(5);
    s.nodes.s0!.status = "done";
    await store.writeState(s, ["s0"]);
    copyFileSync(journal(dir), `${journal(dir)}.old`);
    s.nodes.s1!.status = "done";
    await store.writeState(s);
    // As if the process died after renaming state.json but before emptying the journal.
    copyFileSync(`${journal(dir)}.old`, journal(dir));
    const st = merged(dir);
    expect(st.stateVersion).toBe(3);
    expect(st.nodes.s0!.status).toBe("done");
    expect(st.nodes.s1!.status).toBe("done");
  });

  it("the journal is compacted once it outgrows the snapshot, so the run directory stays small", async () => {
    const { dir, store, s } = await started(200);
    const snapshot = statSync(join(dir, "state.json")).size;
    for (let i = 0; i < 3000; i++) {
      const id = `s${i % 200}`;
      s.nodes[id]!.attempts++;
      await store.writeState(s, [id]);
      expect(statSync(journal(dir)).size).toBeLessThanOrEqual(Math.max(snapshot * 1.2, MIN_COMPACT_BYTES) + 1024);
    }
    expect(merged(dir).nodes.s7!.attempts).toBe(15);
    expect(merged(dir).stateVersion).toBe(3001);
  });

  it("a store that read the state (a resumed session) appends records, compacts with every node, and closes with a snapshot of every node", async () => {
    const { dir, store, s } = await started(2000);
    s.nodes.s0!.status = "done";
    await store.writeState(s, ["s0"]);
    await store.unlock();
    const snapshot = readFileSync(join(dir, "state.json"), "utf8");
    // A new session: it holds no node's JSON, only what it read.
    const next = new FileStore(dir, "r");
    const st = (await next.readStateRaw()) as RunState;
    st.nodes.s1!.status = "running";
    await next.writeState(st, ["s1"]);
    expect(readFileSync(join(dir, "state.json"), "utf8")).toBe(snapshot);
    let compacted = false;
    let last = 1;
    for (let i = 2; i < 2000 && !compacted; i++) {
      st.nodes[`s${i}`]!.attempts = i;
      await next.writeState(st, [`s${i}`]);
      last = i;
      compacted = readFileSync(join(dir, "state.json"), "utf8") !== snapshot;
    }
    expect(compacted).toBe(true);
    const afterCompaction = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as RunState;
    expect(Object.keys(afterCompaction.nodes)).toHaveLength(2000);
    expect(afterCompaction.nodes.s0!.status).toBe("done");
    expect(afterCompaction.nodes.s1!.status).toBe("running");
    expect(afterCompaction.nodes[`s${last}`]!.attempts).toBe(last);
    st.nodes.s1!.status = "done";
    st.status = "done";
    await next.writeState(st, ["s1"], { snapshot: true });
    expect(readFileSync(journal(dir), "utf8")).toBe("");
    const closing = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as RunState & { checksum?: string };
    delete closing.checksum;
    expect(closing).toEqual(merged(dir));
    expect(Object.keys(closing.nodes)).toHaveLength(2000);
    expect(closing.nodes.s1!.status).toBe("done");
    expect(closing.nodes[`s${last}`]!.attempts).toBe(last);
  });

  it("a writer killed with SIGKILL mid-append or mid-compaction loses no acknowledged write", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), JSON.stringify({ toolModules: [], workspace: dir, concurrency: 1, stateChecksum: true }));
    // Nodes with long errors make a ~1.5 MB snapshot, so a compaction takes long enough to be hit.
    const script = `
      import { FileStore } from ${JSON.stringify(join(root, "dist/runtime/file-store.js"))};
      import { existsSync } from "node:fs";
      const store = new FileStore(${JSON.stringify(dir)}, "r");
      let s;
      if (existsSync(${JSON.stringify(join(dir, "state.json"))})) s = await store.readStateRaw();
      else { s = ${JSON.stringify(state(3000))}; for (const n of Object.values(s.nodes)) n.lastError = "e".repeat(400); }
      await store.writeState(s);
      process.stdout.write("v" + s.stateVersion + "\\n");
      for (let i = 1; ; i++) {
        const id = "s" + (i * 7 % 3000);
        s.nodes[id].attempts++;
        // Every 25th write is a full one: the snapshot rewrite a compaction does, often enough to be hit.
        await store.writeState(s, i % 25 === 0 ? undefined : [id]);
        process.stdout.write("v" + s.stateVersion + "\\n");
      }
    `;
    let midCompaction = 0;
    let midAppends = 0;
    let acked = 0;
    for (let round = 0; round < 80; round++) {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      // Kill times spread over the session's appends and its snapshot rewrites, whatever start-up costs.
      await new Promise<void>((res) => child.stdout.once("data", () => res()));
      await new Promise((r) => setTimeout(r, 5 + ((round * 37) % 150)));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      // A temp snapshot left behind: the kill landed inside a compaction.
      if (readdirSync(dir).some((f) => f.startsWith(".state.json.") && f.endsWith(".tmp"))) midCompaction++;
      if (existsSync(journal(dir)) && statSync(journal(dir)).size > 0) midAppends++;
      const versions = [...out.matchAll(/v(\d+)\n/g)].map((m) => Number(m[1]));
      acked = versions[versions.length - 1] ?? acked;
      const st = merged(dir);
      // Everything the writer was told is durable is there (a write in flight may be too).
      expect(st.stateVersion).toBeGreaterThanOrEqual(acked);
      expect(Object.keys(st.nodes)).toHaveLength(3000);
      const attempts = Object.values(st.nodes).reduce((a, n) => a + n.attempts, 0);
      // One attempt per write after each session's first (full) one.
      expect(attempts).toBeGreaterThanOrEqual(acked - 2 * (round + 1));
      if (midCompaction > 0 && midAppends > 0 && round >= 10) break;
    }
    expect(midCompaction).toBeGreaterThan(0);
    expect(midAppends).toBeGreaterThan(0);
  }, 120_000);
});

describe("run directories of the previous layout", () => {
  it("a state.json without a journal reads as before, and its next dirty write starts one", async () => {
    const dir = tempDir();
    const s = state(3);
    s.schemaVersion = 1;
    s.stateVersion = 7;
    writeFileSync(join(dir, "config.json"), JSON.stringify({ toolModules: [], workspace: dir, concurrency: 1 }));
    writeFileSync(join(dir, "state.json"), JSON.stringify(s));
    expect(existsSync(journal(dir))).toBe(false);
    const store = new FileStore(dir, "r");
    const read = (await store.readStateRaw()) as RunState;
    expect(read.stateVersion).toBe(7);
    await store.writeState(read);
    read.nodes.s0!.status = "done";
    await store.writeState(read, ["s0"]);
    expect(merged(dir).nodes.s0!.status).toBe("done");
    expect(JSON.parse(readFileSync(join(dir, "config.json"), "utf8")).stateChecksum).toBe(true);
    truncateSync(journal(dir), 0);
    expect(merged(dir).stateVersion).toBe(8);
  });
});

describe("room laid ahead of the journal's records", () => {
  /** A journal with records past its first page, so the writer has laid room (newlines) ahead of them. */
  async function padded(): Promise<{ dir: string; records: Buffer; file: Buffer; lastStart: number }> {
    const { dir, store, s } = await started(50);
    for (let i = 0; i < 40; i++) {
      s.nodes[`s${i}`]!.status = "done";
      // Longer than a sector: every record, head delta and all, crosses a sector's end.
      s.nodes[`s${i}`]!.lastError = "e".repeat(600);
      await store.writeState(s, [`s${i}`]);
    }
    await store.unlock();
    const file = readFileSync(journal(dir));
    const { journalBytes } = readRunDirState(dir);
    const records = file.subarray(0, journalBytes);
    return { dir, records, file, lastStart: records.lastIndexOf(10, records.length - 2) + 1 };
  }

  it("records past the first page are written into room laid ahead, as newlines every reader skips", async () => {
    const { dir, records, file } = await padded();
    const r = readRunDirState(dir);
    expect(r.replayed).toBe(40);
    expect(r.tornBytes).toBe(0);
    expect((r.doc as unknown as RunState).stateVersion).toBe(41);
    // The file is longer than its records by whole newlines: a line-by-line reader sees the 40 records alone.
    expect(file.length).toBeGreaterThan(records.length);
    expect(file.subarray(records.length).every((b) => b === 10)).toBe(true);
    expect(file.toString("utf8").split("\n").filter(Boolean)).toHaveLength(40);
  });

  it("a record torn inside the room is dropped at every byte it can be cut at, and when only its later part landed", async () => {
    const { dir, file, lastStart } = await padded();
    const lastEnd = file.indexOf(10, lastStart) + 1;
    const room = (bytes: Buffer) => Buffer.concat([bytes, Buffer.alloc(file.length - bytes.length, 10)]);
    for (let cut = lastStart; cut < lastEnd - 1; cut++) {
      writeFileSync(journal(dir), room(file.subarray(0, cut)));
      const r = readRunDirState(dir);
      expect((r.doc as unknown as RunState).stateVersion, `cut at ${cut}`).toBe(40);
      expect(r.tornBytes).toBe(cut - lastStart);
      expect(r.journalBytes).toBe(lastStart);
    }
    // After power loss the record's later sectors may land without its first: newlines, then its tail from a sector on.
    const half = Math.ceil((lastStart + 1) / 512) * 512;
    expect(half).toBeLessThan(lastEnd - 1);
    writeFileSync(journal(dir), room(Buffer.concat([file.subarray(0, lastStart), Buffer.alloc(half - lastStart, 10), file.subarray(half, lastEnd)])));
    expect(merged(dir).stateVersion).toBe(40);
    // A tail beginning mid-sector after newlines is no sector that landed: something edited the file.
    writeFileSync(journal(dir), room(Buffer.concat([file.subarray(0, lastStart), Buffer.alloc(half + 1 - lastStart, 10), file.subarray(half + 1, lastEnd)])));
    expect(() => readRunDirState(dir)).toThrow(/journal\.jsonl is damaged or was edited.*line 40: lines after it that no single torn record explains/);
    // A good record after an empty line was not torn: something edited the file.
    writeFileSync(journal(dir), room(Buffer.concat([file.subarray(0, lastStart), Buffer.from("\n"), file.subarray(lastStart, lastEnd)])));
    expect(() => readRunDirState(dir)).toThrow(/journal\.jsonl is damaged or was edited.*line 40: an empty line before a record/);
    // The next writer drops the torn tail and the room after it, and writes on from the last good record.
    writeFileSync(journal(dir), room(file.subarray(0, half)));
    const next = new FileStore(dir, "r");
    const st = (await next.readStateRaw()) as RunState;
    st.nodes.s45!.status = "done";
    await next.writeState(st);
    st.nodes.s46!.status = "done";
    await next.writeState(st, ["s46"]);
    await next.unlock();
    const after = merged(dir);
    expect(after.stateVersion).toBe(42);
    expect(after.nodes.s39!.status).toBe("pending");
    expect(after.nodes.s46!.status).toBe("done");
  });
});

describe("head deltas in journal records", () => {
  const lines = (dir: string) => readFileSync(journal(dir), "utf8").split("\n").filter(Boolean);
  const recordOf = (line: string) => JSON.parse(line.slice(0, -65)) as Record<string, unknown>;
  const snapshotOf = (s: RunState) => {
    const { summary: _summary, ...rest } = JSON.parse(JSON.stringify(s)) as RunState;
    return rest;
  };

  it("a step's record carries only the head fields it changed, and replays to exactly the state written", async () => {
    const { dir, store, s } = await started(20);
    const written: RunState[] = [];
    for (let i = 0; i < 6; i++) {
      s.nodes[`s${i}`]!.status = "done";
      s.budget.toolCalls++;
      s.budget.elapsedMs += 3;
      // A field that appears, changes and is removed again, as a pause's reason does.
      if (i === 2) s.reason = "waiting";
      if (i === 3) s.status = "paused";
      if (i === 4) {
        delete s.reason;
        s.status = "running";
      }
      await store.writeState(s, [`s${i}`]);
      written.push(snapshotOf(s));
      expect(merged(dir)).toEqual(written[i]);
    }
    const records = lines(dir).map(recordOf);
    expect(records[0]!.h).toMatchObject({ planHash: "a".repeat(64), runId: "r" });
    expect(records[0]!.d).toBeUndefined();
    for (const r of records.slice(1)) {
      expect(r.h).toBeUndefined();
      expect(Object.keys(r.d as object).every((k) => ["updatedAt", "budget", "status", "reason"].includes(k))).toBe(true);
    }
    expect(records[2]!.d).toMatchObject({ reason: "waiting" });
    expect(records[3]!.d).toMatchObject({ status: "paused" });
    expect(records[4]!.d).toMatchObject({ reason: null, status: "running" });
    // A record is about half of what a full head made it.
    expect(Buffer.byteLength(lines(dir)[1]!)).toBeLessThan(Buffer.byteLength(lines(dir)[0]!) * 0.65);
    // A resumed session's first record carries the full head again, then deltas.
    await store.unlock();
    const next = new FileStore(dir, "r");
    const st = (await next.readStateRaw()) as RunState;
    st.nodes.s10!.status = "done";
    await next.writeState(st, ["s10"]);
    st.nodes.s11!.status = "done";
    await next.writeState(st, ["s11"]);
    const after = lines(dir).map(recordOf);
    expect(after).toHaveLength(8);
    expect(after[6]!.h).toBeDefined();
    expect(after[7]!.d).toBeDefined();
    expect(merged(dir)).toEqual(snapshotOf(st));
  });

  it("a delta torn at every byte is dropped, the record before it stands", async () => {
    const { dir, store, s } = await started(5);
    for (const id of ["s0", "s1", "s2"]) {
      s.nodes[id]!.status = "done";
      await store.writeState(s, [id]);
    }
    await store.unlock();
    const full = readFileSync(journal(dir));
    const lastStart = full.lastIndexOf(10, full.length - 2) + 1;
    expect(recordOf(full.subarray(lastStart).toString("utf8").trimEnd()).d).toBeDefined();
    for (let cut = lastStart; cut < full.length - 1; cut++) {
      writeFileSync(journal(dir), full.subarray(0, cut));
      const r = readRunDirState(dir);
      expect((r.doc as unknown as RunState).stateVersion, `cut at ${cut}`).toBe(3);
      expect((r.doc as unknown as RunState).nodes.s2!.status).toBe("pending");
      expect(r.tornBytes).toBe(cut - lastStart);
    }
  });

  it("a forged delta is refused: one that changes the plan or the run, one cut from another journal, one with nothing before it", async () => {
    const { dir, store, s } = await started(5);
    const other = await started(5);
    for (const id of ["s0", "s1", "s2"]) {
      s.nodes[id]!.status = "done";
      await store.writeState(s, [id]);
      other.s.nodes[id]!.status = "done";
      other.s.budget.toolCalls = 99;
      await other.store.writeState(other.s, [id]);
    }
    const own = lines(dir);
    const theirs = lines(other.dir);
    const attempt = (text: string[]) => {
      writeFileSync(journal(dir), `${text.join("\n")}\n`);
      return () => readRunDirState(dir);
    };
    // Another plan's hash slipped into a delta, checksum recomputed.
    const withDelta = (line: string, add: Record<string, unknown>) =>
      resealed(line, (json) => {
        const r = JSON.parse(json) as { d: Record<string, unknown> };
        r.d = { ...add, ...r.d };
        return JSON.stringify(r);
      });
    const planDelta = withDelta(own[1]!, { planHash: "b".repeat(64) });
    expect(attempt([own[0]!, planDelta, own[2]!])).toThrow(/line 2: a head delta that changes planHash/);
    const runDelta = withDelta(own[1]!, { runId: "x" });
    expect(attempt([own[0]!, runDelta])).toThrow(/line 2: a head delta that changes runId/);
    // Another run's delta at the same version: well formed, but it follows another record.
    expect(recordOf(theirs[1]!).v).toBe(recordOf(own[1]!).v);
    expect(attempt([own[0]!, theirs[1]!, own[2]!])).toThrow(/line 2: a head delta that does not follow the record before it/);
    // Its link edited to match is its checksum no longer matching; resealed, the next delta's link breaks.
    const relinked = resealed(own[1]!, (json) => json.replace(/"p":"[0-9a-f]{16}"/, '"p":"0000000000000000"'));
    expect(attempt([own[0]!, relinked, own[2]!])).toThrow(/line 2: a head delta that does not follow/);
    // A delta the journal starts with (its full record removed; the snapshot's version lowered to fit is an edit the checksum refuses, so renumber the delta).
    const first = resealed(own[1]!, (json) => json.replace(/^\{"v":\d+/, '{"v":2'));
    expect(attempt([first])).toThrow(/line 1: a head delta with no full record before it/);
    // A record with a key this reader does not know is refused, not read without it.
    const unknown = resealed(own[2]!, (json) => json.replace(/\}$/, ',"x":{"status":"done"}}'));
    expect(attempt([own[0]!, own[1]!, unknown])).toThrow(/line 3: not a state record \(unknown key "x": a newer planspec's\?\)/);
    // A record with both a full head and a delta is no record either.
    const both = resealed(own[1]!, (json) => JSON.stringify({ ...JSON.parse(json), h: recordOf(own[0]!).h }));
    expect(attempt([own[0]!, both])).toThrow(/line 2: not a state record/);
    // The journal as written still reads.
    expect(attempt(own)()).toMatchObject({ replayed: 3 });
  });

  it("a journal of full-head records (planspec before deltas) still reads, and a new session appends deltas after it", async () => {
    const { dir, store, s } = await started(5);
    await store.unlock();
    // The records an older planspec wrote: every one with the whole head under "h".
    const old: string[] = [];
    for (const id of ["s0", "s1"]) {
      s.stateVersion++;
      s.nodes[id]!.status = "done";
      s.budget.toolCalls++;
      const { nodes, inputs: _inputs, summary: _summary, ...head } = s;
      const json = `{"v":${s.stateVersion},"h":${JSON.stringify(head)},"n":{${JSON.stringify(id)}:${JSON.stringify(nodes[id])}}}`;
      old.push(`${json} ${createHash("sha256").update(json).digest("hex")}`);
    }
    writeFileSync(journal(dir), `${old.join("\n")}\n`);
    expect(merged(dir)).toEqual(snapshotOf(s));
    const next = new FileStore(dir, "r");
    const st = (await next.readStateRaw()) as RunState;
    for (const id of ["s2", "s3"]) {
      st.nodes[id]!.status = "done";
      st.budget.toolCalls++;
      await next.writeState(st, [id]);
    }
    const records = lines(dir).map(recordOf);
    expect(records.map((r) => (r.h ? "h" : "d"))).toEqual(["h", "h", "h", "d"]);
    expect(merged(dir)).toEqual(snapshotOf(st));
    expect(merged(dir).budget.toolCalls).toBe(4);
  });
});

describe("a resumed session's closing snapshot", () => {
  /** state.json rewritten by `edit` and its checksum recomputed (a forger's edit, or this test's marker). */
  const reseal = (dir: string, edit: (text: string) => string) => {
    const file = join(dir, "state.json");
    const text = edit(readFileSync(file, "utf8").replace(/,"checksum":"[0-9a-f]{64}"\}\n$/, ""));
    writeFileSync(file, `${text},"checksum":"${createHash("sha256").update(text).update("}").digest("hex")}"}\n`);
  };
  /** The nodes' lines of a state.json (between `"nodes":{` and the closing `}`). */
  const nodeLines = (dir: string) => readFileSync(join(dir, "state.json"), "utf8").split("\n").slice(2, -2);

  async function resumed(ids: string[], marker: string): Promise<{ dir: string; next: FileStore; st: RunState }> {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), JSON.stringify({ toolModules: [], workspace: dir, concurrency: 1, stateChecksum: true }));
    const s = state(0);
    for (const id of ids) s.nodes[id] = { status: "pending", attempts: 0 };
    const store = new FileStore(dir, "r");
    await store.writeState(s);
    s.nodes[ids[0]!]!.status = "done";
    await store.writeState(s, [ids[0]!]);
    await store.unlock();
    // A node whose line is written otherwise than JSON.stringify writes it (an escaped letter): copied, it stays so.
    reseal(dir, (t) => t.replace(`"${marker}":{"status":"pending","attempts":0}`, `"${marker}":{"status":"pending","attempts":0,"lastError":"\\u0041"}`));
    const next = new FileStore(dir, "r");
    const st = (await next.readStateRaw()) as RunState;
    return { dir, next, st };
  }

  it("copies the lines of the nodes nothing changed since the snapshot read, serialises the others, and reads back as the state", async () => {
    const ids = Array.from({ length: 3000 }, (_, i) => `s${i}`);
    const { dir, next, st } = await resumed(ids, "s7");
    expect(nodeLines(dir)).toHaveLength(3000);
    st.nodes.s5!.status = "running";
    await next.writeState(st, ["s5"]);
    st.nodes.s5!.status = "done";
    st.nodes.added = { status: "pending", attempts: 0 };
    st.status = "done";
    await next.writeState(st, ["s5", "added"], { snapshot: true });
    const closing = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as RunState & { checksum?: string };
    delete closing.checksum;
    expect(closing).toEqual(merged(dir));
    expect(Object.keys(closing.nodes)).toEqual([...ids, "added"]);
    expect(closing.nodes.s0!.status).toBe("done");
    expect(closing.nodes.s5!.status).toBe("done");
    expect(closing.nodes.s7!.lastError).toBe("A");
    const lines = nodeLines(dir);
    expect(lines).toHaveLength(3001);
    // Copied as read: the escaped letter is still escaped; the replayed node (s0) and the changed ones serialised.
    expect(lines[7]).toBe('"s7":{"status":"pending","attempts":0,"lastError":"\\u0041"},');
    expect(lines[0]).toBe('"s0":{"status":"done","attempts":0},');
    expect(lines[3000]).toBe('"added":{"status":"pending","attempts":0}');
  });

  it("serialises every node when the snapshot's lines are not its nodes in order: ids that are array indexes, two nodes on a line", async () => {
    const numeric = await resumed(["10", "2", "x", "1"], "x");
    numeric.st.status = "done";
    await numeric.next.writeState(numeric.st, [], { snapshot: true });
    const a = JSON.parse(readFileSync(join(numeric.dir, "state.json"), "utf8")) as RunState;
    expect(Object.keys(a.nodes)).toEqual(["1", "2", "10", "x"]);
    expect(a.nodes["10"]!.status).toBe("done");
    expect(nodeLines(numeric.dir)[3]).toBe('"x":{"status":"pending","attempts":0,"lastError":"A"}');

    const ids = Array.from({ length: 50 }, (_, i) => `s${i}`);
    const { dir } = await resumed(ids, "s9");
    // A forger joins two lines (checksum recomputed): the next snapshot is still the state, written afresh.
    reseal(dir, (t) => t.replace('"s3":{"status":"pending","attempts":0},\n', '"s3":{"status":"pending","attempts":0},'));
    const again = new FileStore(dir, "r");
    const st2 = (await again.readStateRaw()) as RunState;
    st2.nodes.s4!.attempts = 4;
    st2.status = "done";
    await again.writeState(st2, ["s4"], { snapshot: true });
    const b = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as RunState & { checksum?: string };
    delete b.checksum;
    expect(b).toEqual(merged(dir));
    expect(Object.keys(b.nodes)).toEqual(ids);
    expect(b.nodes.s4!.attempts).toBe(4);
    expect(nodeLines(dir)).toHaveLength(50);
    expect(nodeLines(dir)[9]).toBe('"s9":{"status":"pending","attempts":0,"lastError":"A"},');
  });
});
