import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileStore, readRunDirState } from "../../src/runtime/file-store.js";
import { acquireLock, releaseLock } from "../../src/runtime/lock.js";
import { LockHeldError, type RunState } from "../../src/runtime/store.js";
import { tempDir } from "./helpers.js";

const root = join(import.meta.dirname, "../..");

function state(n: number): RunState {
  const nodes: RunState["nodes"] = {};
  for (let i = 0; i < n; i++) nodes[`s${i}`] = { status: "pending", attempts: 0 };
  return {
    schemaVersion: 2,
    stateVersion: 0,
    runId: "r",
    planHash: "0".repeat(64),
    revision: 0,
    status: "running",
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    inputs: {},
    nodes,
    budget: { toolCalls: 0, startedAt: new Date().toISOString(), elapsedMs: 0 },
  };
}

describe("FileStore", () => {
  it("writes state.json atomically, then journals dirty nodes, stateVersion +1 per write", async () => {
    const dir = tempDir();
    const store = new FileStore(dir, "r");
    const s = state(3);
    await store.writeState(s);
    s.nodes.s1!.status = "running";
    await store.writeState(s, ["s1"]);
    expect((JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as RunState).stateVersion).toBe(1);
    const onDisk = readRunDirState(dir).doc as unknown as RunState;
    expect(onDisk.stateVersion).toBe(2);
    expect(onDisk.nodes.s1!.status).toBe("running");
    expect(Object.keys(onDisk.nodes)).toEqual(["s0", "s1", "s2"]);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("stores artifacts content-addressed and write-once, and detects altered ones", async () => {
    const dir = tempDir();
    const store = new FileStore(dir, "r");
    const a = await store.putArtifact({ big: "x".repeat(1000) }, false);
    const b = await store.putArtifact({ big: "x".repeat(1000) }, true);
    expect(b).toEqual(a);
    expect(a.ref).toBe(`artifacts/${a.hash}.json`);
    expect(await store.getArtifact(a.ref)).toEqual({ big: "x".repeat(1000) });
    expect(await store.checkArtifact(a.ref, a.hash)).toBe(true);
    writeFileSync(join(dir, a.ref), '{"big":"tampered"}');
    expect(await store.checkArtifact(a.ref, a.hash)).toBe(false);
  });

  it("appends events with increasing seq across store instances and survives a torn last line", async () => {
    const dir = tempDir();
    const s1 = new FileStore(dir, "r");
    s1.appendEvent("a", {});
    s1.appendEvent("b", { x: 1 });
    await s1.unlock();
    writeFileSync(join(dir, "events.jsonl"), readFileSync(join(dir, "events.jsonl"), "utf8") + '{"seq":2,"ti');
    const s2 = new FileStore(dir, "r");
    const e = s2.appendEvent("c", {});
    expect(e.seq).toBe(2);
    const events = await s2.readEvents();
    expect(events.map((x) => [x.seq, x.type])).toEqual([
      [0, "a"],
      [1, "b"],
      [2, "c"],
    ]);
    expect(events[0]!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("persists idempotency records", async () => {
    const dir = tempDir();
    await new FileStore(dir, "r").recordIdempotency("k1", "artifacts/x.json");
    const again = await new FileStore(dir, "r").readIdempotency();
    expect(again.k1!.resultRef).toBe("artifacts/x.json");
  });

  it("the state always reads back when the writer is killed with SIGKILL mid-loop", async () => {
    const dir = tempDir();
    const script = `
      import { FileStore } from ${JSON.stringify(join(root, "dist/runtime/file-store.js"))};
      const store = new FileStore(${JSON.stringify(dir)}, "r");
      const s = ${JSON.stringify(state(2000))};
      let i = 0;
      process.stdout.write("ready\\n");
      for (;;) { const id = "s" + (i++ % 2000); s.nodes[id].status = s.nodes[id].status === "done" ? "pending" : "done"; s.nodes[id].lastError = "e".repeat(i % 300); await store.writeState(s, [id]); }
    `;
    for (let round = 0; round < 4; round++) {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
      await new Promise<void>((res) => child.stdout.once("data", () => res()));
      await new Promise((r) => setTimeout(r, 150 + round * 70));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      const parsed = readRunDirState(dir, () => ({ toolModules: [], workspace: dir, concurrency: 1, stateChecksum: true })).doc as unknown as RunState;
      expect(Object.keys(parsed.nodes)).toHaveLength(2000);
      expect(parsed.stateVersion).toBeGreaterThan(0);
    }
  });
});

describe("lock", () => {
  it("refuses a lock held by a live process and takes over a stale one", async () => {
    const dir = tempDir();
    const file = join(dir, "lock");
    const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)"]);
    writeFileSync(file, JSON.stringify({ pid: live.pid, startedAt: "then", host: (await import("node:os")).hostname() }));
    expect(() => acquireLock(file)).toThrow(LockHeldError);
    live.kill("SIGKILL");
    await new Promise((r) => live.once("exit", r));
    expect(acquireLock(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8")).pid).toBe(process.pid);
    releaseLock(file);
    expect(existsSync(file)).toBe(false);
  });
});
