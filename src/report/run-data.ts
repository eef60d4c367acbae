/**
 * Everything a run report shows, read through the runtime's store API: the state, the
 * current plan, the event log, each step's evaluated arguments, output excerpt and errors.
 */
import type { IRNode, PlanIR } from "../ir.js";
import { loadRun } from "../runtime/load.js";
import { checkpointSummary, statusTable } from "../runtime/summary.js";
import type { NodeState, RunEvent, RunState, Store } from "../runtime/store.js";
import { jsonExcerpt, type Excerpt } from "./html.js";

export interface StepDetail {
  node: IRNode;
  state: NodeState;
  /** The evaluated arguments of the step's last tool call (from `tool.call` events). */
  args?: { attempt: number; value: Excerpt };
  output?: Excerpt;
  /** Why the recorded output could not be shown (artifact missing or unreadable). */
  outputProblem?: string;
  /** Every distinct error the step met, oldest first, with its attempt. */
  errors: string[];
}

export interface RunReportData {
  plan: PlanIR;
  state: RunState;
  events: RunEvent[];
  steps: StepDetail[];
  /** The `planspec status` table, header first. */
  table: string[][];
  /** The human checkpoint summary, one line each. */
  summary: string[];
  location: string;
}

export interface CollectOptions {
  /** Bytes of each output and argument list to keep (default 2048). */
  maxBytes?: number;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** Errors per step from the event log, de-duplicated, each tagged with its attempt. */
function errorsByStep(events: readonly RunEvent[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // tool.result events carry no attempt number: the node's current attempt is tracked.
  const attempt = new Map<string, number>();
  const add = (node: string, text: string, repeats?: { at: string; error: string }) => {
    const list = out.get(node) ?? [];
    // A failed transition repeats the error its tool call already reported.
    if (repeats && list.some((x) => x.startsWith(repeats.at) && x.endsWith(repeats.error))) return;
    if (!list.includes(text)) list.push(text);
    out.set(node, list);
  };
  for (const e of events) {
    const d = e.data;
    if (typeof d.node !== "string") continue;
    if (typeof d.attempt === "number") attempt.set(d.node, d.attempt);
    const n = attempt.get(d.node);
    const at = n !== undefined ? `attempt ${n}: ` : "";
    if (e.type === "tool.result" && d.ok === false) add(d.node, `${at}${str(d.tool) ?? "tool"} failed: ${str(d.error) ?? "unknown error"}`);
    else if (e.type === "node.transition" && str(d.error)) add(d.node, `${at}${str(d.error)}`, { at, error: str(d.error)! });
    else if (e.type === "violation") add(d.node, `${at}violation: ${str(d.tool) ?? "tool"} refused: ${str(d.reason) ?? ""}`);
    else if (e.type === "limit") add(d.node, `limit ${str(d.limit) ?? ""} (${String(d.value)}) reached`);
  }
  return out;
}

/** Reads a run for its report. */
export async function collectRunReport(store: Store, opts: CollectOptions = {}): Promise<RunReportData> {
  const maxBytes = opts.maxBytes ?? 2048;
  const { state, plan } = await loadRun(store);
  const events = await store.readEvents();
  const lastArgs = new Map<string, { attempt: number; args: unknown }>();
  for (const e of events) {
    if (e.type === "tool.call" && typeof e.data.node === "string") {
      lastArgs.set(e.data.node, { attempt: typeof e.data.attempt === "number" ? e.data.attempt : 0, args: e.data.args });
    }
  }
  const errors = errorsByStep(events);
  const outputs = new Map<string, unknown>();
  const byId = new Map(plan.nodes.map((n) => [n.id, n]));
  const steps: StepDetail[] = [];
  for (const id of plan.order) {
    const node = byId.get(id);
    const st = state.nodes[id];
    if (!node || !st) continue;
    const detail: StepDetail = { node, state: st, errors: [...(errors.get(id) ?? [])] };
    if (st.lastError && !detail.errors.some((x) => x.endsWith(st.lastError!))) detail.errors.push(st.lastError);
    const call = lastArgs.get(id);
    if (call) detail.args = { attempt: call.attempt, value: jsonExcerpt(call.args, maxBytes) };
    if (st.outputRef) {
      try {
        const value = await store.getArtifact(st.outputRef);
        outputs.set(id, value);
        detail.output = jsonExcerpt(value, maxBytes);
      } catch (err) {
        detail.outputProblem = `output ${st.outputRef} could not be read (${(err as Error).message.split("\n")[0]}); resume re-runs the step`;
      }
    }
    steps.push(detail);
  }
  return { plan, state, events, steps, table: statusTable(plan, state), summary: checkpointSummary(plan, state, outputs), location: store.location };
}
