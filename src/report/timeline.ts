/**
 * The run's events as a timeline: one row per event with its time, a category a person
 * can filter on, the step it concerns and a sentence saying what happened.
 */
import type { RunEvent } from "../runtime/store.js";
import { shortJson } from "./html.js";
import { esc } from "./text.js";
import { formatNumber } from "../util/numbers.js";

export type EventCategory = "run" | "transition" | "tool" | "failure" | "retry" | "violation" | "limit" | "approval" | "revision" | "resume" | "other";

export interface DescribedEvent {
  category: EventCategory;
  step?: string;
  text: string;
}

const s = (v: unknown): string => (typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v));
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(s) : []);

function describeChange(c: unknown): string {
  const ch = (c ?? {}) as { node?: unknown; from?: Record<string, unknown> | null; to?: Record<string, unknown> | null };
  if (!ch.from) return `added ${s(ch.node)}`;
  if (!ch.to) return `removed ${s(ch.node)}`;
  const keys = new Set([...Object.keys(ch.from), ...Object.keys(ch.to)]);
  const differ = [...keys].filter((k) => JSON.stringify(ch.from?.[k]) !== JSON.stringify(ch.to?.[k]));
  return `changed ${s(ch.node)}${differ.length ? ` (${differ.join(", ")})` : ""}`;
}

/** One event in words. */
export function describeEvent(e: RunEvent): DescribedEvent {
  const d = e.data;
  const step = typeof d.node === "string" ? d.node : undefined;
  const at = typeof d.attempt === "number" ? ` (attempt ${d.attempt})` : "";
  const withStep = (category: EventCategory, text: string): DescribedEvent => (step ? { category, step, text } : { category, text });
  switch (e.type) {
    case "run.started":
      return { category: "run", text: `run ${s(d.runId)} of plan ${s(d.plan)} started in ${s(d.workspace)}` };
    case "run.resumed":
      return { category: "run", text: `resumed from ${s(d.fromStatus)} (state v${s(d.stateVersion)})${d.migratedFrom !== undefined ? `, migrated from schema ${s(d.migratedFrom)}` : ""}` };
    case "run.paused":
    case "run.finished":
      return { category: "run", text: `run ${s(d.status)}${d.reason ? `: ${s(d.reason)}` : ""}` };
    case "node.transition":
      return withStep(d.to === "failed" ? "failure" : "transition", `${s(d.from)} → ${s(d.to)}${at}${d.error ? `: ${s(d.error)}` : ""}`);
    case "tool.call":
      return withStep("tool", `calls ${s(d.tool)}${at} with ${shortJson(d.args)}`);
    case "tool.result":
      return d.ok === false
        ? withStep("failure", `${s(d.tool)} failed after ${s(d.ms)} ms: ${s(d.error)}`)
        : withStep("tool", `${s(d.tool)} returned in ${s(d.ms)} ms`);
    case "retry":
      return withStep("retry", `attempt ${s(d.attempt)} failed (${s(d.error)}); attempt ${s(d.nextAttempt)} in ${s(d.delayMs)} ms`);
    case "violation":
      return withStep("violation", `call to ${s(d.tool)} refused: ${s(d.reason)}`);
    case "limit":
      return withStep("limit", `limit ${s(d.limit)} (${s(d.value)}) reached`);
    case "approval.requested":
      return withStep("approval", `waiting for approval${list(d.approvers).length ? ` by ${list(d.approvers).join(" or ")}` : ""}`);
    case "judge.requested":
      return withStep("approval", `waiting for a person to judge: ${s(d.criterion)}`);
    case "approval":
      return withStep("approval", `${s(d.kind) === "judge" ? "judged" : "approval"}: ${s(d.decision)} by ${s(d.by)}${d.note ? ` — “${s(d.note)}”` : ""}`);
    case "plan.revised": {
      const changed = Array.isArray(d.changed) ? d.changed.map(describeChange) : [];
      const parts = [`revision ${s(d.revision)}: ${s(d.reason)}`];
      if (changed.length) parts.push(`changes: ${changed.join("; ")}`);
      if (list(d.evidence).length) parts.push(`evidence: ${list(d.evidence).join(", ")}`);
      if (list(d.reset).length) parts.push(`reset: ${list(d.reset).join(", ")}`);
      return { category: "revision", text: parts.join(" — ") };
    }
    case "node.reset":
      return withStep("resume", `reset from ${s(d.from)}: ${s(d.reason)}`);
    case "node.adopted":
      return withStep("resume", `adopted the recorded result of key ${s(d.key)}`);
    case "idempotency.hit":
      return withStep("resume", `key ${s(d.key)} already has a result: reused, not called again`);
    default:
      return withStep("other", shortJson(d, 240));
  }
}

