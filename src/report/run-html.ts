/**
 * The run report: one self-contained HTML page with the checkpoint summary, the DAG
 * coloured by step status, a table and details of every step, and the event timeline.
 */
import type { NodeStatus } from "../runtime/states.js";
import { displayValue, excerptHtml, htmlPage, jsonExcerpt } from "./html.js";
import { STATUS_FILL } from "./palette.js";
import type { RunReportData, StepDetail } from "./run-data.js";
import { renderSvg } from "./svg-graph.js";
import { esc } from "./text.js";
import { renderTimeline, TIMELINE_SCRIPT } from "./timeline.js";
import { formatNumber } from "../util/numbers.js";

const STEP_PREFIX = "step-";

const RUN_STATUS_COLOR: Record<string, string> = { running: "#90caf9", paused: "#e1bee7", done: "#a5d6a7", failed: "#ef9a9a", terminated: "#ffcc80" };

function pill(text: string, color: string): string {
  return `<span class="pill" style="background:${color}">${esc(text)}</span>`;
}

function statusPill(status: NodeStatus): string {
  return pill(status, STATUS_FILL[status]);
}

function meta(rows: Array<[string, string]>): string {
  return `<dl class="meta">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("")}</dl>`;
}

function stepDetails(d: StepDetail): string {
  const n = d.node;
  const st = d.state;
  const rows: Array<[string, string]> = [
    ["goal", esc(n.goal)],
    ["kind · risk", esc(`${n.kind} · ${n.risk}${n.riskInferred ? " (inferred)" : ""}`)],
    ["tool", esc(n.allowedTools.join(", ") || "—")],
    ["needs", n.dependsOn.length ? n.dependsOn.map((x) => `<a href="#${esc(STEP_PREFIX + x)}">${esc(x)}</a>`).join(", ") : "—"],
    ["attempts", esc(String(st.attempts))],
  ];
  if (n.output) rows.push(["output name", esc(n.output)]);
  if (n.when) rows.push(["when", esc(`\${{ ${n.when} }}`)]);
  if (st.startedAt) rows.push(["started / ended", esc(`${st.startedAt} / ${st.endedAt ?? "—"}`)]);
  if (n.approval?.required) rows.push(["approval", esc(`required${n.approval.approvers.length ? ` from ${n.approval.approvers.join(" or ")}` : ""}`)]);
  if (st.decision) rows.push(["decision", esc(`${st.decision.decision} by ${st.decision.by} at ${st.decision.at}${st.decision.note ? ` — ${st.decision.note}` : ""}`)]);
  if (st.awaiting) rows.push(["waiting for", esc(`${st.awaiting.kind} since ${st.awaiting.since}${st.awaiting.criterion ? `: ${st.awaiting.criterion}` : ""}`)]);
  if (st.skipReason) rows.push(["skipped because", esc(st.skipReason)]);
  if (st.idempotencyKey) rows.push(["idempotency key", esc(st.idempotencyKey)]);
  if (n.success.length) {
    const crit = n.success.map((c) => (c.check ? `check \${{ ${c.check} }}` : c.evidence ? `evidence: ${c.evidence.join(", ")}` : `judge: ${c.judge ?? ""}`));
    rows.push(["success", crit.map(esc).join("<br>")]);
  }
  const parts = [meta(rows)];
  parts.push(`<h3>Inputs (with, as written)</h3>`);
  parts.push(n.with ? excerptHtml(jsonExcerpt(displayValue(n.with))) : `<p class="muted">none</p>`);
  if (d.args) parts.push(`<h3>Evaluated arguments (attempt ${d.args.attempt})</h3>${excerptHtml(d.args.value)}`);
  parts.push(`<h3>Output</h3>`);
  if (d.output) parts.push(excerptHtml(d.output));
  else parts.push(`<p class="muted">${esc(d.outputProblem ?? (st.status === "done" ? "no output recorded" : "not produced yet"))}</p>`);
  if (d.errors.length) parts.push(`<h3>Errors</h3><ul class="errors">${d.errors.map((e) => `<li>${esc(e)}</li>`).join("")}</ul>`);
  const open = st.status === "failed" || st.awaiting ? " open" : "";
  return `<details class="step" id="${esc(STEP_PREFIX + n.id)}" data-status="${st.status}"${open}><summary>${esc(n.id)} ${statusPill(st.status)} <span class="muted">${esc(n.goal)}</span></summary>${parts.join("")}</details>`;
}

