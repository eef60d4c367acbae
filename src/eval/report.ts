/**
 * Eval reports as pure functions: a terminal table, JSON and Markdown of a suite score,
 * deltas against a baseline report, and threshold checks (the CI gate).
 */
import type { CaseScore, Summary, SuiteScore } from "./score.js";

/** Metrics a threshold may name, and whether higher is better. */
export const METRICS: Record<keyof Omit<Summary, "cases">, "higher" | "lower"> = {
  coverage: "higher",
  redundancy: "lower",
  node_f1: "higher",
  edge_f1: "higher",
  risk_accuracy: "higher",
  lint_pass: "higher",
  recovery: "higher",
  forbidden: "lower",
  hallucinated: "lower",
};
export type MetricName = keyof typeof METRICS;

const ALIASES: Record<string, MetricName> = { nodef1: "node_f1", edgef1: "edge_f1", risk: "risk_accuracy", riskaccuracy: "risk_accuracy", lint: "lint_pass", lintpass: "lint_pass" };

/** Reads `coverage=0.9,recovery=1.0` into thresholds; throws an Error naming the bad part. */
export function parseThresholds(spec: string): Array<{ metric: MetricName; value: number }> {
  const out: Array<{ metric: MetricName; value: number }> = [];
  for (const part of spec.split(",").map((p) => p.trim()).filter(Boolean)) {
    const m = /^([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(-?\d+(?:\.\d+)?)$/.exec(part);
    if (!m) throw new Error(`bad threshold "${part}": expected metric=number, e.g. coverage=0.9`);
    const raw = m[1]!.toLowerCase().replace(/-/g, "_");
    const metric = (raw in METRICS ? raw : ALIASES[raw.replace(/_/g, "")]) as MetricName | undefined;
    if (!metric) throw new Error(`unknown metric "${m[1]}" (metrics: ${Object.keys(METRICS).join(", ")})`);
    out.push({ metric, value: Number(m[2]) });
  }
  return out;
}

/** Threshold misses, one line each: `coverage 0.85 < 0.9`. */
export function checkThresholds(summary: Summary, min: ReturnType<typeof parseThresholds>, max: ReturnType<typeof parseThresholds>): string[] {
  const misses: string[] = [];
  for (const { metric, value } of min) {
    const v = summary[metric];
    if (v === null) misses.push(`${metric} was not measured (minimum ${value})`);
    else if (v < value - 1e-12) misses.push(`${metric} ${fmt(v)} < ${value} (minimum)`);
  }
  for (const { metric, value } of max) {
    const v = summary[metric];
    if (v === null) misses.push(`${metric} was not measured (maximum ${value})`);
    else if (v > value + 1e-12) misses.push(`${metric} ${fmt(v)} > ${value} (maximum)`);
  }
  return misses;
}

export type Deltas = Partial<Record<MetricName, number>>;

/** Summary deltas (current − baseline) for metrics both reports measured. */
export function deltas(summary: Summary, baseline: unknown): Deltas {
  const base = (baseline as { summary?: Record<string, unknown> } | null)?.summary;
  if (!base || typeof base !== "object") throw new Error("the baseline is not a planspec eval JSON report (no summary)");
  const out: Deltas = {};
  for (const k of Object.keys(METRICS) as MetricName[]) {
    const now = summary[k];
    const before = base[k];
    if (typeof now === "number" && typeof before === "number") out[k] = now - before;
  }
  return out;
}

function fmt(v: number | null | undefined): string {
  if (v === null || v === undefined) return "n/a";
  return Number.isInteger(v) ? String(v) : v.toFixed(3);
}

function withDelta(v: number | null, d: number | undefined): string {
  if (d === undefined || Math.abs(d) < 5e-4) return fmt(v);
  return `${fmt(v)} (${d > 0 ? "+" : ""}${d.toFixed(3)})`;
}

const COLUMNS = ["case", "coverage", "redundancy", "node F1", "edge F1", "risk acc", "lint", "recovery"];

function caseRow(c: CaseScore): string[] {
  return [
    c.status === "ok" ? c.id : `${c.id} (${c.status})`,
    fmt(c.coverage),
    fmt(c.redundancy),
    fmt(c.nodeF1),
    fmt(c.edgeF1),
    fmt(c.riskAccuracy),
    c.lintPass ? "pass" : "fail",
    c.recovery ? `${c.recovery.succeeded}/${c.recovery.trials}` : "n/a",
  ];
}

function summaryRow(s: Summary, d: Deltas): string[] {
  return ["average", withDelta(s.coverage, d.coverage), withDelta(s.redundancy, d.redundancy), withDelta(s.node_f1, d.node_f1), withDelta(s.edge_f1, d.edge_f1), withDelta(s.risk_accuracy, d.risk_accuracy), withDelta(s.lint_pass, d.lint_pass), withDelta(s.recovery, d.recovery)];
}

/** Notes on what lowered each case's scores, one line each. */
function caseNotes(c: CaseScore): string[] {
  const notes: string[] = [];
  for (const p of c.problems) notes.push(p);
  for (const u of c.uncovered) notes.push(`not covered: ${u}`);
  for (const f of c.forbidden) notes.push(`forbidden step present: ${f}`);
  for (const d of c.duplicates) notes.push(`duplicate: ${d.step} repeats ${d.of}`);
  for (const d of c.dead) notes.push(`dead: ${d} (output unused, no deliverable, no side effect)`);
  for (const m of c.mislabelled) notes.push(`risk: ${m.step} declared ${m.declared}, needs ${m.required}`);
  for (const h of c.hallucinated) notes.push(`tool not in the suite catalogue: ${h}`);
  if (c.lintErrors.length) notes.push(`lint errors: ${c.lintErrors.join(", ")}`);
  for (const f of c.recovery?.failures ?? []) notes.push(`recovery: ${f.trial}: ${f.reason}`);
  return notes;
}

/** A plain-text table, padded to column widths, then one note line per problem. */
export function formatTable(score: SuiteScore, d: Deltas = {}): string {
  const rows = [COLUMNS, ...score.cases.map(caseRow), summaryRow(score.summary, d)];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ").trimEnd();
  const out = [`suite ${score.suite}: ${score.summary.cases} cases`, line(rows[0]!), ...rows.slice(1, -1).map(line), widths.map((w) => "-".repeat(w)).join("  "), line(rows.at(-1)!)];
  const notes = score.cases.flatMap((c) => caseNotes(c).map((n) => `  ${c.id}: ${n}`));
  if (notes.length) out.push("", ...notes);
  return out.join("\n") + "\n";
}

/** The report as Markdown: a table per case, the averages, and the notes. */
export function formatMarkdown(score: SuiteScore, d: Deltas = {}): string {
  const row = (r: string[]) => `| ${r.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
  const out = [`# Eval: ${score.suite}`, "", row(COLUMNS), row(COLUMNS.map((_, i) => (i === 0 ? "---" : "---:"))), ...score.cases.map((c) => row(caseRow(c))), row(summaryRow(score.summary, d).map((c, i) => (i === 0 ? "**average**" : c)))];
  const notes = score.cases.flatMap((c) => caseNotes(c).map((n) => `- \`${c.id}\`: ${n}`));
  if (notes.length) out.push("", "## Findings", "", ...notes);
  return out.join("\n") + "\n";
}

/** The report as JSON (what `--baseline` reads back). */
export function formatJson(score: SuiteScore, d?: Deltas): string {
  return JSON.stringify(d ? { ...score, deltas: d } : score, null, 2) + "\n";
}