function clock(iso: string, start: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return esc(iso);
  const offset = (t - start) / 1000;
  return `${esc(iso.replace("T", " ").replace(/Z$/, ""))}<br><span class="muted">+${offset.toFixed(3)} s</span>`;
}

export interface TimelineOptions {
  /** Rows beyond this are elided from the middle: the start and the end matter most. */
  maxRows?: number;
  linkPrefix?: string;
}

/** The timeline section's table (with the filter controls its script drives). */
export function renderTimeline(events: readonly RunEvent[], opts: TimelineOptions = {}): string {
  const max = opts.maxRows ?? 5000;
  const prefix = opts.linkPrefix ?? "step-";
  const start = events.length ? Date.parse(events[0]!.time) : 0;
  const head = events.length > max ? events.slice(0, Math.floor(max / 3)) : events;
  const tail = events.length > max ? events.slice(events.length - (max - head.length)) : [];
  const row = (e: RunEvent) => {
    const d = describeEvent(e);
    const stepCell = d.step ? `<a href="#${esc(prefix + d.step)}">${esc(d.step)}</a>` : "";
    return `<tr class="event cat-${d.category}" data-category="${d.category}" data-step="${esc(d.step ?? "")}"><td class="num">${e.seq}</td><td class="when">${clock(e.time, start)}</td><td class="ev-type">${esc(e.type)}</td><td>${stepCell}</td><td>${esc(d.text)}</td></tr>`;
  };
  const gap = tail.length ? `<tr class="gap"><td colspan="5" class="muted">… ${formatNumber(events.length - head.length - tail.length)} events not shown (see events.jsonl) …</td></tr>` : "";
  const categories = [...new Set(events.map((e) => describeEvent(e).category))].sort();
  const filters =
    `<div class="filters"><label>Category <select id="ev-cat"><option value="">all</option>${categories.map((c) => `<option>${c}</option>`).join("")}</select></label>` +
    `<label>Step <input id="ev-step" type="search" placeholder="step id"></label><span id="ev-count" class="muted"></span></div>`;
  return (
    filters +
    `<table class="timeline"><thead><tr><th>#</th><th>time (UTC)</th><th>event</th><th>step</th><th>what happened</th></tr></thead><tbody>` +
    head.map(row).join("") +
    gap +
    tail.map(row).join("") +
    `</tbody></table>`
  );
}

/** The timeline filter: reads the controls and hides non-matching rows. */
export const TIMELINE_SCRIPT = `
(function () {
  var cat = document.getElementById("ev-cat"), step = document.getElementById("ev-step"), count = document.getElementById("ev-count");
  if (!cat || !step) return;
  function apply() {
    var rows = document.querySelectorAll("tr.event"), shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      var ok = (!cat.value || r.getAttribute("data-category") === cat.value) && (!step.value || (r.getAttribute("data-step") || "").indexOf(step.value) >= 0);
      r.style.display = ok ? "" : "none";
      if (ok) shown++;
    }
    count.textContent = " " + shown + " of " + rows.length + " events";
  }
  cat.addEventListener("change", apply);
  step.addEventListener("input", apply);
  apply();
})();
`;
