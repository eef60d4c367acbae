/**
 * The eval report: the suite's averaged scores (with deltas against a baseline run),
 * one row per case, and a drill-down per case saying which required step was missed,
 * which steps were redundant, mislabelled or hallucinated, and why a plan was invalid.
 */
import type { CaseScore, Summary, SuiteScore } from "../eval/score.js";
import { htmlPage } from "./html.js";
import { esc } from "./text.js";

export interface EvalHtmlOptions {
  /** A previous score of the same suite (its JSON report): deltas are shown against it. */
  baseline?: SuiteScore;
}

/** Metrics where a lower value is better. */
const LOWER_IS_BETTER = new Set<keyof Summary>(["redundancy", "forbidden", "hallucinated"]);

const METRICS: Array<[keyof Summary, string]> = [
  ["coverage", "coverage"],
  ["redundancy", "redundancy"],
  ["node_f1", "node F1"],
  ["edge_f1", "edge F1"],
  ["risk_accuracy", "risk-label accuracy"],
  ["lint_pass", "lint pass rate"],
  ["recovery", "recovery success"],
  ["forbidden", "forbidden steps"],
  ["hallucinated", "hallucinated tools"],
];

const COUNTS = new Set<keyof Summary>(["forbidden", "hallucinated", "cases"]);

function fmt(v: number | null | undefined, count = false): string {
  if (v === null || v === undefined) return "—";
  return count ? String(v) : v.toFixed(3);
}

function delta(key: keyof Summary, now: number | null, before: number | null | undefined): string {
  if (now === null || before === null || before === undefined) return `<td class="num muted">—</td>`;
  const d = now - before;
  if (Math.abs(d) < 1e-9) return `<td class="num muted">±0</td>`;
  const better = LOWER_IS_BETTER.has(key) ? d < 0 : d > 0;
  const text = `${d > 0 ? "+" : "−"}${COUNTS.has(key) ? Math.abs(d) : Math.abs(d).toFixed(3)}`;
  return `<td class="num ${better ? "delta-up" : "delta-down"}">${text} ${better ? "▲" : "▼"}</td>`;
}

/** A cell shaded by how good a ratio is, so weak cases stand out in a long table. */
function ratioCell(v: number | null, lowerIsBetter = false): string {
  if (v === null) return `<td class="num muted">—</td>`;
  const good = lowerIsBetter ? 1 - v : v;
  const bg = good >= 0.9 ? "#e8f5e9" : good >= 0.6 ? "#fff8e1" : "#ffebee";
  return `<td class="num" style="background:${bg}">${v.toFixed(2)}</td>`;
}

function list(title: string, items: readonly string[]): string {
  return items.length ? `<h3>${esc(title)} (${items.length})</h3><ul>${items.map((i) => `<li>${esc(i)}</li>`).join("")}</ul>` : "";
}

function caseDetails(c: CaseScore, before: CaseScore | undefined): string {
  const parts = [`<p class="muted">plan: ${esc(c.plan ?? "none found")}</p>`];
  if (c.status !== "ok") parts.push(list(c.status === "missing" ? "No plan for this case" : "Why the plan is invalid", c.problems.length ? c.problems : ["no plan file"]));
  parts.push(list("Required steps missed", c.uncovered));
  parts.push(list("Forbidden steps present", c.forbidden));
  parts.push(list("Duplicate steps", c.duplicates.map((d) => `${d.step} repeats ${d.of}`)));
  parts.push(list("Dead steps (output unused)", c.dead));
  parts.push(list("Risk under-labelled", c.mislabelled.map((m) => `${m.step}: declared ${m.declared}, needs ${m.required}`)));
  parts.push(list("Lint errors", c.lintErrors));
  parts.push(list("Tools not in the catalogue", c.hallucinated));
  if (parts.slice(1).every((p) => p === "")) parts.push(`<p class="muted">nothing missed, redundant or mislabelled</p>`);
  if (c.node && c.edge) parts.push(`<p>gold comparison: nodes tp ${c.node.tp} / fp ${c.node.fp} / fn ${c.node.fn}; edges tp ${c.edge.tp} / fp ${c.edge.fp} / fn ${c.edge.fn}</p>`);
  if (c.recovery) parts.push(`<p>recovery: ${c.recovery.succeeded} of ${c.recovery.trials} fault trials recovered</p>` + list("Recovery failures", c.recovery.failures.map((f) => `${f.trial}: ${f.reason}`)));
  if (before && before.coverage !== c.coverage) parts.push(`<p>coverage was ${before.coverage.toFixed(3)} in the baseline</p>`);
  const status = c.status === "ok" ? (c.lintPass ? "#a5d6a7" : "#ffe0b2") : "#ef9a9a";
  const open = c.status !== "ok" || c.uncovered.length > 0 ? " open" : "";
  return `<details class="step case" id="case-${esc(c.id)}"${open}><summary>${esc(c.id)} <span class="pill" style="background:${status}">${esc(c.status)}</span> <span class="muted">coverage ${c.coverage.toFixed(2)}</span></summary>${parts.join("")}</details>`;
}

