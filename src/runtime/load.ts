/**
 * Reading a run without running it: open a run directory, load and check its state and
 * plan. Kept apart from run.ts so `status`, `report` and `diff` do not load the gateway,
 * the tools and the MCP client just to read a run (half a second of imports).
 */
import { existsSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { planHash } from "../compiler/canonical.js";
import type { PlanIR } from "../ir.js";
import { FileStore } from "./file-store.js";
import { InputError } from "./inputs.js";
import { loadState, StateError } from "./migrations.js";
import { indexedPlan, overviewNodes, readOverview } from "./overview.js";
import { IntegrityError, type RunConfig, type RunState, type Store } from "./store.js";

/** Opens an existing run directory as a store (checks that it holds a run). */
export function openRun(dir: string): FileStore {
  if (!existsSync(resolve(dir, "state.json"))) throw new InputError(`${dir} is not a run directory (no state.json)`);
  return new FileStore(dir, basename(dir));
}

/** Where a run keeps `name`, for messages: the file in a run directory, else the store and run. */
export function placeOf(store: Store, name: string): string {
  return store instanceof FileStore ? join(store.dir, name) : `${name} of run ${store.runId} in ${store.location}`;
}

/**
 * Reads one of a run's documents; a file that is not JSON (or not the document) is a
 * one-line StateError naming it. The parser's message is not kept: it quotes the content.
 */
async function readDocument<T>(store: Store, name: string, read: () => Promise<T>, valid: (v: T) => boolean): Promise<T> {
  let value: T;
  try {
    value = await read();
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new StateError(`${placeOf(store, name)} is not valid JSON (the file is corrupt): restore it from a backup or start the run again`);
  }
  if (!valid(value)) throw new StateError(`${placeOf(store, name)} does not hold a run's ${name.replace(/\.json$/, "")}: restore it from a backup or start the run again`);
  return value;
}

/** The run's config.json, or one line naming the file when it is corrupt. */
export function readRunConfig(store: Store): Promise<RunConfig> {
  return readDocument(store, "config.json", () => store.readConfig(), (c) => isObject(c) && typeof c.workspace === "string");
}

const isObject = (v: unknown): boolean => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Loads, migrates and validates a run's state and its current plan. `lazyNodes`: the plan's
 * nodes are parsed as they are looked at (a reader of a few, as `status`), when the plan
 * file's bytes are the ones the run recorded; the plan is then read-only.
 */
export async function loadRun(store: Store, opts?: { lazyNodes?: boolean }): Promise<{ state: RunState; plan: PlanIR; migratedFrom?: number }> {
  const raw = await readDocument(store, "state.json", () => store.readStateRaw(), isObject);
  let loaded: Awaited<ReturnType<typeof loadState>>;
  try {
    loaded = await loadState(raw);
  } catch (err) {
    if (!(err instanceof StateError)) throw err;
    const broken = /invalid|not an object/.test(err.message) ? "; restore it from a backup or start the run again" : "";
    throw new StateError(`${err.message.replace(/^state\.json/, placeOf(store, "state.json"))}${broken}`);
  }
  const { state, migratedFrom } = loaded;
  const planName = state.revision === 0 ? "plan.ir.json" : join("revisions", `${state.revision}.ir.json`);
  const validPlan = (p: PlanIR) => isObject(p) && typeof p.planHash === "string" && Array.isArray(p.nodes);
  const lazy = opts?.lazyNodes === true && store instanceof FileStore;
  let plan = await readDocument(store, planName, () => (lazy ? store.readPlan(state.revision, { lazyNodes: true }) : store.readPlan(state.revision)), validPlan);
  // Bytes other than the recorded ones are checked by their content, which needs every node.
  if (lazy && (state.planDigest === undefined || store.planDigest(state.revision) !== state.planDigest)) plan = await readDocument(store, planName, () => store.readPlan(state.revision), validPlan);
  if (plan.planHash !== state.planHash) {
    throw new InputError(`state.json names plan ${state.planHash.slice(0, 12)} but the run's plan is ${plan.planHash.slice(0, 12)}; record a change with planspec revise`);
  }
  // The plan's own planHash field proves nothing about its content: hash the content.
  // Bytes identical to the ones recorded in the (checksummed) state were checked before.
  const digest = store instanceof FileStore ? store.planDigest(state.revision) : undefined;
  if (digest === undefined || digest !== state.planDigest) {
    const actual = planHash(plan);
    if (actual !== state.planHash) {
      const file = state.revision === 0 ? "plan.ir.json" : `revisions/${state.revision}.ir.json`;
      throw new IntegrityError(`${store.location}/${file} was edited outside planspec (its content hashes to ${actual.slice(0, 12)}, the run recorded ${state.planHash.slice(0, 12)}); record a change with planspec revise, or start a new run`);
    }
    // Kept by the next write, so the next reader hashes bytes instead.
    if (digest !== undefined) state.planDigest = digest;
  }
  return { state, plan, ...(migratedFrom !== undefined ? { migratedFrom } : {}) };
}

/**
 * A run in progress or killed as its overview (overview.ts) and the journal after it show
 * it, for `status`: the head and the few steps' states a status prints, every other step
 * by its status alone (reading more of one throws `NotKept`). Undefined when the
 * overview cannot be believed, or the state or plan would need more than this reader
 * checks (a migration, plan bytes other than the recorded ones): `loadRun` then reads
 * and checks the whole state, and reports what is wrong.
 */
export async function loadRunOverview(store: FileStore): Promise<{ state: RunState; plan: PlanIR } | undefined> {
  const read = readOverview(store.dir);
  if (read === undefined) return undefined;
  let state: RunState;
  try {
    // The head and the states it has are validated as a state's; the steps known by their status alone are added after.
    const loaded = await loadState({ ...read.head, inputs: {}, nodes: read.states });
    if (loaded.migratedFrom !== undefined) return undefined;
    state = loaded.state;
  } catch {
    return undefined;
  }
  // The plan file as the writer checked it and indexed it (both unchanged), else read and hashed here against the state's digest.
  let plan: PlanIR | undefined;
  try {
    const paths = store.planPaths(state.revision);
    if (read.plan !== undefined) plan = indexedPlan(paths.plan, paths.index, read.plan.file, read.plan.index);
    if (plan === undefined) {
      plan = await store.readPlan(state.revision, { lazyNodes: true });
      if (state.planDigest === undefined || store.planDigest(state.revision) !== state.planDigest) return undefined;
    }
  } catch {
    return undefined;
  }
  if (plan === undefined || plan.planHash !== state.planHash || !Array.isArray(plan.order)) return undefined;
  const nodes = overviewNodes(read, plan.order);
  if (nodes === undefined) return undefined;
  state.nodes = nodes;
  return { state, plan };
}
