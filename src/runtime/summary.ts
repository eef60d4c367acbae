/**
 * The status view of a run: a table of steps and the human checkpoint summary, built
 * only from the plan (goals, risks, approvers) and recorded facts (state, outputs).
 */
import type { IRNode, PlanIR } from "../ir.js";
import type { NodeState, RunState, StatusSummary } from "./store.js";
import { formatNumber } from "../util/numbers.js";
import { planspecVersion } from "../util/version.js";
import { inStateText } from "./artifact-ref.js";
import { NotKept, statesInOrder } from "./overview.js";
import { listedInOrder } from "./plan-file.js";

/** A few words of fact about an output: counts and short scalar fields. */
export function describeOutput(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return formatNumber(v);
  if (typeof v === "boolean") return String(v);
  if (typeof v === "string") return v.length <= 40 && !v.includes("\n") ? JSON.stringify(v) : `${formatNumber(v.length)} chars`;
  if (Array.isArray(v)) return `${formatNumber(v.length)} item${v.length === 1 ? "" : "s"}`;
  const parts: string[] = [];
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (typeof x === "number") parts.push(`${k}: ${formatNumber(x)}`);
    else if (typeof x === "boolean") parts.push(`${k}: ${x}`);
    else if (Array.isArray(x)) parts.push(`${k}: ${formatNumber(x.length)} item${x.length === 1 ? "" : "s"}`);
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

const TABLE_HEAD = ["STEP", "STATUS", "ATTEMPTS", "RISK", "TOOL", "TIME", "NOTE"];

function row(node: IRNode, st: NodeState): string[] {
  return [node.id, st.status, String(st.attempts), node.risk, node.tool ?? "-", duration(st), note(node, st)];
}

/** Rows of the status table, header first: every step, or only those `shown` lets through. */
export function statusTable(plan: PlanIR, state: RunState, shown?: ReadonlySet<string>): string[][] {
  const rows = [TABLE_HEAD];
  for (const node of inOrder(plan)) {
    const st = state.nodes[node.id];
    if (!st || (shown && !shown.has(node.id))) continue;
    rows.push(row(node, st));
  }
  return rows;
}

/** Plans with more steps than this get a table of the steps that matter, not of every step. */
export const STATUS_ROWS = 40;

/**
 * The plan's nodes in run order. A compiled plan usually lists them in that order
 * already: then no lookup table is built (100,000 map entries cost more than the rest of
 * a status).
 */
function inOrder(plan: PlanIR): IRNode[] {
  const { nodes, order } = plan;
  if (listedInOrder(plan) || (nodes.length === order.length && nodes.every((n, i) => n.id === order[i]))) return nodes;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out: IRNode[] = [];
  for (const id of order) {
    const n = byId.get(id);
    if (n) out.push(n);
  }
  return out;
}

/**
 * What the table, the count line and the checkpoint summary say about a run, from one
 * pass over its steps: lists of the few steps shown, counts of the others, so a long
 * run costs one loop and no row per step.
 */
interface Overview {
  ordered: IRNode[];
  /** Steps per status, over the plan's order. */
  counts: Map<string, number>;
  doneCount: number;
  /** The last five done steps, indices into `ordered`. */
  lastDone: number[];
  failed: number[];
  skipped: number[];
  rejected: number[];
  waiting: number[];
  /** The first five pending steps whose needs are met (and that wait for nobody). */
  next: number[];
  /** Running, failed, waiting or rejected steps: a long table shows them first. */
  attention: number[];
  /** The last five done steps that need no attention (the table's last rows). */
  quietDone: number[];
  /** Every step is skipped or done with its output (if any) in the state (looked at only when `withKept`). */
  keptInState: boolean;
}

const settledStatus = (s: string | undefined): boolean => s === "done" || s === "skipped";

function overview(plan: PlanIR, state: RunState, withKept = false, inPlace?: ReadonlyArray<NodeState | undefined>): Overview {
  const ordered = inOrder(plan);
  const o: Overview = { ordered, counts: new Map(), doneCount: 0, lastDone: [], failed: [], skipped: [], rejected: [], waiting: [], next: [], attention: [], quietDone: [], keptInState: withKept };
  // Every id of the order has a node (the usual case): the main loop counts too.
  const countAll = ordered.length === plan.order.length;
  if (!countAll) {
    for (const id of plan.order) {
      const s = state.nodes[id]?.status;
      if (s) o.counts.set(s, (o.counts.get(s) ?? 0) + 1);
    }
  }
  // The ids, read off the order when the nodes follow it: a lazy plan's node is parsed only when more than its id is read.
  const count = ordered.length;
  const ids = ordered === plan.nodes && count === plan.order.length ? plan.order : ordered.map((n) => n.id);
  // A view read from the writer's overview, and the scheduler, have the states by place already.
  const byPlace = ids === plan.order ? (inPlace ?? statesInOrder(state.nodes)) : undefined;
  for (let i = 0; i < count; i++) {
    const st = byPlace ? byPlace[i] : state.nodes[ids[i]!];
    if (!st) {
      o.keptInState = false;
      continue;
    }
    if (countAll) o.counts.set(st.status, (o.counts.get(st.status) ?? 0) + 1);
    if (o.keptInState && !(st.status === "skipped" || (st.status === "done" && (st.outputRef === undefined || inStateText(st.outputRef) !== undefined)))) o.keptInState = false;
    const rejected = st.status === "pending" && st.decision?.decision === "rejected";
    if (st.status === "done") {
      o.doneCount++;
      o.lastDone.push(i);
      if (o.lastDone.length > 5) o.lastDone.shift();
    } else if (st.status === "failed") o.failed.push(i);
    else if (st.status === "skipped") o.skipped.push(i);
    if (rejected) o.rejected.push(i);
    if (st.awaiting) o.waiting.push(i);
    if (st.status === "running" || st.status === "failed" || st.awaiting || st.decision?.decision === "rejected") o.attention.push(i);
    else if (st.status === "pending" && o.next.length < 5 && ordered[i]!.dependsOn.every((d) => settledStatus(state.nodes[d]?.status))) o.next.push(i);
    else if (st.status === "done") {
      o.quietDone.push(i);
      if (o.quietDone.length > 5) o.quietDone.shift();
    }
  }
  return o;
}

/**
 * The steps a long run's table shows: every step that is running, failed, waiting for a
 * person or rejected, the next ones to start, and the last done — at most STATUS_ROWS,
 * in plan order.
 */
function notableSteps(o: Overview): number[] {
  return [...o.attention, ...o.next, ...o.quietDone].slice(0, STATUS_ROWS).sort((a, b) => a - b);
}

/** Steps per status, in a fixed order: `100,000 steps: 99,990 done, 10 pending`. */
function countLine(plan: PlanIR, o: Overview): string {
  const parts = ["done", "running", "failed", "pending", "skipped"].filter((s) => o.counts.has(s)).map((s) => `${formatNumber(o.counts.get(s)!)} ${s}`);
  return `${formatNumber(plan.order.length)} steps: ${parts.join(", ")}`;
}

/**
 * What `planspec status` prints: the run's line, the table and the checkpoint summary.
 * A plan of more than STATUS_ROWS steps gets the steps that matter and a count per
 * status, unless `all` (`--all`). `outputs` are those of the last done steps (facts).
 */
export function statusText(plan: PlanIR, state: RunState, outputs: ReadonlyMap<string, unknown>, opts: { all?: boolean } = {}): string {
  return statusOf(plan, state, outputs, overview(plan, state), opts.all === true);
}

function statusOf(plan: PlanIR, state: RunState, outputs: ReadonlyMap<string, unknown>, o: Overview, all: boolean): string {
  const head = `run ${state.runId} (${plan.name}${state.revision ? `, revision ${state.revision}` : ""}): ${state.status}, ${state.budget.toolCalls} tool calls, state v${state.stateVersion}\n\n`;
  if (all || plan.order.length <= STATUS_ROWS) return head + formatRows(statusTable(plan, state)) + "\n" + summaryLines(plan, state, outputs, o).join("\n") + "\n";
  const shown = notableSteps(o);
  const rows = [TABLE_HEAD, ...shown.map((i) => row(o.ordered[i]!, state.nodes[o.ordered[i]!.id]!))];
  const omitted = `${countLine(plan, o)}; ${formatNumber(shown.length)} shown (--all lists every step)\n`;
  return head + formatRows(rows) + omitted + "\n" + summaryLines(plan, state, outputs, o).join("\n") + "\n";
}

/**
 * `statusText` with the facts read: `output` reads a stored output by reference (a
 * missing one shows no facts; resume will notice). A step's state the view needs but an
 * overview left out (`NotKept`) is thrown on, for the caller to read the whole state.
 */
export async function statusWithFacts(plan: PlanIR, state: RunState, output: (ref: string) => Promise<unknown>, opts: { all?: boolean } = {}): Promise<string> {
  const outputs = new Map<string, unknown>();
  // Facts come from the outputs of the most recent done steps only: status stays fast on huge runs.
  for (const id of factSteps(plan, state)) {
    try {
      outputs.set(id, await output(state.nodes[id]!.outputRef!));
    } catch (err) {
      if (err instanceof NotKept) throw err;
    }
  }
  return statusText(plan, state, outputs, opts);
}

/**
 * The summary a session's last snapshot keeps for `status`: what status will print once
 * that write (the next state version) is made. `output` reads a step's stored output;
 * `inPlace`: the states in the plan's order, if the caller has them (the scheduler).
 */
export async function nextSummary(plan: PlanIR, state: RunState, output: (id: string) => Promise<unknown>, inPlace?: ReadonlyArray<NodeState>): Promise<StatusSummary> {
  const facts = new Map<string, unknown>();
  for (const id of factSteps(plan, state)) {
    try {
      facts.set(id, await output(id));
    } catch {
      // A missing artifact: resume will notice; the summary just shows no facts.
    }
  }
  const o = overview(plan, state, true, inPlace);
  // Steps of the order without a node (a plan written by hand): the full resume decides.
  const settled = state.status === "done" && (plan.secrets ?? []).length === 0 && !Object.values(plan.inputs).some((s) => s.secret) && o.keptInState && o.ordered.length === plan.order.length;
  const done = o.ordered.length === plan.order.length ? o.doneCount : plan.order.filter((id) => state.nodes[id]?.status === "done").length;
  const next = { ...state, stateVersion: state.stateVersion + 1 };
  return { stateVersion: next.stateVersion, planspec: planspecVersion(), text: statusOf(plan, next, facts, o, false), done, total: plan.order.length, plan: plan.name, noopResume: settled };
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
  return summaryLines(plan, state, outputs, overview(plan, state));
}

function summaryLines(plan: PlanIR, state: RunState, outputs: ReadonlyMap<string, unknown>, o: Overview): string[] {
  const at = (i: number) => o.ordered[i]!;
  const lines = [`Goal: ${plan.goal}`];
  if (o.doneCount > 0) {
    const shown = o.lastDone.map(at).map((n) => {
      const fact = outputs.has(n.id) ? describeOutput(outputs.get(n.id)) : "";
      return `${lower(n.goal)}${fact ? ` (${fact})` : ""}`;
    });
    const earlier = o.doneCount > 5 ? ` (and ${o.doneCount - 5} earlier steps)` : "";
    lines.push(`Done ${o.doneCount}/${o.ordered.length}: ${shown.join("; ")}${earlier}`);
  }
  for (const n of o.failed.map(at)) lines.push(`Failed: ${lower(n.goal)} — ${state.nodes[n.id]!.lastError ?? "unknown error"}`);
  if (o.skipped.length > 0) lines.push(`Skipped: ${o.skipped.map(at).map((n) => `${lower(n.goal)} (${state.nodes[n.id]!.skipReason ?? "skipped"})`).join("; ")}`);
  for (const n of o.rejected.map(at)) {
    const d = state.nodes[n.id]!.decision!;
    lines.push(`Rejected: ${lower(n.goal)} (by ${d.by}${d.note ? `: ${d.note}` : ""})`);
  }
  for (const n of o.waiting.map(at)) lines.push(`Waiting: ${lower(n.goal)} (${n.risk}) — ${note(n, state.nodes[n.id]!)}`);
  if (o.next.length > 0) {
    lines.push(
      `Next: ${o.next
        .map(at)
        .map((n) => `${lower(n.goal)} (${n.risk})${n.approval?.required ? ` — needs approval${n.approval.approvers.length ? ` by ${n.approval.approvers.join(" or ")}` : ""}` : ""}`)
        .join("; ")}`,
    );
  }
  if (state.reason) lines.push(`Run ${state.status}: ${state.reason}`);
  return lines;
}
