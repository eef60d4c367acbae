/**
 * `run` and `resume` as the library offers them: behind the same lint gate as `planspec
 * run` and `planspec resume`, so an agent framework can use planspec as a plan gate
 * in-process. A refused plan throws `GateError` before anything runs; `lintGate: false` is
 * the operator's override, recorded in the run (resume honours it, as the CLI does).
 */
import type { PlanIR } from "../ir.js";
import { gate, gateRecorded, GateError, irResult, loadPlanFile, refusal, type GateResult } from "../lint/gate.js";
import { verdictStands } from "../lint/verdict-key.js";
import { loadRun, openRun, readRunConfig, resumeRun, startRun, type ResumeOptions, type SessionResult, type StartOptions } from "./run.js";
import type { RunConfig, RunState, Store } from "./store.js";

export interface RunOptions extends Omit<StartOptions, "plan" | "cwd" | "inputs" | "toolModules"> {
  /** A compiled plan, or a plan file (`*.plan.yaml|json`, or an `*.ir.json`) relative to `cwd`. */
  plan: PlanIR | string;
  /** Default `process.cwd()`. */
  cwd?: string;
  /** Input values by name (default none). */
  inputs?: Record<string, unknown>;
  /** Tool modules to load (default none: the built-in and MCP tools). */
  toolModules?: string[];
  /** Refuse a plan lint finds errors in (default true); false is recorded in the run. */
  lintGate?: boolean;
  /** False: the gate ignores suppressions written in the plan file (the mode for generated plans). */
  inlineConfig?: boolean;
}

export interface GatedResumeOptions extends ResumeOptions {
  /** Lint the run's recorded plan first, as `run` gated it (default true); a run started with the gate overridden stays so. */
  lintGate?: boolean;
}

/** Gates the plan (unless `lintGate: false`), then starts the run; throws `GateError` for a refused plan. */
export async function runPlan(opts: RunOptions): Promise<SessionResult> {
  const { plan, lintGate, inlineConfig, ...rest } = opts;
  const cwd = opts.cwd ?? process.cwd();
  const named = typeof plan === "string" ? plan : undefined;
  const verdict = lintGate === false ? loaded(plan, cwd) : gate(plan, { cwd, ...(inlineConfig !== undefined ? { inlineConfig } : {}) });
  if (!verdict.ir) throw new GateError(refusal(`run ${named ?? verdict.compiled.ir?.name ?? "the plan"}`, verdict), verdict);
  return startRun({
    ...rest,
    plan: verdict.ir,
    cwd,
    inputs: opts.inputs ?? {},
    toolModules: opts.toolModules ?? [],
    ...(named !== undefined && rest.planFile === undefined ? { planFile: named } : {}),
    ...(lintGate === false ? { lintGate: false } : { gated: true }),
  });
}

/** Gates the run's recorded plan (unless overridden) under the run's lock, then resumes it; throws `GateError` for a refused plan. */
export async function resumePlan(run: string | Store, opts: GatedResumeOptions = {}): Promise<SessionResult> {
  const { lintGate, ...rest } = opts;
  const store = typeof run === "string" ? openRun(run) : run;
  return resumeRun(store, lintGate === false ? rest : { ...rest, gate: recordedGate(), gateStands: verdictStands() });
}

/**
 * The gate a run about to resume passes: its recorded plan, linted as `run` linted it
 * (through the plan file it was started from while that still compiles to the same plan),
 * or trusted when the run kept a verdict for this plan, file and planspec version. For
 * `resumeRun`'s `gate`: throws `GateError` for a refused plan, returns the verdict's key;
 * nothing when the run was started with the gate overridden (the operator's decision).
 */
export function recordedGate(cwd = process.cwd()): NonNullable<ResumeOptions["gate"]> {
  return (plan, state, config, where) => {
    const verdict = verdictOf(plan, state, config, cwd);
    if (verdict && !verdict.ir) throw new GateError(refusal(`resume ${where}`, verdict), verdict);
    return verdict?.key;
  };
}

function verdictOf(plan: PlanIR, state: RunState, config: RunConfig, cwd: string): GateResult | undefined {
  return config.lintGate === false ? undefined : gateRecorded(plan, config.planFile, { cwd, ...(state.gate !== undefined ? { passed: state.gate } : {}) });
}

/** Whether a run's recorded plan would pass the gate now, without resuming it (undefined: the gate was overridden). */
export async function gateRun(store: Store, cwd = process.cwd()): Promise<GateResult | undefined> {
  const config = await readRunConfig(store);
  const { plan, state } = await loadRun(store);
  return verdictOf(plan, state, config, cwd);
}

/** A plan without the gate: compiled or validated when it is a file, else as given. */
function loaded(plan: PlanIR | string, cwd: string): GateResult {
  if (typeof plan !== "string") return { ir: plan, errors: [], compiled: irResult(plan) };
  const compiled = loadPlanFile(plan, { cwd });
  const errors = compiled.diagnostics.filter((d) => d.severity === "error");
  return errors.length === 0 && compiled.ir ? { ir: compiled.ir, errors, compiled } : { refused: "compile", errors, compiled };
}
