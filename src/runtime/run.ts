/**
 * Starting and resuming runs: the glue between a plan, a store, the tool registry, the
 * gateway and the scheduler. Holds the run's lock for the whole session.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { PlanIR } from "../ir.js";
import { FileStore } from "./file-store.js";
import { Gateway } from "./gateway.js";
import { InputError, resolveInputs } from "./inputs.js";
import { loadState } from "./migrations.js";
import { secretValues } from "./redact.js";
import { checkForResume, type ResumeReport } from "./resume.js";
import { Scheduler, type RunOutcome } from "./scheduler.js";
import { planHash } from "../compiler/canonical.js";
import { IntegrityError, nowIso, STATE_SCHEMA_VERSION, type RunConfig, type RunEvent, type RunState, type Store } from "./store.js";
import { checkCatalogue, loadTools, ToolSetupError } from "./tools/registry.js";

export interface SessionOptions {
  concurrency?: number;
  env?: NodeJS.ProcessEnv;
  /** Sees every event this session appends (progress display). */
  onEvent?: (e: RunEvent) => void;
  /** Called after each durable state write (fault injection for crash tests and evals). */
  afterStateWrite?: (stateVersion: number) => void;
}

function instrument(store: Store, hook: SessionOptions["afterStateWrite"]): void {
  if (!hook) return;
  const write = store.writeState.bind(store);
  store.writeState = async (state, dirty) => {
    await write(state, dirty);
    hook(state.stateVersion);
  };
}

export interface StartOptions extends SessionOptions {
  plan: PlanIR;
  /** The run's own directory; default `<cwd>/.planspec/runs/<run-id>`. */
  runDir?: string;
  runId?: string;
  cwd: string;
  inputs: Record<string, unknown>;
  toolModules: string[];
  workspace?: string;
  planFile?: string;
  /** Hold the run in this store (e.g. PostgreSQL) instead of a run directory; its runId is the run's. */
  store?: Store;
}

export interface SessionResult {
  runId: string;
  dir: string;
  outcome: RunOutcome;
  resume?: ResumeReport;
  migratedFrom?: number;
}

/** A new run id: the plan name, a UTC timestamp and a random suffix. */
export function newRunId(planName: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");
  return `${planName}-${stamp}-${randomBytes(2).toString("hex")}`;
}

/** The directory that holds runs under a working directory. */
export function runsRoot(cwd: string): string {
  return resolve(cwd, ".planspec", "runs");
}

function emitter(store: Store, onEvent?: (e: RunEvent) => void) {
  return (type: string, data: Record<string, unknown>) => {
    const e = store.appendEvent(type, data);
    onEvent?.(e);
  };
}

/** The first state of a run: every step pending. */
export function newRunState(plan: PlanIR, runId: string, inputs: Record<string, unknown>): RunState {
  const now = nowIso();
  return {
    schemaVersion: STATE_SCHEMA_VERSION,
    stateVersion: 0,
    runId,
    planHash: plan.planHash,
    revision: 0,
    status: "running",
    createdAt: now,
    updatedAt: now,
    inputs,
    nodes: Object.fromEntries(plan.nodes.map((n) => [n.id, { status: "pending" as const, attempts: 0 }])),
    budget: { toolCalls: 0, startedAt: now, elapsedMs: 0 },
  };
}

/** Loads the tool modules and checks them against the plan's catalogue. */
export async function setupTools(plan: PlanIR, modules: string[]) {
  const registry = await loadTools(modules);
  const problems = checkCatalogue(plan, registry);
  if (problems.length > 0) throw new ToolSetupError(problems.join("\n"));
  return registry;
}

/** Starts a run of `plan` and executes it until it ends or pauses. */
export async function startRun(opts: StartOptions): Promise<SessionResult> {
  const runId = opts.store?.runId ?? opts.runId ?? (opts.runDir ? basename(resolve(opts.cwd, opts.runDir)) : newRunId(opts.plan.name));
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(runId)) throw new InputError(`invalid run id "${runId}": use letters, digits, ".", "_" and "-"`);
  const dir = opts.runDir ? resolve(opts.cwd, opts.runDir) : resolve(runsRoot(opts.cwd), runId);
  const workspace = resolve(opts.cwd, opts.workspace ?? ".");
  if (!existsSync(workspace)) throw new InputError(`workspace ${workspace} does not exist`);
  const inputs = resolveInputs(opts.plan, opts.inputs);
  const modules = opts.toolModules.map((m) => resolve(opts.cwd, m));
  const registry = await setupTools(opts.plan, modules);
  let store: Store;
  if (opts.store) {
    store = opts.store;
    if (await store.exists()) throw new InputError(`run ${runId} already exists in ${store.location}; use planspec resume`);
  } else {
    if (existsSync(resolve(dir, "state.json"))) throw new InputError(`run directory ${dir} already holds a run; use planspec resume`);
    mkdirSync(dir, { recursive: true });
    store = new FileStore(dir, runId);
  }
  instrument(store, opts.afterStateWrite);
  await store.lock();
  try {
    const state = newRunState(opts.plan, runId, inputs);
    const config: RunConfig = {
      toolModules: modules,
      workspace: realpathSync(workspace),
      concurrency: opts.concurrency ?? 4,
      ...(opts.planFile ? { planFile: resolve(opts.cwd, opts.planFile) } : {}),
    };
    await store.create(opts.plan, config, state);
    const emit = emitter(store, opts.onEvent);
    emit("run.started", { runId, plan: opts.plan.name, planHash: opts.plan.planHash, workspace: config.workspace, toolModules: modules });
    const gateway = new Gateway(opts.plan, registry, emit, state, config.workspace, secretValues(opts.env ?? process.env));
    const outcome = await new Scheduler(opts.plan, state, store, gateway, { concurrency: config.concurrency, emit }).run();
    return { runId, dir: opts.store ? store.location : dir, outcome };
  } finally {
    await store.unlock();
  }
}

