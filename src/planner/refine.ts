/**
 * Refinement and replanning of a run: a `phase` step (or a step that failed) becomes
 * sub-steps the model writes from the run's recorded state. The revised plan is
 * compiled and linted against the run's plan — errors go back to the model like in
 * planning — and then recorded through the runtime's revision path.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Diagnostic } from "../diagnostic.js";
import { type CompileResult, compileSource } from "../compiler/index.js";
import type { PlanIR } from "../ir.js";
import { lintCompiled } from "../lint/engine.js";
import { renderText } from "../lint/format/stylish.js";
import { loadRun } from "../runtime/load.js";
import { reviseRun } from "../runtime/revise.js";
import type { Store } from "../runtime/store.js";
import { traceDiagnostics } from "./document.js";
import { PlannerError } from "../llm/errors.js";
import { readAnswer } from "./extract.js";
import { stripSuppressions } from "./strip.js";
import { refinementSystemPrompt, repairMessage } from "./prompt.js";
import type { ChatMessage, Provider, Usage } from "../llm/provider.js";
import { type RefineSubject, refineMessage, refineSystem } from "./refine-context.js";
import { refineParams, writeRevision } from "./refine-doc.js";
import { stepsRequestSchema } from "./schema.js";
import type { TraceSink } from "../llm/trace.js";

export interface RefineOptions {
  /** The run (a run directory's store or a PostgreSQL store's). */
  run: Store;
  /** Where the revised plan files are written (`<run dir>/refine` for a run directory). */
  outDir: string;
  step: string;
  mode: "phase" | "failed";
  provider: Provider;
  trace: TraceSink;
  maxRepairs: number;
  cwd: string;
}

export interface RefineResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  compiled?: CompileResult;
  problem?: string;
  planFile?: string;
  rounds: number;
  usage: Usage;
  /** Set when the revision was recorded. */
  revision?: { number: number; added: string[]; removed: string[]; reset: string[] };
}

/** Loads what a refinement of `step` needs from the run, or throws a PlannerError saying why it cannot. */
async function subject(opts: RefineOptions): Promise<{ subject: RefineSubject; plan: PlanIR; sourceFile: string; sourceText: string; revision: number }> {
  const store = opts.run;
  const { state, plan } = await loadRun(store);
  const node = plan.nodes.find((n) => n.id === opts.step);
  if (!node) throw new PlannerError("input", `the run's plan has no step "${opts.step}"`);
  const st = state.nodes[node.id];
  if (opts.mode === "phase") {
    if (node.kind !== "phase") throw new PlannerError("input", `step "${node.id}" is a ${node.kind} step, not a phase: only phases are refined`);
    if (!["paused", "running"].includes(state.status)) throw new PlannerError("input", `the run is ${state.status}: refine a phase of a paused or running run`);
    if (st?.status === "done" || st?.status === "skipped") throw new PlannerError("input", `phase "${node.id}" is already ${st.status}`);
  } else if (st?.status !== "failed") {
    throw new PlannerError("input", `step "${node.id}" has not failed (it is ${st?.status ?? "unknown"}): replan replaces a failed step`);
  }
  // The run records the directory it started in; the IR's source path is relative to that.
  const workspace = (await store.readConfig()).workspace;
  const sourceFile = [resolve(opts.cwd, plan.source.file), resolve(workspace ?? opts.cwd, plan.source.file)].find((f) => existsSync(f)) ?? plan.source.file;
  if (!existsSync(sourceFile)) throw new PlannerError("input", `the plan source ${plan.source.file} is gone: refinement edits the plan's source`);
  const sourceText = readFileSync(sourceFile, "utf8");
  const artifacts = new Map<string, unknown>();
  for (const id of node.consumes) {
    const ref = state.nodes[id]?.outputRef;
    if (ref) artifacts.set(id, await store.getArtifact(ref));
  }
  const done = Object.entries(state.nodes)
    .filter(([, s]) => s.status === "done")
    .map(([id]) => id);
  const s: RefineSubject = { plan, node, mode: opts.mode, artifacts, params: refineParams(node, plan, artifacts), done };
  if (st?.lastError) s.lastError = st.lastError;
  return { subject: s, plan, sourceFile, sourceText, revision: state.revision };
}

/**
 * Where the sub-steps of a phase go past the bounds the plan set on what the planner may
 * add: more steps than its `max_steps`, a tool outside its `allowed_tools` (when it lists
 * any). The lint cannot see them (the revised plan no longer has the phase); the model is
 * told, like a lint error.
 */
