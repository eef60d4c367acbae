/**
 * Our metrics on a TaskBench predictions file: each plan imported in memory (as
 * `planspec import taskbench` would write it), compiled and linted, with redundancy,
 * hallucinated tools, malformed plans and lint findings per rule counted over the corpus.
 */
import { catalogue, compileSource } from "../../compiler/index.js";
import { lintCompiled } from "../../lint/engine.js";
import { PlanGraph } from "../../graph.js";
import { redundancy } from "../metrics.js";
import { toPlanDoc } from "./convert.js";
import { parseTaskBenchLine } from "./record.js";
import type { ToolDesc } from "./tool-desc.js";

export interface CorpusStats {
  /** Non-empty lines of the predictions file. */
  lines: number;
  /** Lines with no usable plan (bad JSON, no result, no task_nodes), by reason. */
  rejected: Record<string, number>;
  /** Plans imported (one per accepted line). */
  plans: number;
  /** Plans that do not compile, and compiler codes over them (plans per code). */
  malformed: number;
  compileErrors: Record<string, { plans: number; title: string }>;
  /** Plans calling at least one tool not in tool_desc; nodes doing so; the names by frequency. */
  hallucinatedPlans: number;
  hallucinatedNodes: number;
  hallucinatedTools: Record<string, number>;
  /** Over compiled plans: steps, redundant steps, plans with any, duplicates, dead steps. */
  compiled: number;
  steps: number;
  redundantSteps: number;
  redundantPlans: number;
  duplicateSteps: number;
  deadSteps: number;
  /** Plans calling one tool from several steps (TaskBench's node F1 counts the tool once). */
  repeatedToolPlans: number;
  /** Mean of per-plan redundancy over compiled plans. */
  meanRedundancy: number;
  /** Compiled plans with no error finding / compiled plans. */
  lintPass: number;
  /** Per rule: findings, plans affected, severity. */
  rules: Record<string, { findings: number; plans: number; severity: string }>;
}

/** Imports, compiles and lints every plan of a predictions file, and counts. */
export function corpusStats(text: string, toolDesc: ToolDesc, onProgress?: (done: number, total: number) => void): CorpusStats {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const s: CorpusStats = {
    lines: lines.length,
    rejected: {},
    plans: 0,
    malformed: 0,
    compileErrors: {},
    hallucinatedPlans: 0,
    hallucinatedNodes: 0,
    hallucinatedTools: {},
    compiled: 0,
    steps: 0,
    redundantSteps: 0,
    redundantPlans: 0,
    duplicateSteps: 0,
    deadSteps: 0,
    repeatedToolPlans: 0,
    meanRedundancy: 0,
    lintPass: 0,
    rules: {},
  };
  let redundancySum = 0;
  let passed = 0;
  lines.forEach((line, i) => {
    if (onProgress && i % 250 === 0) onProgress(i, lines.length);
    const parsed = parseTaskBenchLine(line);
    if (!parsed.ok) {
      // Group reasons without their variable parts (JSON error positions, indices).
      const reason = parsed.reason.replace(/\(.*\)$/, "").replace(/\[\d+\]/g, "[i]").trim();
      s.rejected[reason] = (s.rejected[reason] ?? 0) + 1;
      return;
    }
    s.plans++;
    const { doc, notes } = toPlanDoc(parsed.record, toolDesc);
    if (new Set(parsed.record.nodes.map((n) => n.task)).size < parsed.record.nodes.length) s.repeatedToolPlans++;
    const unknown = notes.filter((n) => n.kind === "unknown-tool");
    if (unknown.length > 0) {
      s.hallucinatedPlans++;
      s.hallucinatedNodes += unknown.length;
      for (const n of unknown) {
        const name = parsed.record.nodes[n.node ?? 0]?.task ?? "?";
        s.hallucinatedTools[name] = (s.hallucinatedTools[name] ?? 0) + 1;
      }
    }
    const result = compileSource(`${parsed.record.id}.plan.json`, JSON.stringify(doc));
    if (!result.ir) {
      s.malformed++;
      const seen = new Set<string>();
      for (const d of result.diagnostics) {
        if (d.severity !== "error" || seen.has(d.code)) continue;
        seen.add(d.code);
        const title = (catalogue as Record<string, { title: string } | undefined>)[d.code]?.title ?? d.code;
        const entry = (s.compileErrors[d.code] ??= { plans: 0, title });
        entry.plans++;
      }
      return;
    }
    s.compiled++;
    // TaskBench has no deliverables: a plan's final steps are its results, not dead steps.
    const red = redundancy(result.ir, new PlanGraph(result.ir), { finalResults: true });
    s.steps += red.steps;
    s.redundantSteps += red.redundant.length;
    s.duplicateSteps += red.duplicates.length;
    s.deadSteps += red.dead.length;
    if (red.redundant.length > 0) s.redundantPlans++;
    redundancySum += red.redundancy;
    const findings = lintCompiled(result);
    if (!findings.some((d) => d.severity === "error")) passed++;
    const inPlan = new Set<string>();
    for (const d of findings) {
      const r = (s.rules[d.code] ??= { findings: 0, plans: 0, severity: d.severity });
      r.findings++;
      if (!inPlan.has(d.code)) r.plans++;
      inPlan.add(d.code);
    }
  });
  s.meanRedundancy = s.compiled === 0 ? 0 : redundancySum / s.compiled;
  s.lintPass = s.compiled === 0 ? 0 : passed / s.compiled;
  return s;
}

/** Records of a JSON array file or a JSON-lines file (TaskBench ships `data.json` as lines); throws naming the bad line. */
export function readJsonRecords(text: string): unknown[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("[")) return JSON.parse(trimmed) as unknown[];
  const out: unknown[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      out.push(JSON.parse(line));
    } catch (err) {
      throw new Error(`line ${i + 1}: ${(err as Error).message}`);
    }
  });
  return out;
}
