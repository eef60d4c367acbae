/**
 * Starting and resuming runs: the glue between a plan, a store, the tool registry, the
 * gateway and the scheduler. Holds the run's lock for the whole session.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { IRNode, PlanIR } from "../ir.js";
import { FileStore, readStatusSummary, strayRunRecords } from "./file-store.js";
import { planspecVersion } from "../util/version.js";
import { verdictKey } from "../lint/verdict-key.js";
import { Gateway } from "./gateway.js";
import { InputError, resolveInputs } from "./inputs.js";
import type { Scrubber } from "./redact.js";
import { redactingStore } from "./redacting-store.js";
import { newSecretSalt } from "./fingerprint.js";
import { comparable, isMark, planSecrets, programEnv, requireSecretInputs, runSalt, sessionScrubber, withEnvInputs } from "./secrets.js";
import { checkForResume, type ResumeReport } from "./resume.js";
import { loadRun, openRun, placeOf, readRunConfig } from "./load.js";
import { Scheduler, type RunOutcome } from "./scheduler.js";
import { inRunOrder } from "./run-order.js";
import { nextSummary } from "./summary.js";
import { isSettled } from "./states.js";
import { nowIso, STATE_SCHEMA_VERSION, type RunConfig, type RunEvent, type RunState, type Store } from "./store.js";
import { envReferences } from "../compiler/mcp.js";
import type { McpPool } from "./mcp/pool.js";
import { checkCatalogue, loadTools, ToolSetupError, toolsInUse } from "./tools/registry.js";
import type { ToolImpl } from "./tools/types.js";
import { inside } from "./tools/workspace.js";
import { pushAll } from "../util/arrays.js";
import { codeDigest, codeFiles, planDir, serverPrograms } from "./code.js";
import { sessionBinding } from "./binding.js";
import { withScrubbedConsole } from "./scrubbed-console.js";
import { RUN_DIR_MODE } from "./own-files.js";

export interface SessionOptions {
  concurrency?: number;
  /** The per-step output limit in bytes; on resume it replaces the recorded one. */
  maxOutputBytes?: number;
  env?: NodeJS.ProcessEnv;
  /** Sees every event this session appends (progress display). */
  onEvent?: (e: RunEvent) => void;
  /** Called after each durable state write (fault injection for crash tests and evals). */
  afterStateWrite?: (stateVersion: number) => void;
}

function instrument(store: Store, hook: SessionOptions["afterStateWrite"]): void {
  if (!hook) return;
  const write = store.writeState.bind(store);
  store.writeState = async (state, dirty, opts) => {
    await write(state, dirty, opts);
    hook(state.stateVersion);
  };
}