function caseRow(c: CaseScore): string {
  const recovery = c.recovery ? c.recovery.rate : null;
  return (
    `<tr class="case-row" data-case="${esc(c.id)}"><td><a href="#case-${esc(c.id)}">${esc(c.id)}</a></td><td>${esc(c.status)}</td>` +
    ratioCell(c.coverage) +
    ratioCell(c.redundancy, true) +
    ratioCell(c.nodeF1) +
    ratioCell(c.edgeF1) +
    ratioCell(c.riskAccuracy) +
    `<td>${c.lintPass ? "pass" : `<span class="delta-down">fail</span>`}</td>` +
    ratioCell(recovery) +
    `<td class="num">${c.uncovered.length}</td></tr>`
  );
}

/** The eval report page. */
export function renderEvalHtml(score: SuiteScore, opts: EvalHtmlOptions = {}): string {
  const base = opts.baseline;
  const summaryRows = METRICS.map(([key, label]) => {
    const now = score.summary[key];
    const before = base?.summary[key];
    return `<tr data-metric="${key}"><td>${esc(label)}</td><td class="num">${fmt(now, COUNTS.has(key))}</td>${base ? `<td class="num">${fmt(before, COUNTS.has(key))}</td>${delta(key, now, before)}` : ""}</tr>`;
  }).join("");
  const head = `<tr><th>metric</th><th>value</th>${base ? "<th>baseline</th><th>delta</th>" : ""}</tr>`;
  const cases =
    `<table class="cases"><thead><tr><th>case</th><th>status</th><th>coverage</th><th>redundancy</th><th>node F1</th><th>edge F1</th><th>risk acc.</th><th>lint</th><th>recovery</th><th>missed</th></tr></thead>` +
    `<tbody>${score.cases.map(caseRow).join("")}</tbody></table>`;
  const baseCases = new Map((base?.cases ?? []).map((c) => [c.id, c]));
  const body = [
    `<section id="scores"><h2>Scores (${score.summary.cases} cases)</h2><table class="summary-table"><thead>${head}</thead><tbody>${summaryRows}</tbody></table></section>`,
    `<section id="cases"><h2>Cases</h2>${cases}</section>`,
    `<section id="drill-down"><h2>Per case</h2>${score.cases.map((c) => caseDetails(c, baseCases.get(c.id))).join("")}</section>`,
  ].join("\n");
  return htmlPage({
    title: `eval ${score.suite}`,
    header: `<h1>Eval: ${esc(score.suite)}</h1><p class="goal">${score.cases.length} cases${base ? `, compared with a baseline of ${base.cases.length}` : ""}</p>`,
    nav: [["scores", "Scores"], ["cases", "Cases"], ["drill-down", "Per case"]],
    body,
    script: `(function(){function o(){var e=document.getElementById(decodeURIComponent(location.hash.slice(1)));if(e&&e.tagName==="DETAILS")e.open=true;}window.addEventListener("hashchange",o);o();})();`,
  });
}
