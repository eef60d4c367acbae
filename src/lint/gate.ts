/**
 * The lint gate of `run`, `submit` and `resume`, for the CLI and any in-process caller: a
 * plan runs only when it compiles and lint finds no error. The gate lints with the rules'
 * default severities (a config file beside a generated plan cannot switch it off); only
 * the suppressions written in a plan file count, and `inlineConfig: false` drops those
 * too. An IR carries no comments or extension keys, so nothing in it can suppress a
 * finding.
 */
import { compileFile, validateIRFile, type CompileOptions, type CompileResult } from "../compiler/index.js";
import type { Diagnostic } from "../diagnostic.js";
import type { PlanIR } from "../ir.js";
import { isIRFile, verdictKey } from "./verdict-key.js";
import { lintCompiled } from "./engine.js";

export interface GateOptions {
  /** The directory a plan file is read from (default `process.cwd()`). */
  cwd?: string;
  /** False: suppressions written in the plan do not count (the mode for generated plans). Default true. */
  inlineConfig?: boolean;
}

export interface GateResult {
  /** The plan to run; set only when the gate let it through. */
  ir?: PlanIR;
  /** Why it did not: the file did not compile to a plan, or lint found errors. */
  refused?: "compile" | "lint";
  /** The errors that refused it (compiler or lint); empty when it passed. */
  errors: Diagnostic[];
  /** What was linted: its `sources` give code frames for the errors. */
  compiled: CompileResult;
  /** For a recorded plan that passed: its verdict key (`gateKey`), which a run keeps so the next resume may skip the lint. */
  key?: string;
}

/** A plan the gate refused, thrown by `run` and `resume` of the library; `result.errors` say where and why. */
export class GateError extends Error {
  constructor(
    message: string,
    readonly result: GateResult,
  ) {
    super(message);
    this.name = "GateError";
  }
}

export { isIRFile };

/** Compiles a plan file, or validates an IR file (`*.ir.json`): the loader the file name calls for. */
export function loadPlanFile(file: string, opts: CompileOptions = {}): CompileResult {
  return isIRFile(file) ? validateIRFile(file, opts) : compileFile(file, opts);
}

/** The compile result of a bare IR: no sources, so no suppressions and no code frames. */
export function irResult(ir: PlanIR): CompileResult {
  return { kind: "plan", ir, diagnostics: [], sources: new Map(), origins: new Map() };
}

/**
 * Gates a plan: a plan or IR file (compiled here), a compile result, or an IR. The result
 * has `ir` when it may run, else `refused` and the errors.
 */
export function gate(plan: string | CompileResult | PlanIR, opts: GateOptions = {}): GateResult {
  if (typeof plan === "string") {
    const compiled = loadPlanFile(plan, opts.cwd !== undefined ? { cwd: opts.cwd } : {});
    const errors = compiled.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0 || !compiled.ir) return { refused: "compile", errors, compiled };
    return lintGate(compiled, compiled.ir, !isIRFile(plan) && opts.inlineConfig !== false);
  }
  if ("irVersion" in plan) return lintGate(irResult(plan), plan, false);
  if (!plan.ir) return { refused: "compile", errors: plan.diagnostics.filter((d) => d.severity === "error"), compiled: plan };
  return lintGate(plan, plan.ir, opts.inlineConfig !== false);
}

/**
 * A run's recorded plan, gated as `run` gated it: through its plan file while that still
 * compiles to the same plan (so the file's reasoned suppressions hold), else as the IR.
 */
export function gateRecorded(plan: PlanIR, planFile: string | undefined, opts: Pick<GateOptions, "cwd"> & { passed?: string } = {}): GateResult {
  const key = gateKey(plan, planFile, opts.cwd);
  // The same plan, the same plan file, the same rules: the verdict cannot have changed.
  if (opts.passed === key) return { ir: plan, errors: [], compiled: irResult(plan), key };
  let result: GateResult | undefined;
  if (planFile !== undefined && !isIRFile(planFile)) {
    const compiled = compileFile(planFile, opts.cwd !== undefined ? { cwd: opts.cwd } : {});
    if (compiled.ir?.planHash === plan.planHash) result = lintGate(compiled, plan, true);
  }
  result ??= lintGate(irResult(plan), plan, false);
  return result.ir ? { ...result, key } : result;
}

/** The key of a verdict on `plan` (verdict-key.ts): planspec's version, the plan hash, the plan file's bytes. */
export function gateKey(plan: PlanIR, planFile: string | undefined, cwd = process.cwd()): string {
  return verdictKey(plan.planHash, planFile, cwd);
}

/** The one-line message of a refusal: `refusing to ACTION: lint found N errors`. */
export function refusal(action: string, result: GateResult): string {
  const n = `${result.errors.length} error${result.errors.length === 1 ? "" : "s"}`;
  if (result.refused === "lint") return `refusing to ${action}: lint found ${n}`;
  return result.errors.length > 0 ? `refusing to ${action}: it does not compile (${n})` : `refusing to ${action}: it is a ${result.compiled.kind}, not a plan`;
}

function lintGate(compiled: CompileResult, ir: PlanIR, inlineConfig: boolean): GateResult {
  const errors = lintCompiled(compiled, { inlineConfig }).filter((d) => d.severity === "error");
  return errors.length === 0 ? { ir, errors, compiled } : { refused: "lint", errors, compiled };
}
