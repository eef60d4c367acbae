/**
 * Directories and logs of a run directory that the store makes lazily or writes in place
 * (revisions/, the journal), found planted as symlinks to elsewhere: the store refuses
 * them and writes nothing outside the run. Real files; the CLI's artifacts/ and
 * journal.jsonl cases are in test/cli/journal-attack.test.ts.
 */
import { readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
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
});
