/**
 * The recovery runner (SPEC §7): a fault-free reference run of a plan, then trials that
 * inject one fault each — SIGKILL at every step boundary (state version) and in the
 * middle of every tool step, a transient failure of every step's first call, a deleted
 * artifact, a changed input — and drive the run to `done` through resume. A trial
 * succeeds when the deliverables equal the reference's and every keyed side effect
 * happened exactly once.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { InputSpec, PlanIR } from "../ir.js";
import { PlanGraph } from "../graph.js";
import { drive, RUN_ID } from "./recovery-session.js";
import { CORRUPT_KINDS } from "./recovery-corrupt.js";
import { BUILTIN_TOOLS, EFFECTS_LOG, EVAL_DIR, recoveryToolsModule } from "./recovery-tools.js";
import { readRunDirState } from "../runtime/file-store.js";
import { fileRefHash } from "../runtime/artifact-ref.js";

export interface Trial {
  name: string;
  ok: boolean;
  reason?: string;
  /** The fault family the trial injects (crash, error, artifact, input, corrupt). */
  fault?: FaultKind;
}

/** Fault families as `--faults` names them. */
export type FaultKind = "crash" | "error" | "timeout" | "artifact" | "input" | "corrupt";
export const FAULT_KINDS: readonly FaultKind[] = ["crash", "error", "timeout", "artifact", "input", "corrupt"];

export interface PlanRecovery {
  plan: string;
  trials: Trial[];
  succeeded: number;
  /** succeeded / trials (0 when the reference run itself failed). */
  rate: number;
  /** Set when the fault-free run could not finish: no trial could be judged. */
  error?: string;
  /** Per fault family: trials and trials recovered (for corrupt: the silent fault was caught). */
  byFault: Partial<Record<FaultKind, { trials: number; succeeded: number }>>;
}

export interface RecoveryOptions {
  /** Tool modules (absolute paths); none: stubs from the catalogue. */
  toolModules?: string[];
  /** How many trials run at once (default 2). */
  jobs?: number;
  /** Keep the trial workspaces (for debugging); default: removed. */
  keep?: boolean;
  /** Only these fault families (default: all). */
  faults?: ReadonlyArray<"boundary" | "mid-step" | "transient" | "timeout" | "artifact" | "input" | "corrupt">;
  /** Every trial's workspace starts as a copy of this directory (absolute path). */
  workspaceFrom?: string;
}

/** Not copied into trial workspaces: version control, dependencies, run directories, eval records. */
const NOT_SEEDED = new Set([".git", "node_modules", ".planspec", EVAL_DIR]);

/** Copies `from` into the fresh workspace `ws`, leaving out what no plan reads and what would confuse the trial. */
function seedWorkspace(from: string, ws: string): void {
  cpSync(from, ws, { recursive: true, filter: (src) => src === from || !NOT_SEEDED.has(basename(src)) });
}

interface Outcome {
  /** Deliverable name -> `status:outputHash` of its producer. */
  deliverables: Record<string, string>;
  /** Side-effect key (or `unkeyed:<step>`) -> times applied. */
  effects: Record<string, number>;
  stateVersion: number;
}

function readOutcome(ws: string, ir: PlanIR, graph: PlanGraph): Outcome {
  const state = readRunDirState(join(ws, ".planspec/runs", RUN_ID)).doc as { stateVersion: number; nodes: Record<string, { status: string; outputHash?: string }> };
  const deliverables: Record<string, string> = {};
  for (const d of ir.deliverables) {
    const p = graph.producer(d);
    const st = p ? state.nodes[p.id] : undefined;
    deliverables[d] = st ? `${st.status}:${st.outputHash ?? "-"}` : "no producer";
  }
  const effects: Record<string, number> = {};
  const log = join(ws, EVAL_DIR, EFFECTS_LOG);
  if (existsSync(log)) {
    for (const line of readFileSync(log, "utf8").split("\n").filter(Boolean)) {
      const e = JSON.parse(line) as { key: string | null; step: string };
      const k = e.key ?? `unkeyed:${e.step}`;
      effects[k] = (effects[k] ?? 0) + 1;
    }
  }
  return { deliverables, effects, stateVersion: state.stateVersion };
}

/** Why a trial's outcome differs from the reference, or undefined when it does not. */
function compare(ref: Outcome, got: Outcome, strictUnkeyed = true): string | undefined {
  for (const [d, v] of Object.entries(ref.deliverables)) {
    if (got.deliverables[d] !== v) return `deliverable "${d}" differs from the fault-free run (${got.deliverables[d]} vs ${v})`;
  }
  for (const [k, n] of Object.entries(got.effects)) {
    if (!strictUnkeyed && k.startsWith("unkeyed:")) continue;
    if (n > 1) return `side effect ${k.startsWith("unkeyed:") ? `of step "${k.slice(8)}" (no idempotency key)` : `"${k}"`} happened ${n} times`;
  }
  for (const k of Object.keys(ref.effects)) {
    if (!strictUnkeyed && k.startsWith("unkeyed:")) continue;
    if (!got.effects[k]) return `side effect "${k}" of the fault-free run never happened`;
  }
  return undefined;
}

