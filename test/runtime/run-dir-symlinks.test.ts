/**
 * Directories and logs of a run directory that the store makes lazily or writes in place
 * (revisions/, the journal), found planted as symlinks to elsewhere: the store refuses
 * them and writes nothing outside the run. Real files; the CLI's artifacts/ and
 * journal.jsonl cases are in test/cli/journal-attack.test.ts.
 */
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempNameFor } from "../../src/runtime/atomic.js";
import { FileStore } from "../../src/runtime/file-store.js";
import type { PlanIR } from "../../src/ir.js";
import type { RunState } from "../../src/runtime/store.js";
import { tempDir } from "./helpers.js";

function state(): RunState {
  return {
    runId: "r",
    planHash: "p",
    revision: 0,
    status: "running",
    stateVersion: 0,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    inputs: {},
    budget: { toolCalls: 0, elapsedMs: 0, llmTokens: 0, costUsd: 0 },
    nodes: { a: { status: "pending", attempts: 0 } },
  } as unknown as RunState;
}

describe("a run directory with planted symlinks", () => {
  it("revisions/ as a symlink to elsewhere: the revision is refused, nothing is written there", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), JSON.stringify({ toolModules: [], workspace: dir, concurrency: 1, stateChecksum: true }));
    const store = new FileStore(dir, "r");
    await store.writeState(state());
    const outside = tempDir();
    symlinkSync(outside, join(dir, "revisions"));
    await expect(store.saveRevision(1, { name: "x" } as unknown as PlanIR)).rejects.toThrow(/revisions is not a directory of the run \(a symlink\)/);
    expect(readdirSync(outside)).toEqual([]);
    await store.unlock();
  });

  it("state.json's temp name (pid and counter: predictable) planted as a symlink: the state is written beside it, the file it points to untouched", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), JSON.stringify({ toolModules: [], workspace: dir, concurrency: 1, stateChecksum: true }));
    const store = new FileStore(dir, "r");
    await store.writeState(state());
    const victim = join(tempDir(), "victim.txt");
    writeFileSync(victim, "keep me\n");
    // The next temp names this process can give state.json.
    const counter = Number(/\.(\d+)\.tmp$/.exec(tempNameFor(join(dir, "x")))![1]);
    for (let i = 1; i <= 20; i++) symlinkSync(victim, join(dir, `.state.json.${process.pid}.${counter + i}.tmp`));
    const s = state();
    s.stateVersion = 1;
    await store.writeState(s);
    expect(readFileSync(victim, "utf8")).toBe("keep me\n");
    expect(JSON.parse(readFileSync(join(dir, "state.json"), "utf8")).stateVersion).toBe(2);
    await store.unlock();
  });

  it("the lock's claim file (pid and counter: predictable) planted as a symlink: the lock is taken, the file it points to untouched", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), JSON.stringify({ toolModules: [], workspace: dir, concurrency: 1, stateChecksum: true }));
    const victim = join(tempDir(), "victim.txt");
    writeFileSync(victim, "keep me\n");
    // Every claim name this process can use for the next hundreds of locks.
    for (let i = 1; i <= 400; i++) symlinkSync(victim, join(dir, `.lock-${process.pid}-${i}.claim`));
    const store = new FileStore(dir, "r");
    await store.lock();
    await store.writeState(state());
    await store.unlock();
    expect(readFileSync(victim, "utf8")).toBe("keep me\n");
    expect(JSON.parse(readFileSync(join(dir, "state.json"), "utf8")).stateVersion).toBe(1);
  });
});
