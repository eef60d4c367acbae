/**
 * Planning a goal end to end: k candidates, each through the repair loop, scored,
 * and the lowest-risk adequate one chosen. The trace's first line records what a
 * replay needs (goal, catalogue, templates, options).
 */
import { relative, resolve } from "node:path";
import type { TemplateInfo } from "./catalog.js";
import { type LoopOptions, type LoopResult, planWithRepairs } from "./loop.js";
import { type Score, rankScores, scoreCandidate } from "./score.js";

/** The repair loop's options, with the number of candidates in place of the one candidate's index. */
export interface PlanGoalOptions extends Omit<LoopOptions, "candidate" | "candidates"> {
  candidates: number;
}

export interface PlanGoalResult {
  results: LoopResult[];
  /** In candidate order. */
  scores: Score[];
  /** The chosen candidate: the best-ranked (adequate if any is). */
  chosen: LoopResult;
}

/** Plans `goal` with `candidates` independent repair loops and picks the winner. */
export async function planGoal(opts: PlanGoalOptions): Promise<PlanGoalResult> {
  opts.trace.record({
    type: "start",
    goal: opts.goal,
    provider: opts.provider.name,
    model: opts.provider.model,
    candidates: opts.candidates,
    maxRepairs: opts.maxRepairs,
    catalog: { file: opts.catalog.file, tools: opts.catalog.tools },
    // Relative paths keep a committed trace replayable from another checkout.
    templates: opts.templates.map((t) => ({ ...t, file: relative(opts.cwd, t.file) })),
  });
  const results: LoopResult[] = [];
  for (let k = 0; k < opts.candidates; k++) {
    results.push(await planWithRepairs({ ...opts, candidate: k }));
  }
  const scores = results.map(scoreCandidate);
  const best = rankScores(scores)[0]!;
  const chosen = results[best.candidate]!;
  opts.trace.record({ type: "result", chosen: best.candidate, ok: chosen.ok, scores });
  return { results, scores, chosen };
}

/** Templates recorded in a trace's start event, with paths made absolute again. */
export function templatesFromTrace(recorded: unknown, cwd: string): TemplateInfo[] {
  if (!Array.isArray(recorded)) return [];
  return recorded.map((t) => ({ ...(t as TemplateInfo), file: resolve(cwd, (t as TemplateInfo).file) }));
}
