/**
 * The status view of a run: a table of steps and the human checkpoint summary, built
 * only from the plan (goals, risks, approvers) and recorded facts (state, outputs).
 */
import type { IRNode, PlanIR } from "../ir.js";
import type { NodeState, RunState, StatusSummary } from "./store.js";
import { planspecVersion } from "../util/version.js";
import { inStateText } from "./artifact-ref.js";

const nf = new Intl.NumberFormat("en-US");

/** A few words of fact about an output: counts and short scalar fields. */
export function describeOutput(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return nf.format(v);
  if (typeof v === "boolean") return String(v);
  if (typeof v === "string") return v.length <= 40 && !v.includes("\n") ? JSON.stringify(v) : `${nf.format(v.length)} chars`;
  if (Array.isArray(v)) return `${nf.format(v.length)} item${v.length === 1 ? "" : "s"}`;
  const parts: string[] = [];
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (typeof x === "number") parts.push(`${k}: ${nf.format(x)}`);
    else if (typeof x === "boolean") parts.push(`${k}: ${x}`);
    else if (Array.isArray(x)) parts.push(`${k}: ${nf.format(x.length)} item${x.length === 1 ? "" : "s"}`);
    else if (typeof x === "string" && x.length <= 30 && !x.includes("\n")) parts.push(`${k}: ${x}`);
    if (parts.length === 3) break;
  }
  return parts.join(", ");
}

