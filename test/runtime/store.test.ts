import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
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
      // Ready once the first write is on file: a kill before it leaves no state at all (no run), which is not what this checks.
      for (;;) { const id = "s" + (i++ % 2000); s.nodes[id].status = s.nodes[id].status === "done" ? "pending" : "done"; s.nodes[id].lastError = "e".repeat(i % 300); await store.writeState(s, [id]); if (i === 1) process.stdout.write("ready\\n"); }
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

describe("FileStore.create", () => {
  it("a creator killed with SIGKILL at any instant leaves no run or a whole one, and a new create takes the directory over", async () => {
    const base = tempDir();
    // A plan large enough that writing and syncing it takes a while: kills land mid-create.
    const bigPlan = () => ({ irVersion: 1, name: "big", nodes: Array.from({ length: 3000 }, (_, i) => ({ id: `s${i}`, goal: "g".repeat(200) })) });
    const plan = bigPlan();
    const script = `
      import { FileStore } from ${JSON.stringify(join(root, "dist/runtime/file-store.js"))};
      const plan = (${bigPlan.toString()})();
      const s = ${JSON.stringify(state(3))};
      process.stdout.write("ready\\n");
      for (let i = 0; ; i++) {
        const store = new FileStore(${JSON.stringify(base)} + "/r" + i, "r" + i);
        await store.lock();
        await store.create(plan, { toolModules: [], workspace: "/", concurrency: 1 }, { ...s, stateVersion: 0, nodes: structuredClone(s.nodes) });
        await store.unlock();
      }
    `;
    const config = () => ({ toolModules: [], workspace: base, concurrency: 1, stateChecksum: true });
    let whole = 0;
    let none = 0;
    for (let round = 0; round < 6; round++) {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"], cwd: base });
      await new Promise<void>((res) => child.stdout.once("data", () => res()));
      await new Promise((r) => setTimeout(r, 40 + round * 37));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      for (const name of readdirSync(base).filter((n) => /^r\d+$/.test(n))) {
        const dir = join(base, name);
        if (existsSync(join(dir, "state.json"))) {
          const st = readRunDirState(dir, config).doc as unknown as RunState;
          expect(st.stateVersion).toBe(1);
          // The plan and config it names are whole: the state appears only after them.
          expect(createHash("sha256").update(readFileSync(join(dir, "plan.ir.json"))).digest("hex")).toBe(st.planDigest);
          expect(JSON.parse(readFileSync(join(dir, "config.json"), "utf8")).stateChecksum).toBe(true);
          whole++;
        } else {
          // No run: a new create in the same directory makes one.
          const store = new FileStore(dir, name);
          await store.lock();
          await store.create(plan as never, { toolModules: [], workspace: base, concurrency: 1 }, state(3));
          await store.unlock();
          expect((readRunDirState(dir).doc as unknown as RunState).stateVersion).toBe(1);
          expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
          none++;
        }
        rmSync(dir, { recursive: true, force: true });
      }
    }
    expect(whole).toBeGreaterThan(0);
    expect(none).toBeGreaterThan(0);
  }, 60_000);
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

describe("events.jsonl", () => {
  it("holds every event appended before a state write, and the rest once the store lets go", async () => {
    const dir = tempDir();
    const store = new FileStore(dir, "r");
    const s = state(2);
    await store.writeState(s);
    store.appendEvent("before.write", {});
    s.nodes.s0!.status = "running";
    await store.writeState(s, ["s0"]);
    const types = () => readFileSync(join(dir, "events.jsonl"), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types()).toEqual(["before.write"]);
    store.appendEvent("after.write", {});
    await store.unlock();
    expect(types()).toEqual(["before.write", "after.write"]);
  });

  it("a process killed inside a tool leaves the tool's call on file, after the state write that marked its step running", async () => {
    const dir = tempDir();
    const tools = join(dir, "tools.mjs");
    writeFileSync(tools, `export default { t: { risk: "read", run: (args, ctx) => { if (ctx.stepId === "s2") process.kill(process.pid, "SIGKILL"); return { i: args.i }; } } };`);
    const steps = [0, 1, 2, 3].map((i) => `  s${i}: { kind: analyze, goal: step ${i}, tool: t, with: { i: ${i} }${i ? `, needs: [s${i - 1}]` : ""}, output: r${i} }`).join("\n");
    const yaml = `planspec: 1\nname: kill\ngoal: killed in s2\ntools: { t: { risk: read } }\nlimits: { max_tool_calls: 10 }\nsteps:\n${steps}\n`;
    const script = `
      import { compileSource } from ${JSON.stringify(join(root, "dist/compiler/index.js"))};
      import { startRun } from ${JSON.stringify(join(root, "dist/runtime/run.js"))};
      const ir = compileSource("kill.plan.yaml", ${JSON.stringify(yaml)}).ir;
      await startRun({ plan: ir, runDir: ${JSON.stringify(join(dir, "run"))}, cwd: ${JSON.stringify(dir)}, inputs: {}, toolModules: [${JSON.stringify(tools)}], concurrency: 1 });
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "inherit"] });
    const signal = await new Promise((r) => child.once("exit", (_code, sig) => r(sig)));
    expect(signal).toBe("SIGKILL");
    const events = readFileSync(join(dir, "run", "events.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { seq: number; type: string; data: Record<string, unknown> });
    expect(events.map((e) => e.seq)).toEqual(events.map((_e, i) => i));
    const calls = events.filter((e) => e.type === "tool.call").map((e) => e.data.node);
    expect(calls).toEqual(["s0", "s1", "s2"]);
    expect(events.at(-1)!.type).toBe("tool.call");
    expect(readRunDirState(join(dir, "run")).doc).toMatchObject({ nodes: { s1: { status: "done" }, s2: { status: "running" }, s3: { status: "pending" } } });
  });
});
