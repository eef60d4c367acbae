/**
 * Candidate scoring: what a reviewer weighs before running a plan — how many tool
 * calls it may make at worst, how risky its worst step is, how many steps change
 * something, what it assumes about the environment, and what lint says.
 */
import { type PlanIR, riskRank } from "../ir.js";
import type { LoopResult } from "./loop.js";

export interface Score {
  candidate: number;
  adequate: boolean;
  steps: number;
  /** Worst-case tool calls: each tool step times its retry, repeat and for_each bounds (unbounded counts as the run limit). */
  toolCalls: number;
  maxRisk: "read" | "write" | "external" | "-";
  /** Steps of risk write or external. */
  effects: number;
  /** Inputs without a default plus hypotheses. */
  assumptions: number;
  errors: number;
  warnings: number;
}

/** Worst-case tool calls of a plan. */
export function estimateToolCalls(ir: PlanIR): number {
  const fallback = ir.limits.maxToolCalls ?? 100;
  let total = 0;
  for (const n of ir.nodes) {
    if (n.allowedTools.length === 0 && n.kind !== "phase") continue;
    const attempts = n.retry ? (n.retry.maxAttempts ?? fallback) : 1;
    const repeats = n.repeat ? (n.repeat.maxAttempts ?? fallback) : 1;
    const items = n.forEach ? (n.forEach.maxItems ?? fallback) : 1;
    // A phase is refined later; its bound is what it may add.
    const base = n.kind === "phase" ? (n.phase?.maxSteps ?? fallback) : 1;
    total += base * attempts * repeats * items;
  }
  return total;
}

/** Scores one candidate's final state. */
export function scoreCandidate(r: LoopResult): Score {
  const ir = r.checked?.compiled.ir;
  const errors = r.problem ? 1 : r.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = r.diagnostics.filter((d) => d.severity === "warning").length;
  if (!ir) return { candidate: r.candidate, adequate: false, steps: 0, toolCalls: 0, maxRisk: "-", effects: 0, assumptions: 0, errors, warnings };
  let worst: Score["maxRisk"] = "read";
  for (const n of ir.nodes) if (riskRank(n.risk) > riskRank(worst as "read")) worst = n.risk;
  return {
    candidate: r.candidate,
    adequate: r.ok,
    steps: ir.nodes.length,
    toolCalls: estimateToolCalls(ir),
    maxRisk: ir.nodes.length ? worst : "-",
    effects: ir.nodes.filter((n) => n.risk !== "read").length,
    assumptions: Object.values(ir.inputs).filter((i) => i.required).length + Object.keys(ir.hypotheses).length,
    errors,
    warnings,
  };
}

/** Orders scores best first: adequate, then lowest max risk, fewer side effects, fewer tool calls, fewer assumptions, fewer warnings. */
export function rankScores(scores: readonly Score[]): Score[] {
  const risk = (s: Score) => (s.maxRisk === "-" ? 3 : riskRank(s.maxRisk));
  return [...scores].sort(
    (a, b) =>
      Number(b.adequate) - Number(a.adequate) ||
      risk(a) - risk(b) ||
      a.toolCalls - b.toolCalls ||
      a.effects - b.effects ||
      a.assumptions - b.assumptions ||
      a.warnings - b.warnings ||
      a.candidate - b.candidate,
  );
}

/** The comparison table, one row per candidate, the chosen one marked with `*`. */
export function scoreTable(scores: readonly Score[], chosen: number | undefined): string {
  const head = ["", "#", "adequate", "steps", "tool calls", "max risk", "write/external", "assumptions", "errors", "warnings"];
  const rows = scores.map((s) => [
    s.candidate === chosen ? "*" : "",
    String(s.candidate + 1),
    s.adequate ? "yes" : "no",
    String(s.steps),
    String(s.toolCalls),
    s.maxRisk,
    String(s.effects),
    String(s.assumptions),
    String(s.errors),
    String(s.warnings),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(head), ...rows.map(line)].join("\n") + "\n";
}