export interface StartOptions extends SessionOptions {
  plan: PlanIR;
  /** False: the operator overrode the lint gate for this run (recorded; resume honours it). */
  lintGate?: boolean;
  /**
   * The caller's lint gate passed this plan: its verdict key is kept in the state, so a
   * resume of the same plan, file and planspec need not lint it again.
   */
  gated?: boolean;
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

/** The outcome as the caller prints it: its reason may quote a tool's error. */
function scrubbed(outcome: RunOutcome, scrub: Scrubber): RunOutcome {
  return outcome.reason === undefined ? outcome : { ...outcome, reason: scrub.text(outcome.reason) };
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

/**
 * The run records inside the workspace (the run's directory, the runs root) and the
 * run's tool modules, as real paths: the fs tools refuse them, so a plan cannot read a
 * run's salt, append forged lines to its events or journal, or rewrite the code the next
 * session loads (in-process, with the operator's whole environment). A workspace inside
 * one of them guards nothing.
 */
function guardedDirs(workspace: string, dirs: ReadonlyArray<string | undefined>): string[] {
  const out: string[] = [];
  for (const d of dirs) {
    if (d === undefined) continue;
    const real = existsSync(d) ? realpathSync(d) : resolve(d);
    if (real !== workspace && inside(workspace, real)) out.push(real);
  }
  return out;
}

function emitter(store: Store, onEvent?: (e: RunEvent) => void) {
  return (type: string, data: Record<string, unknown>) => {
    let e: RunEvent;
    try {
      e = store.appendEvent(type, data);
    } catch (err) {
      // A failed write(2) names no file: name the log, so the one-line error can.
      if (typeof (err as { code?: unknown }).code === "string") (err as { path?: string }).path ??= placeOf(store, "events.jsonl");
      throw err;
    }
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

/**
 * Where a session's tools come from; `steps`: the steps that may run in it (a resume's
 * not done nor skipped), when not every step may: the tools of the others need no implementation.
 */
export interface ToolSetup {
  baseDir?: string;
  env?: NodeJS.ProcessEnv;
  scrub?: Scrubber;
  steps?: Iterable<IRNode>;
}

/** A run session's tools: the registry, and the MCP servers to stop when the session ends. */
export interface SessionTools {
  registry: Map<string, ToolImpl>;
  close(): Promise<void>;
}

/**
 * Loads the tool modules, adds the plan's MCP tools (no server starts here: they start
 * on first use), and checks everything against the plan's catalogue. Relative stdio
 * `cwd`s of `mcp:` resolve against `baseDir` (the plan file's directory).
 */
export async function setupTools(plan: PlanIR, modules: string[], opts: ToolSetup = {}): Promise<SessionTools> {
  const { scrub } = opts;
  try {
    return await registryFor(plan, modules, opts.baseDir ?? process.cwd(), opts.env ?? process.env, toolsInUse(plan, opts.steps));
  } catch (err) {
    // A module that fails to load may quote what it read from the environment: the terminal gets it scrubbed.
    if (scrub && err instanceof Error) err.message = scrub.text(err.message);
    throw err;
  }
}

async function registryFor(plan: PlanIR, modules: string[], baseDir: string, env: NodeJS.ProcessEnv, used: ReadonlySet<string>): Promise<SessionTools> {
  const registry = await loadTools(modules);
  const problems: string[] = [];
  let pool: McpPool | undefined;
  if (plan.mcp && Object.keys(plan.mcp).length > 0) {
    for (const server of Object.keys(plan.mcp)) {
      const shadowed = [...registry.keys()].filter((t) => t.startsWith(`${server}.`));
      if (shadowed.length > 0) problems.push(`MCP server "${server}" would shadow the tools ${shadowed.join(", ")}: give the server another name in mcp:`);
    }
    for (const [server, spec] of Object.entries(plan.mcp)) {
      // The compiler refuses these (PS146); an IR written by hand or by an older planspec is checked here.
      for (const name of envReferences(spec)) {
        if (!plan.secrets?.includes(name)) problems.push(`MCP server "${server}" names \${${name}} but the plan's secrets: does not list ${name}: a plan sends a server only the variables it declares`);
      }
    }
    // The MCP client (the SDK and zod) loads only for plans that declare servers.
    const [{ McpPool }, { mcpTools }] = await Promise.all([import("./mcp/pool.js"), import("./mcp/tools.js")]);
    pool = new McpPool(plan.mcp, baseDir, env, plan.secrets ?? []);
    const mcp = mcpTools(plan, used, pool);
    problems.push(...mcp.problems);
    for (const [name, impl] of mcp.tools) if (!registry.has(name)) registry.set(name, impl);
  }
  pushAll(problems, checkCatalogue(plan, registry, used));
  if (problems.length > 0) throw new ToolSetupError(problems.join("\n"));
  return { registry, close: async () => pool?.close() };
}


/** Starts a run of `plan` and executes it until it ends or pauses. */
export async function startRun(opts: StartOptions): Promise<SessionResult> {
  const runId = opts.store?.runId ?? opts.runId ?? (opts.runDir ? basename(resolve(opts.cwd, opts.runDir)) : newRunId(opts.plan.name));
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(runId)) throw new InputError(`invalid run id "${runId}": use letters, digits, ".", "_" and "-"`);
  const dir = opts.runDir ? resolve(opts.cwd, opts.runDir) : resolve(runsRoot(opts.cwd), runId);
  const workspace = resolve(opts.cwd, opts.workspace ?? ".");
  if (!existsSync(workspace)) throw new InputError(`workspace ${workspace} does not exist`);
  const env = opts.env ?? process.env;
  const inputs = resolveInputs(opts.plan, withEnvInputs(opts.plan, opts.inputs, env));
  const secrets = planSecrets(opts.plan, env);
  const modules = opts.toolModules.map((m) => resolve(opts.cwd, m));
  const secretSalt = newSecretSalt();
  const scrub = sessionScrubber(opts.plan, inputs, secrets, env, secretSalt);
  const tools = await withScrubbedConsole(scrub, () => setupTools(opts.plan, modules, { baseDir: planDir(opts.cwd, opts.planFile), env: opts.env, scrub }));
  const { registry } = tools;
  let store: Store;
  if (opts.store) {
    store = opts.store;
    if (await store.exists()) throw new InputError(`run ${runId} already exists in ${store.location}; use planspec resume`);
  } else {
    if (existsSync(resolve(dir, "state.json"))) throw new InputError(`run directory ${dir} already holds a run; use planspec resume`);
    const stray = existsSync(dir) ? strayRunRecords(dir) : undefined;
    if (stray !== undefined) throw new InputError(`run directory ${dir} holds records of another run (${stray}) but no run: remove them, or choose another --run-dir`);
    mkdirSync(dir, { recursive: true, mode: RUN_DIR_MODE });
    store = new FileStore(dir, runId);
  }
  instrument(store, opts.afterStateWrite);
  const sink = redactingStore(store, opts.plan, scrub);
  await store.lock();
  try {
    const state = newRunState(opts.plan, runId, inputs);
    // The code the calls run (code.ts), in the session's first event: `approve` binds an approval to it.
    const files = codeFiles(modules, serverPrograms(opts.plan, planDir(opts.cwd, opts.planFile)));
    const code = sessionBinding(codeDigest(files), secrets, secretSalt, opts.plan.nodes.some((n) => n.approval?.required === true));
    const config: RunConfig = {
      toolModules: modules,
      workspace: realpathSync(workspace),
      concurrency: opts.concurrency ?? 4,
      ...(opts.planFile ? { planFile: resolve(opts.cwd, opts.planFile) } : {}),
      ...(opts.maxOutputBytes !== undefined ? { maxOutputBytes: opts.maxOutputBytes } : {}),
      ...(opts.lintGate === false ? { lintGate: false } : {}),
      secretSalt,
    };
    if (opts.gated === true) state.gate = verdictKey(opts.plan.planHash, config.planFile, opts.cwd);
    await sink.create(opts.plan, config, state);
    const emit = emitter(sink, opts.onEvent);
    emit("run.started", { runId, plan: opts.plan.name, planHash: opts.plan.planHash, workspace: config.workspace, toolModules: modules, code, ...(opts.lintGate === false ? { lintGate: "overridden" } : {}) });
    const guarded = guardedDirs(config.workspace, [opts.store ? undefined : dir, runsRoot(opts.cwd), ...files]);
    const programs = programEnv(opts.plan, env);
    const gateway = new Gateway(opts.plan, registry, emit, state, config.workspace, config.maxOutputBytes, programs, guarded);
    const outcome = await withScrubbedConsole(scrub, () => new Scheduler(opts.plan, state, sink, gateway, { concurrency: config.concurrency, emit, maxOutputBytes: config.maxOutputBytes, secrets, code, workspace: config.workspace, programEnv: programs, secretSalt }).run());
    return { runId, dir: opts.store ? store.location : dir, outcome: scrubbed(outcome, scrub) };
  } finally {
    await tools.close();
    await store.unlock();
  }
}

export interface ResumeOptions extends SessionOptions {
  /** Replace the recorded tool modules (absolute paths). */
  toolModules?: string[];
  rerunInterrupted?: boolean;
  /** Changed input values: steps that read them (and their descendants) run again. */
  inputs?: Record<string, unknown>;
  /**
   * The lint gate, applied to the recorded plan once the run is locked and loaded (so no
   * revision can slip in between). It throws (`GateError`) to refuse the plan, and returns
   * the key of the verdict it passed, kept in the state so the next resume of the same
   * plan need not lint it again (`recordedGate` in gated.ts).
   */
  gate?: (plan: PlanIR, state: RunState, config: RunConfig, where: string) => string | undefined | Promise<string | undefined>;
  /**
   * Whether `gate` would pass the recorded plan without linting it (its recorded verdict
   * key still stands; `verdictStands` in lint/verdict-key.ts). Lets a resume of a finished
   * run answer without reading the plan; without it, a gated resume always reads the plan.
   */
  gateStands?: (planHash: string, recorded: string | undefined, config: RunConfig) => boolean;
}

export { loadRun, openRun, readRunConfig };

/**
 * A finished run whose last session left nothing for a resume to do (its kept summary
 * says so: done, no secrets to supply, every output in the checksummed state) and no new
 * inputs: the full resume would load the plan, check nothing, run nothing and answer
 * done. Answered from the state's head line, with the same checks on what it reads
 * (the state's checksum, the plan file untouched, the gate's recorded verdict).
 */
async function finishedAsKept(store: Store, opts: ResumeOptions): Promise<SessionResult | undefined> {
  if (!(store instanceof FileStore) || Object.keys(opts.inputs ?? {}).length > 0) return undefined;
  const kept = readStatusSummary(store.dir, planspecVersion());
  if (!kept || kept.status !== "done" || kept.summary.noopResume !== true) return undefined;
  // Read (and checked) as the full resume reads it: a run directory without it is refused there.
  const config = await readRunConfig(store);
  if (opts.gate !== undefined && opts.gateStands?.(kept.planHash, kept.gate, config) !== true) return undefined;
  const event = store.appendEvent("run.resumed", { runId: store.runId, fromStatus: "done", stateVersion: kept.stateVersion });
  opts.onEvent?.(event);
  return { runId: store.runId, dir: store.location, resume: { reset: [], adopted: [], blocked: [], unresolved: [] }, outcome: { status: "done" } };
}

/** Resumes a run (a run directory or an opened store): checks consistency, handles interrupted steps, continues. */
export async function resumeRun(run: string | Store, opts: ResumeOptions = {}): Promise<SessionResult> {
  const store = typeof run === "string" ? openRun(run) : run;
  const dir = store.location;
  instrument(store, opts.afterStateWrite);
  await store.lock();
  let tools: SessionTools | undefined;
  try {
    const settled = await finishedAsKept(store, opts);
    if (settled) return settled;
    // Nodes parsed as they are looked at: a resume looks at the steps not yet done (the
    // scheduler and the tools' check skip settled ones), not at every step of a long run.
    const { state, plan, migratedFrom } = await loadRun(store, { lazyNodes: true });
    const config = await readRunConfig(store);
    const verdict = await opts.gate?.(plan, state, config, dir);
    const newVerdict = verdict !== undefined && verdict !== state.gate;
    if (verdict !== undefined) state.gate = verdict;
    const env = opts.env ?? process.env;
    // Secret inputs were stored as marks: they must be given again, by --input or their environment variable.
    const salt = runSalt(config);
    const given = withEnvInputs(plan, opts.inputs ?? {}, env, (name) => isMark(state.inputs[name]));
    requireSecretInputs(plan, state.inputs, given, salt);
    const secrets = planSecrets(plan, env);
    const modules = opts.toolModules ?? config.toolModules;
    let changed: Set<string> | undefined;
    if (Object.keys(given).length > 0) {
      const merged = resolveInputs(plan, { ...state.inputs, ...given });
      changed = new Set(Object.keys(merged).filter((k) => comparable(plan, k, merged[k], salt) !== comparable(plan, k, state.inputs[k], salt)));
      state.inputs = merged;
    }
    const scrub = sessionScrubber(plan, state.inputs, secrets, env, salt);
    const sink = redactingStore(store, plan, scrub);
    const emit = emitter(sink, opts.onEvent);
    const files = codeFiles(modules, serverPrograms(plan, planDir(process.cwd(), config.planFile)));
    const touched = new Set<string>();
    // The steps and their states in run order, looked up once for the checks, the tools and the scheduler.
    const ordered = inRunOrder(plan, state, touched);
    const gated = ordered.nodes.some((n, i) => n.approval?.required === true && !isSettled(ordered.states[i]!.status));
    const code = sessionBinding(codeDigest(files), secrets, salt, gated);
    emit("run.resumed", { runId: state.runId, fromStatus: state.status, stateVersion: state.stateVersion, code, ...(migratedFrom !== undefined ? { migratedFrom } : {}) });
    const report = await checkForResume(plan, state, sink, { rerunInterrupted: opts.rerunInterrupted ?? false, emit, touched, ordered, ...(changed ? { changedInputs: changed } : {}) });
    const base = { runId: state.runId, dir, resume: report, ...(migratedFrom !== undefined ? { migratedFrom } : {}) };
    if (state.status === "done" && report.reset.length === 0) {
      // Nothing to run (so no tools to load). A write for the verdict ends this session: it keeps the status summary.
      if (newVerdict) {
        state.summary = await nextSummary(plan, state, (id) => sink.getArtifact(state.nodes[id]!.outputRef!));
        await sink.writeState(state);
      }
      return { ...base, outcome: { status: "done" } };
    }
    tools = await withScrubbedConsole(scrub, () => setupTools(plan, modules, { baseDir: planDir(process.cwd(), config.planFile), env: opts.env, scrub, steps: ordered.nodes.filter((_, i) => !isSettled(ordered.states[i]!.status)) }));
    const { registry } = tools;
    if (report.blocked.length > 0) {
      const list = report.blocked.map((b) => `"${b.node}" (${b.risk})`).join(", ");
      state.status = "paused";
      state.reason = `interrupted during ${list}: it may have had side effects; check, then resume with --rerun-interrupted`;
      await sink.writeState(state);
      emit("run.paused", { status: "paused", reason: state.reason });
      await store.syncEvents();
      return { ...base, outcome: { status: "paused", reason: state.reason } };
    }
    // The session's start is a record of what the checks changed, not a snapshot: the
    // session ends with one. A migrated state is rewritten whole (a record cannot sit on
    // a snapshot of an older schema).
    await sink.writeState(state, migratedFrom === undefined ? touched : undefined);
    const maxOutputBytes = opts.maxOutputBytes ?? config.maxOutputBytes;
    const guarded = guardedDirs(config.workspace, [store instanceof FileStore ? store.dir : undefined, runsRoot(process.cwd()), ...files]);
    const programs = programEnv(plan, env);
    const gateway = new Gateway(plan, registry, emit, state, config.workspace, maxOutputBytes, programs, guarded);
    const outcome = await withScrubbedConsole(scrub, () => new Scheduler(plan, state, sink, gateway, { concurrency: opts.concurrency ?? config.concurrency, emit, maxOutputBytes, secrets, code, workspace: config.workspace, programEnv: programs, secretSalt: salt, ordered }).run());
    return { ...base, outcome: scrubbed(outcome, scrub) };
  } finally {
    await tools?.close();
    await store.unlock();
  }
}