/** A value for an input the run must be given, from its declared type. */
function inputValue(spec: InputSpec, changed: boolean): string {
  const base = spec.default;
  switch (spec.type) {
    case "number":
    case "integer":
      return String((typeof base === "number" ? base : 1) + (changed ? 1 : 0));
    case "boolean":
      return String(changed ? !(base ?? true) : (base ?? true));
    case "array":
    case "object":
      return changed ? JSON.stringify(spec.type === "array" ? ["changed"] : { changed: true }) : JSON.stringify(base ?? (spec.type === "array" ? [] : {}));
    default:
      return `${typeof base === "string" ? base : "value"}${changed ? "-changed" : ""}`;
  }
}

/** Runs `tasks` with at most `jobs` at a time, keeping their order in the result. */
async function pool<T>(tasks: Array<() => Promise<T>>, jobs: number): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, tasks.length)) }, worker));
  return out;
}

/** Runs every recovery trial of one compiled plan (`planFile` is what the child processes run). */
export async function recoverPlan(planFile: string, ir: PlanIR, opts: RecoveryOptions = {}): Promise<PlanRecovery> {
  const graph = new PlanGraph(ir);
  const root = mkdtempSync(join(tmpdir(), "planspec-recovery-"));
  const toolsText = recoveryToolsModule(ir, (opts.toolModules ?? []).map((m) => resolve(m)));
  writeFileSync(join(root, "tools.mjs"), toolsText);
  const toolsModule = join(root, "tools.mjs");
  const inputs: Record<string, string> = {};
  for (const [k, spec] of Object.entries(ir.inputs)) if (spec.required) inputs[k] = inputValue(spec, false);
  const maxSessions = 2 * ir.nodes.length + 6;
  let n = 0;
  const newWs = () => {
    const ws = mkdtempSync(join(root, `t${n++}-`));
    if (opts.workspaceFrom) seedWorkspace(opts.workspaceFrom, ws);
    return ws;
  };
  const base = { planFile: resolve(planFile), toolsModule, inputs, maxSessions };
  const wanted = new Set(opts.faults ?? ["boundary", "mid-step", "transient", "artifact", "input"]);
  const result = (trials: Trial[], error?: string): PlanRecovery => {
    if (!opts.keep) rmSync(root, { recursive: true, force: true });
    const succeeded = trials.filter((t) => t.ok).length;
    const byFault: PlanRecovery["byFault"] = {};
    for (const t of trials) {
      if (!t.fault) continue;
      const f = (byFault[t.fault] ??= { trials: 0, succeeded: 0 });
      f.trials++;
      if (t.ok) f.succeeded++;
    }
    return { plan: planFile, trials, succeeded, rate: trials.length === 0 ? (error ? 0 : 1) : succeeded / trials.length, byFault, ...(error ? { error } : {}) };
  };

  const refWs = newWs();
  const refRun = await drive(ir, { ...base, ws: refWs });
  if (!refRun.done) return result([{ name: "fault-free run", ok: false, reason: refRun.reason ?? "did not finish" }], `the fault-free run did not finish: ${refRun.reason ?? ""}`);
  const ref = readOutcome(refWs, ir, graph);

  type Task = () => Promise<Trial>;
  const tasks: Task[] = [];
  const judge = async (name: string, ws: string, run: Promise<import("./recovery-session.js").DriveResult>, reference = ref, strict = true, needKill = false): Promise<Trial | undefined> => {
    const r = await run;
    if (needKill && !r.killed) return undefined; // the fault never fired (e.g. the step was skipped)
    if (!r.done) return { name, ok: false, reason: r.reason ?? "did not finish" };
    const why = compare(reference, readOutcome(ws, ir, graph), strict);
    return why ? { name, ok: false, reason: why } : { name, ok: true };
  };
  const dropped: Trial = { name: "", ok: true };
  const tag = (fault: FaultKind, t: Trial | undefined): Trial => (t ? { ...t, fault } : dropped);

  if (wanted.has("boundary")) {
    for (let v = 1; v < ref.stateVersion; v++) {
      tasks.push(async () => {
        const ws = newWs();
        return tag("crash", await judge(`crash after state write ${v}`, ws, drive(ir, { ...base, ws, env: { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: String(v) } }), ref, true, true));
      });
    }
  }
  if (wanted.has("mid-step")) {
    for (const node of ir.nodes.filter((x) => x.tool !== undefined)) {
      tasks.push(async () => {
        const ws = newWs();
        return tag("crash", await judge(`crash in the middle of step "${node.id}"`, ws, drive(ir, { ...base, ws, blockAfter: node.id }), ref, true, true));
      });
    }
  }
  if (wanted.has("transient")) {
    tasks.push(async () => {
      const ws = newWs();
      return tag("error", await judge("transient failure of every step's first call", ws, drive(ir, { ...base, ws, env: { PLANSPEC_EVAL_FAULT: JSON.stringify({ failOnce: true }) } })));
    });
  }
  if (wanted.has("artifact")) {
    tasks.push(async () => {
      const ws = newWs();
      const first = await drive(ir, { ...base, ws });
      if (!first.done) return { fault: "artifact", name: "deleted artifact", ok: false, reason: first.reason ?? "did not finish" };
      const state = readRunDirState(join(ws, ".planspec/runs", RUN_ID)).doc as { nodes: Record<string, { outputRef?: string }> };
      // An output kept in the state has no file to delete (its edit is a state edit, refused).
      const victim = ir.order.find((id) => fileRefHash(state.nodes[id]?.outputRef ?? "") !== undefined);
      if (!victim) return dropped;
      unlinkSync(join(ws, ".planspec/runs", RUN_ID, state.nodes[victim]!.outputRef!));
      return tag("artifact", await judge(`deleted artifact of step "${victim}"`, ws, drive(ir, { ...base, ws }, ["resume", RUN_ID])));
    });
  }
  const changeable = Object.entries(ir.inputs);
  if (wanted.has("input") && changeable.length > 0) {
    tasks.push(async () => {
      // The first input whose changed value the plan can run with (a changed path may name no file).
      let first: { name: string; reason: string } | undefined;
      for (const [name, spec] of changeable) {
        const refB = newWs();
        const changed = { ...inputs, [name]: inputValue(spec, true) };
        const rb = await drive(ir, { ...base, ws: refB, inputs: changed });
        if (!rb.done) {
          first ??= { name, reason: `the fault-free run with the changed input did not finish: ${rb.reason ?? ""}` };
          continue;
        }
        const refChanged = readOutcome(refB, ir, graph);
        const ws = newWs();
        const before = await drive(ir, { ...base, ws });
        if (!before.done) return { fault: "input", name: `changed input "${name}"`, ok: false, reason: before.reason ?? "did not finish" };
        // Unkeyed effects of steps that read the input legitimately happen once per value.
        return tag("input", await judge(`changed input "${name}"`, ws, drive(ir, { ...base, ws }, ["resume", RUN_ID, "--input", `${name}=${changed[name]}`]), refChanged, false));
      }
      return { fault: "input", name: `changed input "${first!.name}"`, ok: false, reason: first!.reason };
    });
  }
  if (wanted.has("timeout")) {
    // The call does its work and its answer never arrives: the step timeout has to end it,
    // and the next call must not repeat the work (the side effect is keyed).
    for (const node of ir.nodes.filter((x) => x.tool !== undefined && !BUILTIN_TOOLS.has(x.tool))) {
      const name = `call of step "${node.id}" that never answers`;
      if (node.timeoutMs === undefined) {
        tasks.push(async () => ({ fault: "timeout", name, ok: false, reason: `step "${node.id}" has no timeout: a call that never answers holds the run until someone kills it` }));
        continue;
      }
      tasks.push(async () => {
        const ws = newWs();
        return tag("timeout", await judge(name, ws, drive(ir, { ...base, ws, env: { PLANSPEC_EVAL_FAULT: JSON.stringify({ hangOnce: node.id }) } })));
      });
    }
  }
  if (wanted.has("corrupt")) {
    // A silent fault: the step's first call returns a wrong result. Caught when a success
    // criterion (of the step or a later one) fails, so that resume calls it again and the
    // run ends as the fault-free one did; missed when the run finishes on the wrong value.
    for (const node of ir.nodes.filter((x) => x.tool !== undefined && !BUILTIN_TOOLS.has(x.tool))) {
      for (const kind of CORRUPT_KINDS) {
        tasks.push(async () => {
          const ws = newWs();
          const name = `corrupt (${kind}) result of step "${node.id}"`;
          const t = await judge(name, ws, drive(ir, { ...base, ws, env: { PLANSPEC_EVAL_FAULT: JSON.stringify({ corrupt: { step: node.id, kind } }) } }));
          if (t && !t.ok && t.reason?.startsWith("deliverable")) t.reason = `no criterion caught it: ${t.reason}`;
          return tag("corrupt", t);
        });
      }
    }
  }
  const trials = (await pool(tasks, opts.jobs ?? 2)).filter((t) => t !== dropped);
  return result(trials);
}
