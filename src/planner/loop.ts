/**
 * The repair loop: ask for a plan, parse it, attach the catalogue, compile and lint it;
 * on any error send the diagnostics back and ask again, up to `maxRepairs` times.
 * Every round is in the trace.
 */
import type { Diagnostic } from "../diagnostic.js";
import { type Catalog, type TemplateInfo, attach } from "./catalog.js";
import { type Checked, checkPlanText, feedbackText, renderPlanYaml, traceDiagnostics } from "./document.js";
import { readAnswer } from "./extract.js";
import { stripSuppressions } from "./strip.js";
import { goalMessage, repairMessage, systemPrompt } from "./prompt.js";
import type { ChatMessage, Provider, Usage } from "../llm/provider.js";
import { planRequestSchema } from "./schema.js";
import type { TraceSink } from "../llm/trace.js";

export interface LoopOptions {
  goal: string;
  provider: Provider;
  catalog: Catalog;
  templates: readonly TemplateInfo[];
  /** The plan file the result is written to: diagnostics name it and imports resolve from it. */
  planFile: string;
  cwd: string;
  maxRepairs: number;
  trace: TraceSink;
  candidate?: number;
  candidates?: number;
}

export interface LoopResult {
  candidate: number;
  /** The last answer's document with the catalogue attached, when it parsed. */
  doc?: Record<string, unknown>;
  /** The last checked plan, when the answer parsed. */
  checked?: Checked;
  /** Why the last answer could not be read, when it did not parse. */
  problem?: string;
  diagnostics: Diagnostic[];
  ok: boolean;
  /** Model calls made (1 + repairs). */
  rounds: number;
  usage: Usage;
}

/** Runs one plan through request → check → repair rounds and returns the last state. */
export async function planWithRepairs(opts: LoopOptions): Promise<LoopResult> {
  const candidate = opts.candidate ?? 0;
  const system = systemPrompt(opts.catalog, opts.templates);
  const schema = planRequestSchema();
  const messages: ChatMessage[] = [{ role: "user", content: goalMessage(opts.goal, candidate, opts.candidates ?? 1) }];
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const header = `Planned by planspec plan (${opts.provider.name}:${opts.provider.model}) for the goal:\n${opts.goal.replace(/\s+/g, " ").trim()}\nReview before running.`;
  let result: LoopResult = { candidate, diagnostics: [], ok: false, rounds: 0, usage };

  for (let round = 0; round <= opts.maxRepairs; round++) {
    const answer = await opts.provider.complete({ system, messages, schema, candidate, round }, opts.trace);
    usage.inputTokens += answer.usage.inputTokens;
    usage.outputTokens += answer.usage.outputTokens;
    opts.trace.record({ type: "response", candidate, round, completion: answer, usage: answer.usage });
    messages.push({ role: "assistant", content: answer.text });

    const parsed = readAnswer(answer);
    let feedback: string;
    if (!parsed.ok) {
      result = { candidate, problem: parsed.user, diagnostics: [], ok: false, rounds: round + 1, usage };
      opts.trace.record({ type: "diagnostics", candidate, round, parse: parsed.user, ok: false });
      // Asking again does not change a refusal; the repairs are not spent on it.
      if (parsed.final) return result;
      feedback = `The answer could not be read: ${parsed.model}.`;
    } else {
      const stripped = stripSuppressions(parsed.value);
      const doc = attach(stripped.value, opts.catalog, opts.templates, opts.planFile);
      const checked = checkPlanText(opts.planFile, renderPlanYaml(doc, header), opts.cwd);
      result = { candidate, doc, checked, diagnostics: checked.diagnostics, ok: checked.ok, rounds: round + 1, usage };
      opts.trace.record({
        type: "diagnostics",
        candidate,
        round,
        ok: checked.ok,
        note: parsed.note,
        ...(stripped.removed.length ? { stripped: stripped.removed } : {}),
        diagnostics: traceDiagnostics(checked.diagnostics),
      });
      if (checked.ok) return result;
      feedback = feedbackText(checked);
    }
    if (round < opts.maxRepairs) messages.push({ role: "user", content: repairMessage(feedback, round + 1, opts.maxRepairs) });
  }
  return result;
}