export interface ResumeOptions extends SessionOptions {
  /** Replace the recorded tool modules (absolute paths). */
  toolModules?: string[];
  rerunInterrupted?: boolean;
  /** Changed input values: steps that read them (and their descendants) run again. */
  inputs?: Record<string, unknown>;
}

/** Opens an existing run directory as a store (checks that it holds a run). */
export function openRun(dir: string): FileStore {
  if (!existsSync(resolve(dir, "state.json"))) throw new InputError(`${dir} is not a run directory (no state.json)`);
  return new FileStore(dir, basename(dir));
}

/** Loads, migrates and validates a run's state and its current plan. */
export async function loadRun(store: Store): Promise<{ state: RunState; plan: PlanIR; migratedFrom?: number }> {
  const { state, migratedFrom } = await loadState(await store.readStateRaw());
  const plan = await store.readPlan(state.revision);
  if (plan.planHash !== state.planHash) {
    throw new InputError(`state.json names plan ${state.planHash.slice(0, 12)} but the run's plan is ${plan.planHash.slice(0, 12)}; record a change with planspec revise`);
  }
  // The plan's own planHash field proves nothing about its content: hash the content.
  const actual = planHash(plan);
  if (actual !== state.planHash) {
    const file = state.revision === 0 ? "plan.ir.json" : `revisions/${state.revision}.ir.json`;
    throw new IntegrityError(`${store.location}/${file} was edited outside planspec (its content hashes to ${actual.slice(0, 12)}, the run recorded ${state.planHash.slice(0, 12)}); record a change with planspec revise, or start a new run`);
  }
  return { state, plan, ...(migratedFrom !== undefined ? { migratedFrom } : {}) };
}

/** Resumes a run (a run directory or an opened store): checks consistency, handles interrupted steps, continues. */
export async function resumeRun(run: string | Store, opts: ResumeOptions = {}): Promise<SessionResult> {
  const store = typeof run === "string" ? openRun(run) : run;
  const dir = store.location;
  instrument(store, opts.afterStateWrite);
  await store.lock();
  try {
    const { state, plan, migratedFrom } = await loadRun(store);
    const config = await store.readConfig();
    const modules = opts.toolModules ?? config.toolModules;
    const registry = await setupTools(plan, modules);
    const emit = emitter(store, opts.onEvent);
    let changed: Set<string> | undefined;
    if (opts.inputs && Object.keys(opts.inputs).length > 0) {
      const merged = resolveInputs(plan, { ...state.inputs, ...opts.inputs });
      changed = new Set(Object.keys(merged).filter((k) => JSON.stringify(merged[k]) !== JSON.stringify(state.inputs[k])));
      state.inputs = merged;
    }
    emit("run.resumed", { runId: state.runId, fromStatus: state.status, stateVersion: state.stateVersion, ...(migratedFrom !== undefined ? { migratedFrom } : {}) });
    const report = await checkForResume(plan, state, store, { rerunInterrupted: opts.rerunInterrupted ?? false, emit, ...(changed ? { changedInputs: changed } : {}) });
    const base = { runId: state.runId, dir, resume: report, ...(migratedFrom !== undefined ? { migratedFrom } : {}) };
    if (state.status === "done" && report.reset.length === 0) return { ...base, outcome: { status: "done" } };
    if (report.blocked.length > 0) {
      const list = report.blocked.map((b) => `"${b.node}" (${b.risk})`).join(", ");
      state.status = "paused";
      state.reason = `interrupted during ${list}: it may have had side effects; check, then resume with --rerun-interrupted`;
      await store.writeState(state);
      emit("run.paused", { status: "paused", reason: state.reason });
      await store.syncEvents();
      return { ...base, outcome: { status: "paused", reason: state.reason } };
    }
    await store.writeState(state);
    const gateway = new Gateway(plan, registry, emit, state, config.workspace, secretValues(opts.env ?? process.env));
    const outcome = await new Scheduler(plan, state, store, gateway, { concurrency: opts.concurrency ?? config.concurrency, emit }).run();
    return { ...base, outcome };
  } finally {
    await store.unlock();
  }
}
