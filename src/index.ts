/**
 * planspec as a library: compile a plan, lint it (or whole directories, with their
 * configs and baselines), gate it, plan a goal with an LLM, run and resume it behind the
 * gate, open a run wherever it is stored, record approvals, and score plans against an
 * eval suite — the functions the CLI calls, typed and documented (docs/api.md has a
 * runnable example of each). Tool authors import `planspec/tools`.
 */
import { loadSuite } from "./eval/suite.js";
import { scoreSuite, type ScoreOptions, type SuiteScore } from "./eval/score.js";
import { compileFile, type CompileOptions, type CompileResult } from "./compiler/index.js";
import type { Diagnostic } from "./diagnostic.js";
import type { PlanIR } from "./ir.js";
import { lintCompiled, type LintOptions } from "./lint/engine.js";
import { loadCatalog, type Catalog, type TemplateInfo } from "./planner/catalog.js";
import { planGoal, type PlanGoalResult } from "./planner/plan.js";
import type { Provider } from "./llm/provider.js";
import { MemoryTrace, type TraceSink } from "./llm/trace.js";

export type { CompileOptions, CompileResult } from "./compiler/index.js";
export { compileSource } from "./compiler/index.js";
export type { Confidence, Diagnostic, Severity } from "./diagnostic.js";
export type * from "./ir.js";
export { IR_VERSION, RISKS, STEP_KINDS, riskRank } from "./ir.js";
export type { LintOptions } from "./lint/engine.js";
export type { Catalog, TemplateInfo } from "./planner/catalog.js";
export type { PlanGoalResult } from "./planner/plan.js";
export type { LoopResult } from "./planner/loop.js";
export type { Provider, ChatRequest, Completion, Usage } from "./llm/provider.js";
export { makeProvider } from "./llm/provider.js";
export { PlannerError } from "./llm/errors.js";
export type { TraceSink, TraceEvent } from "./llm/trace.js";
export { MemoryTrace, FileTrace } from "./llm/trace.js";
export type { CaseScore, ScoreOptions, Summary, SuiteScore } from "./eval/score.js";
export type { StartOptions, ResumeOptions, SessionResult } from "./runtime/run.js";
export { runPlan as run, resumePlan as resume, gateRun, type RunOptions, type GatedResumeOptions } from "./runtime/gated.js";
export { gate, gateRecorded, GateError, type GateOptions, type GateResult } from "./lint/gate.js";
export { lintFiles, LintFilesError, type LintFilesOptions, type LintFilesResult, type LintConfigOptions } from "./lint/lint-files.js";
export type { Finding } from "./lint/engine.js";
export type { SeverityLevel } from "./lint/config.js";
export { openStore, storeUrlFrom, StoreError, type OpenStoreOptions, type OpenedRun } from "./runtime/open-store.js";
export { decide as approve, DecisionError, type DecideResult } from "./runtime/decide.js";
export type { RunEvent, RunState, Store } from "./runtime/store.js";
export { InputError } from "./runtime/inputs.js";
export { ToolSetupError } from "./runtime/tools/registry.js";
export { riskFromAnnotations } from "./annotations.js";

/**
 * Compiles a plan file (`*.plan.yaml` or `*.plan.json`) with its imported catalogues and
 * templates. Never throws for bad input: problems are `result.diagnostics` (with file,
 * line and column), and `result.ir` is set only when there is no error.
 */
export function compile(file: string, opts: CompileOptions = {}): CompileResult {
  return compileFile(file, opts);
}

/**
 * Lints a compiled plan (or a bare IR, positioned by its spans) with every registered
 * rule, or `opts.rules`; returns sorted diagnostics, errors first by position. A
 * `CompileResult` without an IR (it did not compile) has no findings.
 */
export function lint(input: CompileResult | PlanIR, opts: LintOptions = {}): Diagnostic[] {
  const result: CompileResult = "irVersion" in input ? { ir: input, kind: "plan", diagnostics: [], sources: new Map(), origins: new Map() } : input;
  return lintCompiled(result, opts);
}

export interface PlanOptions {
  goal: string;
  /** The model: `makeProvider({ provider: "openai", env: process.env })`, or your own `{ name, model, complete }`. */
  provider: Provider;
  /** The tool catalogue the plan may use: a catalogue file (relative to `cwd`) or a loaded one. */
  catalog: string | Catalog;
  /** Templates offered to the model as standard workflows. */
  templates?: TemplateInfo[];
  /** The file the plan will be saved as: diagnostics name it and imports resolve from it (default `plan.plan.yaml`). */
  planFile?: string;
  cwd?: string;
  /** Independent plans asked for; the lowest-risk adequate one is chosen (default 1). */
  candidates?: number;
  /** How often diagnostics go back to the model (default 2). */
  maxRepairs?: number;
  /** Where requests and answers are recorded (default: in memory). */
  trace?: TraceSink;
}

/**
 * Plans a goal with an LLM: each candidate goes through request → compile → lint →
 * repair rounds; `chosen.ok` says the chosen plan compiles and lints clean, and
 * `chosen.checked.yaml` is its text.
 */
export async function plan(opts: PlanOptions): Promise<PlanGoalResult> {
  const cwd = opts.cwd ?? process.cwd();
  return planGoal({
    goal: opts.goal,
    provider: opts.provider,
    catalog: typeof opts.catalog === "string" ? loadCatalog(opts.catalog, cwd) : opts.catalog,
    templates: opts.templates ?? [],
    planFile: opts.planFile ?? "plan.plan.yaml",
    cwd,
    candidates: opts.candidates ?? 1,
    maxRepairs: opts.maxRepairs ?? 2,
    trace: opts.trace ?? new MemoryTrace(),
  });
}

/** An eval suite file that does not load; `diagnostics` say where and why. */
export class SuiteError extends Error {
  constructor(
    message: string,
    readonly diagnostics: Diagnostic[],
  ) {
    super(message);
    this.name = "SuiteError";
  }
}

/**
 * Scores the plans in `plansDir` (`<case-id>.plan.yaml|json`) against an eval suite:
 * coverage, redundancy, node/edge F1 against gold plans, risk accuracy, lint pass rate.
 * Throws `SuiteError` when the suite itself has errors.
 */
export async function evaluate(suiteFile: string, plansDir: string, opts: ScoreOptions = {}): Promise<SuiteScore> {
  const loaded = loadSuite(suiteFile, opts.cwd);
  if (!loaded.ok) {
    const first = loaded.diagnostics[0];
    throw new SuiteError(`${suiteFile} is not a valid suite${first ? `: ${first.file}:${first.line}:${first.col}: ${first.message}` : ""}`, loaded.diagnostics);
  }
  return scoreSuite(loaded.suite, plansDir, opts);
}