function beyondPhase(phase: PlanIR["nodes"][number], revised: PlanIR): string[] {
  const subs = revised.nodes.filter((n) => n.id.startsWith(`${phase.id}.`));
  const out: string[] = [];
  const max = phase.phase?.maxSteps;
  if (max !== undefined && subs.length > max) out.push(`phase "${phase.id}" may be refined into at most ${max} sub-step${max === 1 ? "" : "s"} (max_steps), the answer has ${subs.length}`);
  if (phase.allowedTools.length > 0) {
    for (const n of subs) {
      const extra = n.allowedTools.filter((t) => !phase.allowedTools.includes(t));
      if (extra.length > 0) out.push(`sub-step "${n.id}" uses ${extra.map((t) => `"${t}"`).join(", ")}, which phase "${phase.id}" does not allow (allowed_tools: ${phase.allowedTools.join(", ")})`);
    }
  }
  return out;
}

/** Asks for sub-steps, checks the revised plan against the run's, repairs, and records the revision when clean. */
export async function refineStep(opts: RefineOptions): Promise<RefineResult> {
  const { subject: s, plan, sourceFile, sourceText, revision } = await subject(opts);
  const system = refineSystem(plan, refinementSystemPrompt);
  const schema = stepsRequestSchema();
  const messages: ChatMessage[] = [{ role: "user", content: refineMessage(s) }];
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const original: CompileResult = { ir: plan, kind: "plan", diagnostics: [], sources: new Map(), origins: new Map() };
  const tag = `${s.node.id}-r${revision + 1}`;
  opts.trace.record({ type: "start", refine: s.node.id, mode: opts.mode, run: opts.run.location, provider: opts.provider.name, model: opts.provider.model, maxRepairs: opts.maxRepairs });
  let result: RefineResult = { ok: false, diagnostics: [], rounds: 0, usage };

  for (let round = 0; round <= opts.maxRepairs; round++) {
    const answer = await opts.provider.complete({ system, messages, schema, candidate: 0, round }, opts.trace);
    usage.inputTokens += answer.usage.inputTokens;
    usage.outputTokens += answer.usage.outputTokens;
    opts.trace.record({ type: "response", candidate: 0, round, completion: answer, usage: answer.usage });
    messages.push({ role: "assistant", content: answer.text });
    const parsed = readAnswer(answer);
    // The sub-steps are the model's: no suppression of its own findings (the plan around them is the user's).
    const steps = parsed.ok ? stripSuppressions(parsed.value).value.steps : undefined;
    let feedback: string;
    if (!parsed.ok || !steps || typeof steps !== "object" || Array.isArray(steps) || Object.keys(steps).length === 0) {
      const problem = parsed.ok ? 'the answer has no non-empty "steps" map' : parsed.user;
      result = { ok: false, diagnostics: [], problem, rounds: round + 1, usage };
      opts.trace.record({ type: "diagnostics", round, parse: problem, ok: false });
      if (!parsed.ok && parsed.final) break;
      feedback = `The answer could not be used: ${parsed.ok ? problem : parsed.model}.`;
    } else {
      const files = writeRevision({ sourceFile, sourceText, node: s.node, plan, subSteps: steps as Record<string, unknown>, artifacts: s.artifacts, outDir: opts.outDir, tag });
      const compiled = compileSource(files.planFile, files.planText, { cwd: opts.cwd });
      const diagnostics = [...compiled.diagnostics, ...(compiled.ir ? lintCompiled(compiled, { original }) : [])];
      const outside = compiled.ir && opts.mode === "phase" ? beyondPhase(s.node, compiled.ir) : [];
      const ok = compiled.ir !== undefined && outside.length === 0 && !diagnostics.some((d) => d.severity === "error");
      result = { ok, diagnostics, compiled, planFile: files.planFile, rounds: round + 1, usage, ...(outside.length > 0 ? { problem: outside.join("; ") } : {}) };
      opts.trace.record({ type: "diagnostics", round, ok, diagnostics: traceDiagnostics(diagnostics), ...(outside.length > 0 ? { bounds: outside } : {}) });
      if (ok) break;
      feedback = [renderText(diagnostics.filter((d) => d.severity === "error"), { sources: compiled.sources, color: false }).trimEnd(), ...outside].filter(Boolean).join("\n");
    }
    if (round < opts.maxRepairs) messages.push({ role: "user", content: repairMessage(feedback, round + 1, opts.maxRepairs) });
  }
  if (!result.ok || !result.compiled?.ir) return result;
  const reason = opts.mode === "phase" ? `refined phase ${s.node.id} with ${opts.provider.name}:${opts.provider.model}` : `replanned failed step ${s.node.id} with ${opts.provider.name}:${opts.provider.model}`;
  const r = await reviseRun(opts.run, result.compiled.ir, { reason, evidence: [...s.artifacts.keys()].map((id) => `steps.${id}`) });
  result.revision = {
    number: r.revision,
    added: r.changes.filter((c) => c.from === null).map((c) => c.node),
    removed: r.changes.filter((c) => c.to === null).map((c) => c.node),
    reset: r.reset,
  };
  opts.trace.record({ type: "result", ok: true, revision: result.revision });
  return result;
}
