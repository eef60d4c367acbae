/**
 * The status view from the writer's overview (overview.ts) and the journal after it is
 * the view from the whole state: the same text, over random runs — steps done, failed,
 * skipped, retried, reset, approved, rejected and waiting, overviews made at random
 * points, snapshots between — or no view at all (the whole read then answers). The
 * real file store writes; the real readers read.
 */
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileStore } from "../../src/runtime/file-store.js";
import { loadRun, loadRunOverview } from "../../src/runtime/load.js";
import { NotKept, OVERVIEW_FILE } from "../../src/runtime/overview.js";
import { newRunState } from "../../src/runtime/run.js";
import type { NodeState, RunState } from "../../src/runtime/store.js";
import { statusWithFacts } from "../../src/runtime/summary.js";
import { plan as compile, tempDir } from "./helpers.js";

const STEPS = 120;
const yaml =
  `planspec: 1\nname: mixed\ngoal: Steps in every state\ntools: { t: { risk: read } }\nsteps:\n` +
  Array.from({ length: STEPS }, (_, i) => `  s${i}: { kind: analyze, goal: step ${i}, tool: t${i % 3 ? `, needs: [s${i - 1}]` : ""} }\n`).join("");

/** A small seeded generator: a failure names its seed and replays. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const at = "2026-12-02T10:00:00.000Z";
const later = "2026-12-02T10:00:01.250Z";

async function view(dir: string, fast: boolean): Promise<string | "none" | "not kept"> {
  const store = new FileStore(dir, "r");
  const loaded = fast ? await loadRunOverview(store) : await loadRun(store, { lazyNodes: true });
  if (loaded === undefined) return "none";
  try {
    return await statusWithFacts(loaded.plan, loaded.state, (ref) => store.getArtifact(ref));
  } catch (err) {
    if (err instanceof NotKept) return "not kept";
    throw err;
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe("status from the overview and the journal's tail", () => {
  it("reads as the whole state reads, or not at all, over random runs", async () => {
    // The writer refreshes the overview once a second: the test moves its clock.
    vi.useFakeTimers({ toFake: ["performance"] });
    const p = compile(yaml);
    const tally = { same: 0, none: 0, notKept: 0 };
    for (let seed = 1; seed <= 6; seed++) {
      const rnd = random(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
      const dir = tempDir("planspec-overview-");
      const store = new FileStore(dir, "r");
      const state: RunState = newRunState(p, "r", {});
      await store.create(p, { toolModules: [], workspace: dir, concurrency: 1 }, state);
      const refs = [(await store.putArtifact({ rows: 12, ok: true }, false)).ref, (await store.putArtifact({ text: "x".repeat(200) }, false)).ref];
      const states: Array<() => NodeState> = [
        () => ({ status: "pending", attempts: 0 }),
        () => ({ status: "pending", attempts: 1, lastError: "reset" }),
        () => ({ status: "running", attempts: 1, startedAt: at }),
        () => ({ status: "done", attempts: 1, startedAt: at, endedAt: later, outputRef: pick(refs) }),
        () => ({ status: "done", attempts: 2, startedAt: at, endedAt: later }),
        () => ({ status: "done", attempts: 1, startedAt: at, endedAt: later, decision: { decision: "approved", by: "ana", at } }),
        () => ({ status: "failed", attempts: 3, startedAt: at, endedAt: later, lastError: "HTTP 500" }),
        () => ({ status: "skipped", attempts: 0, skipReason: "when was false" }),
        () => ({ status: "pending", attempts: 0, decision: { decision: "rejected", by: "bo", note: "not now", at } }),
        () => ({ status: "pending", attempts: 0, awaiting: { kind: "approval", since: at } }),
      ];
      let front = 0;
      const saved = join(dir, "older-overview.json");
      for (let step = 0; step < 300; step++) {
        const dirty = new Set<string>();
        const r = rnd();
        if (r < 0.6 && front < STEPS) {
          // The usual: the next step runs to done, with an output or without.
          const id = `s${front++}`;
          state.nodes[id] = rnd() < 0.7 ? { status: "done", attempts: 1, startedAt: at, endedAt: later, outputRef: pick(refs) } : { status: "done", attempts: 1, startedAt: at, endedAt: later };
          dirty.add(id);
        } else {
          for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) {
            const id = `s${Math.floor(rnd() * STEPS)}`;
            state.nodes[id] = pick(states)();
            dirty.add(id);
          }
        }
        if (rnd() < 0.05) state.status = pick(["running", "paused", "failed"] as const);
        state.budget.toolCalls++;
        if (rnd() < 0.02) await store.writeState(state);
        else await store.writeState(state, dirty);
        if (rnd() < 0.2) vi.advanceTimersByTime(1100);
        // An older overview of the same journal is as good as the latest: a longer tail to replay.
        if (rnd() < 0.1 && existsSync(join(dir, OVERVIEW_FILE))) copyFileSync(join(dir, OVERVIEW_FILE), saved);
        const restored = rnd() < 0.3 && existsSync(saved);
        if (restored) copyFileSync(saved, join(dir, OVERVIEW_FILE));
        const full = await view(dir, false);
        const fast = await view(dir, true);
        if (fast === "none") tally.none++;
        else if (fast === "not kept") tally.notKept++;
        else {
          expect(fast, `seed ${seed}, write ${step}`).toBe(full);
          tally.same++;
        }
      }
    }
    // The overview answers most of the time; the rest are overviews of another snapshot
    // (none until the next record) and views that needed a step it left out.
    expect(tally.same).toBeGreaterThan(900);
    expect(tally.none).toBeGreaterThan(0);
    expect(tally.notKept + tally.none + tally.same).toBe(1800);
  });

  it("a view that needs a done step the overview left out reads the whole state", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const p = compile(yaml);
    const dir = tempDir("planspec-overview-");
    const store = new FileStore(dir, "r");
    const state = newRunState(p, "r", {});
    await store.create(p, { toolModules: [], workspace: dir, concurrency: 1 }, state);
    // Every step done with an output, in one record: the overview keeps the last ten whole.
    const { ref } = await store.putArtifact({ rows: 3 }, false);
    // A session's first overview comes a second after its first record.
    state.nodes.s0 = { status: "running", attempts: 1, startedAt: at };
    await store.writeState(state, ["s0"]);
    expect(existsSync(join(dir, OVERVIEW_FILE))).toBe(false);
    vi.advanceTimersByTime(1100);
    for (let i = 0; i < STEPS; i++) state.nodes[`s${i}`] = { status: "done", attempts: 1, startedAt: at, endedAt: later, outputRef: ref };
    await store.writeState(state, Object.keys(state.nodes));
    expect(existsSync(join(dir, OVERVIEW_FILE))).toBe(true);
    // Then the last fifteen reset, one record after the overview: the table's last done
    // steps are ones whose state the overview left out.
    const reset = Array.from({ length: 15 }, (_, i) => `s${STEPS - 1 - i}`);
    for (const id of reset) state.nodes[id] = { status: "pending", attempts: 0 };
    await store.writeState(state, reset);
    expect(await view(dir, true)).toBe("not kept");
    const full = await view(dir, false);
    expect(full).toMatch(/s104\s+done/);
  });

  it("an overview of an earlier revision is not laid over a revision's order", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    // Two revisions of the same steps, the second listing them the other way round.
    const steps = (ids: number[]) => ids.map((i) => `  s${i}: { kind: analyze, goal: step ${i}, tool: t }\n`).join("");
    const head = `planspec: 1\nname: flip\ngoal: Steps in some order\ntools: { t: { risk: read } }\nsteps:\n`;
    const ids = Array.from({ length: 30 }, (_, i) => i);
    const p0 = compile(head + steps(ids));
    const p1 = compile(head + steps([...ids].reverse()));
    expect(p1.order).toEqual([...p0.order].reverse());
    const dir = tempDir("planspec-overview-");
    const store = new FileStore(dir, "r");
    const state = newRunState(p0, "r", {});
    await store.create(p0, { toolModules: [], workspace: dir, concurrency: 1 }, state);
    state.nodes.s0 = { status: "running", attempts: 1, startedAt: at };
    await store.writeState(state, ["s0"]);
    vi.advanceTimersByTime(1100);
    // The first twenty done, with outputs: the overview keeps the last ten whole and marks
    // the others by place in revision 0's order.
    const { ref } = await store.putArtifact({ rows: 1 }, false);
    for (let i = 0; i < 20; i++) state.nodes[`s${i}`] = { status: "done", attempts: 1, startedAt: at, endedAt: later, outputRef: ref };
    await store.writeState(state, ids.slice(0, 20).map((i) => `s${i}`));
    expect(existsSync(join(dir, OVERVIEW_FILE))).toBe(true);
    // Revision 1, recorded in the journal (no step left the state): the same ids, another order.
    await store.saveRevision(1, p1);
    state.revision = 1;
    state.planHash = p1.planHash;
    state.planDigest = store.planDigest(1) ?? (await store.readPlan(1), store.planDigest(1));
    state.nodes.s20 = { status: "running", attempts: 1, startedAt: at };
    await store.writeState(state, ["s20"]);
    // The marks are of revision 0's order: laid over revision 1's they would put s29..s20
    // among the done and s9..s0 among the untouched. The whole read answers instead.
    expect(await view(dir, true)).toBe("none");
    expect(await view(dir, false)).toMatch(/Done 20\/30/);
  });
});