function statusTableHtml(table: string[][]): string {
  const [head, ...rows] = table;
  if (!head) return "";
  const th = head.map((h) => `<th>${esc(h.toLowerCase())}</th>`).join("");
  const tr = rows
    .map((r) => {
      const [id = "", status = "", ...rest] = r;
      const statusCell = (STATUS_FILL as Record<string, string>)[status] ? statusPill(status as NodeStatus) : esc(status);
      return `<tr><td><a href="#${esc(STEP_PREFIX + id)}">${esc(id)}</a></td><td>${statusCell}</td>${rest.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`;
    })
    .join("");
  return `<table class="steps"><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table>`;
}

/** Opens the details of a step the reader navigates to (from the graph or a link). */
const OPEN_TARGET_SCRIPT = `
(function () {
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === "DETAILS") el.open = true;
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
})();
`;

/** The run report page. */
export function renderRunHtml(data: RunReportData): string {
  const { plan, state } = data;
  const status: Record<string, NodeStatus> = {};
  const notes: Record<string, string> = {};
  for (const d of data.steps) {
    status[d.node.id] = d.state.status;
    if (d.state.awaiting) notes[d.node.id] = `waiting: ${d.state.awaiting.kind}`;
    else if (d.state.attempts > 1) notes[d.node.id] = `${d.state.attempts} attempts`;
  }
  const header =
    `<h1>${esc(plan.name)} ${pill(state.status, RUN_STATUS_COLOR[state.status] ?? "#eceff1")}</h1>` +
    `<p class="goal">${esc(plan.goal)}</p>`;
  const runMeta = meta([
    ["run", esc(state.runId)],
    ["directory", esc(data.location)],
    ["plan", esc(`${plan.planHash.slice(0, 12)}${state.revision ? ` (revision ${state.revision})` : ""}`)],
    ["created / updated", esc(`${state.createdAt} / ${state.updatedAt}`)],
    ["tool calls", esc(`${state.budget.toolCalls}${plan.limits.maxToolCalls !== undefined ? ` of ${plan.limits.maxToolCalls}` : ""}`)],
    ["state version", esc(String(state.stateVersion))],
    ["inputs", `<pre>${esc(JSON.stringify(state.inputs, null, 2))}</pre>`],
  ]);
  const body = [
    `<section id="summary"><h2>Checkpoint summary</h2><ul class="summary">${data.summary.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>${runMeta}</section>`,
    `<section id="graph"><h2>Plan graph (coloured by step status; click a step for its details)</h2><div class="graph-wrap">${renderSvg(plan, { status, notes, linkPrefix: STEP_PREFIX })}</div></section>`,
    `<section id="steps"><h2>Steps</h2>${statusTableHtml(data.table)}${data.steps.map(stepDetails).join("")}</section>`,
    `<section id="timeline"><h2>Timeline (${formatNumber(data.events.length)} events)</h2>${renderTimeline(data.events, { linkPrefix: STEP_PREFIX })}</section>`,
  ].join("\n");
  return htmlPage({
    title: `${plan.name} — run ${state.runId} (${state.status})`,
    header,
    nav: [["summary", "Summary"], ["graph", "Graph"], ["steps", "Steps"], ["timeline", "Timeline"]],
    body,
    script: OPEN_TARGET_SCRIPT + TIMELINE_SCRIPT,
  });
}