function duration(st: NodeState): string {
  if (!st.startedAt || !st.endedAt) return "";
  const ms = Date.parse(st.endedAt) - Date.parse(st.startedAt);
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

function note(node: IRNode, st: NodeState): string {
  if (st.status === "pending" && st.decision?.decision === "rejected") return `rejected by ${st.decision.by}${st.decision.note ? `: ${st.decision.note}` : ""} (skipped on resume)`;
  if (st.awaiting?.kind === "approval") return `needs approval${node.approval?.approvers.length ? ` by ${node.approval.approvers.join(" or ")}` : ""}`;
  if (st.awaiting?.kind === "judge") return `needs a person to judge: ${st.awaiting.criterion ?? ""}`;
  if (st.awaiting?.kind === "interrupted") return "interrupted mid-call";
  if (st.awaiting?.kind === "resolve") return "had its effect, but its recorded result is missing or altered: planspec resolve RUN STEP --rerun | --adopt RESULT.json";
  if (st.awaiting?.kind === "refine") return "refine this phase: planspec refine RUN STEP";
  if (st.status === "failed") return st.lastError ?? "";
  if (st.status === "skipped") return st.skipReason ?? "";
  if (st.decision) return `${st.decision.decision} by ${st.decision.by}`;
  return "";
}

/** Rows of the status table, header first: every step, or only those `shown` lets through. */
export function statusTable(plan: PlanIR, state: RunState, shown?: ReadonlySet<string>): string[][] {
  const rows = [["STEP", "STATUS", "ATTEMPTS", "RISK", "TOOL", "TIME", "NOTE"]];
  const byId = new Map(plan.nodes.map((n) => [n.id, n]));
  for (const id of plan.order) {
    const node = byId.get(id);
    const st = state.nodes[id];
    if (!node || !st || (shown && !shown.has(id))) continue;
    rows.push([id, st.status, String(st.attempts), node.risk, node.tool ?? "-", duration(st), note(node, st)]);
  }
  return rows;
}

/** Plans with more steps than this get a table of the steps that matter, not of every step. */
export const STATUS_ROWS = 40;

/**
 * The steps a long run's table shows: every step that is running, failed, waiting for a
 * person or rejected, the next ones to start, and the last done — at most STATUS_ROWS.
 */
function notableSteps(plan: PlanIR, state: RunState): Set<string> {
  const byId = new Map(plan.nodes.map((n) => [n.id, n]));
  const attention: string[] = [];
  const next: string[] = [];
  const done: string[] = [];
  for (const id of plan.order) {
    const st = state.nodes[id];
    if (!st) continue;
    if (st.status === "running" || st.status === "failed" || st.awaiting || st.decision?.decision === "rejected") attention.push(id);
    else if (st.status === "pending" && next.length < 5 && byId.get(id)?.dependsOn.every((d) => ["done", "skipped"].includes(state.nodes[d]?.status ?? ""))) next.push(id);
    else if (st.status === "done") done.push(id);
  }
  return new Set([...attention, ...next, ...done.slice(-5)].slice(0, STATUS_ROWS));
}

/** Steps per status, in a fixed order: `100,000 steps: 99,990 done, 10 pending`. */
function countLine(plan: PlanIR, state: RunState): string {
  const counts = new Map<string, number>();
  for (const id of plan.order) {
    const s = state.nodes[id]?.status;
    if (s) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const parts = ["done", "running", "failed", "pending", "skipped"].filter((s) => counts.has(s)).map((s) => `${nf.format(counts.get(s)!)} ${s}`);
  return `${nf.format(plan.order.length)} steps: ${parts.join(", ")}`;
}

/**
 * What `planspec status` prints: the run's line, the table and the checkpoint summary.
 * A plan of more than STATUS_ROWS steps gets the steps that matter and a count per
 * status, unless `all` (`--all`). `outputs` are those of the last done steps (facts).
 */
export function statusText(plan: PlanIR, state: RunState, outputs: ReadonlyMap<string, unknown>, opts: { all?: boolean } = {}): string {
  const head = `run ${state.runId} (${plan.name}${state.revision ? `, revision ${state.revision}` : ""}): ${state.status}, ${state.budget.toolCalls} tool calls, state v${state.stateVersion}\n\n`;
  const long = !opts.all && plan.order.length > STATUS_ROWS;
  const shown = long ? notableSteps(plan, state) : undefined;
  const omitted = shown ? `${countLine(plan, state)}; ${nf.format(shown.size)} shown (--all lists every step)\n` : "";
  return head + formatRows(statusTable(plan, state, shown)) + omitted + "\n" + checkpointSummary(plan, state, outputs).join("\n") + "\n";
}

/**
 * The summary a session's last snapshot keeps for `status`: what status will print once
 * that write (the next state version) is made. `output` reads a step's stored output.
 */
export async function nextSummary(plan: PlanIR, state: RunState, output: (id: string) => Promise<unknown>): Promise<StatusSummary> {
  const facts = new Map<string, unknown>();
  for (const id of factSteps(plan, state)) {
    try {
      facts.set(id, await output(id));
    } catch {
      // A missing artifact: resume will notice; the summary just shows no facts.
    }
  }
  let done = 0;
  let settled = state.status === "done" && (plan.secrets ?? []).length === 0 && !Object.values(plan.inputs).some((s) => s.secret);
  for (const id of plan.order) {
    const st = state.nodes[id];
    if (st?.status === "done") done++;
    if (settled && !(st?.status === "skipped" || (st?.status === "done" && (st.outputRef === undefined || inStateText(st.outputRef) !== undefined)))) settled = false;
  }
  const next = { ...state, stateVersion: state.stateVersion + 1 };
  return { stateVersion: next.stateVersion, planspec: planspecVersion(), text: statusText(plan, next, facts), done, total: plan.order.length, plan: plan.name, noopResume: settled };
}

/** The steps whose outputs give the checkpoint summary its facts: the last five done. */
export function factSteps(plan: PlanIR, state: RunState): string[] {
  const ids: string[] = [];
  for (let i = plan.order.length - 1; i >= 0 && ids.length < 5; i--) {
    const id = plan.order[i]!;
    if (state.nodes[id]?.status === "done" && state.nodes[id]?.outputRef) ids.unshift(id);
  }
  return ids;
}

/** Rows as aligned columns (the last column is not padded). */
export function formatRows(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd()).join("\n") + "\n";
}

function lower(goal: string): string {
  return goal.length > 0 ? goal[0]!.toLowerCase() + goal.slice(1).replace(/\.$/, "") : goal;
}

/**
 * The checkpoint summary: what is done (with facts from its outputs), what failed or
 * waits, and what comes next, in the plan's own words.
 */
export function checkpointSummary(plan: PlanIR, state: RunState, outputs: ReadonlyMap<string, unknown>): string[] {
  const byId = new Map(plan.nodes.map((n) => [n.id, n]));
  const ordered = plan.order.map((id) => byId.get(id)!).filter(Boolean);
  const of = (s: NodeState["status"]) => ordered.filter((n) => state.nodes[n.id]?.status === s);
  const lines = [`Goal: ${plan.goal}`];
  const done = of("done");
  if (done.length > 0) {
    const shown = done.slice(-5).map((n) => {
      const fact = outputs.has(n.id) ? describeOutput(outputs.get(n.id)) : "";
      return `${lower(n.goal)}${fact ? ` (${fact})` : ""}`;
    });
    const earlier = done.length > 5 ? ` (and ${done.length - 5} earlier steps)` : "";
    lines.push(`Done ${done.length}/${ordered.length}: ${shown.join("; ")}${earlier}`);
  }
  for (const n of of("failed")) lines.push(`Failed: ${lower(n.goal)} — ${state.nodes[n.id]!.lastError ?? "unknown error"}`);
  const skipped = of("skipped");
  if (skipped.length > 0) lines.push(`Skipped: ${skipped.map((n) => `${lower(n.goal)} (${state.nodes[n.id]!.skipReason ?? "skipped"})`).join("; ")}`);
  const rejected = ordered.filter((n) => state.nodes[n.id]?.status === "pending" && state.nodes[n.id]?.decision?.decision === "rejected");
  for (const n of rejected) {
    const d = state.nodes[n.id]!.decision!;
    lines.push(`Rejected: ${lower(n.goal)} (by ${d.by}${d.note ? `: ${d.note}` : ""})`);
  }
  const waiting = ordered.filter((n) => state.nodes[n.id]?.awaiting);
  for (const n of waiting) lines.push(`Waiting: ${lower(n.goal)} (${n.risk}) — ${note(n, state.nodes[n.id]!)}`);
  const next = ordered.filter((n) => {
    const st = state.nodes[n.id];
    if (!st || st.status !== "pending" || st.awaiting || st.decision?.decision === "rejected") return false;
    return n.dependsOn.every((d) => ["done", "skipped"].includes(state.nodes[d]?.status ?? ""));
  });
  if (next.length > 0) {
    lines.push(
      `Next: ${next
        .slice(0, 5)
        .map((n) => `${lower(n.goal)} (${n.risk})${n.approval?.required ? ` — needs approval${n.approval.approvers.length ? ` by ${n.approval.approvers.join(" or ")}` : ""}` : ""}`)
        .join("; ")}`,
    );
  }
  if (state.reason) lines.push(`Run ${state.status}: ${state.reason}`);
  return lines;
}
