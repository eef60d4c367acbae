/**
 * Resume checks (SPEC §5 resume (2)-(3)): done steps whose artifact is missing or altered
 * go back to pending with their descendants; steps found `running` were interrupted and
 * are adopted (idempotency record, its result checked and restored if need be), re-run (risk read, or --rerun-interrupted) or held
 * for a person (write/external without a record); failed steps get a fresh start.
 */
import type { IRNode, PlanIR } from "../ir.js";
import { inStateText } from "./artifact-ref.js";
import { inputsRead } from "./binding.js";
import { envFor, outputSource } from "./env.js";
import { evaluateKey } from "./keys.js";
import { recordedResult } from "./recorded.js";
import { resetNode, transition } from "./states.js";
import { nowIso, type RunState, type Store } from "./store.js";
import { pushAll } from "../util/arrays.js";
import { inRunOrder, type Ordered } from "./run-order.js";

export interface ResumeReport {
  reset: Array<{ node: string; reason: string }>;
  adopted: string[];
  /** Interrupted write/external steps without a record: the run cannot continue without a person. */
  blocked: Array<{ node: string; risk: string }>;
  /** Keyed steps whose effect happened but whose result is lost (`planspec resolve`). */
  unresolved: Array<{ node: string; problem: string }>;
}

type Emit = (type: string, data: Record<string, unknown>) => void;

/**
 * Repairs `state` in memory for a resume; the caller writes it. The ids of the nodes it
 * changes are added to `opts.touched`, so the caller can write them alone.
 */
export async function checkForResume(
  plan: PlanIR,
  state: RunState,
  store: Store,
  opts: { rerunInterrupted: boolean; emit: Emit; changedInputs?: ReadonlySet<string>; touched?: Set<string>; ordered?: Ordered },
): Promise<ResumeReport> {
  const report: ResumeReport = { reset: [], adopted: [], blocked: [], unresolved: [] };
  const touched = opts.touched ?? new Set<string>();
  // Each step's state, looked up once (`opts.ordered`: by the caller, with `touched`, for
  // the scheduler too). Repairs change these objects in place.
  const { nodes: ordered, states } = opts.ordered ?? inRunOrder(plan, state, touched);
  // Only a reset walks the graph: built on the first one, not for every resume.
  let childMap: Map<string, string[]> | undefined;
  const children = (): Map<string, string[]> => {
    if (childMap) return childMap;
    childMap = new Map();
    for (const n of plan.nodes) {
      for (const d of n.dependsOn) {
        const list = childMap.get(d) ?? [];
        list.push(n.id);
        childMap.set(d, list);
      }
    }
    return childMap;
  };
  const reset = (id: string, reason: string) => {
    const st = state.nodes[id]!;
    if (st.status === "pending" && !st.awaiting) return;
    const from = st.status;
    resetNode(st);
    touched.add(id);
    for (const k of ["outputRef", "outputHash", "lastError", "startedAt", "endedAt", "skipReason", "awaiting", "judgeDecision", "idempotencyKey"] as const) delete st[k];
    report.reset.push({ node: id, reason });
    opts.emit("node.reset", { node: id, from, reason });
  };
  const resetWithDescendants = (id: string, reason: string) => {
    const stack = [id];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const cur = stack.pop()!;
      if (seen.has(cur)) continue;
      seen.add(cur);
      const st = state.nodes[cur]!;
      // A rejected gate stays rejected: a person decided it.
      if (cur !== id && st.decision?.decision === "rejected") continue;
      reset(cur, cur === id ? reason : `depends on "${id}", which was reset`);
      pushAll(stack, children().get(cur) ?? []);
    }
  };

  const src = outputSource(state, store);
  const records = await store.readIdempotency();
  /** The key a step used (recorded when it started; evaluated for states of older versions). */
  const keyOf = async (node: IRNode): Promise<string | undefined> => {
    const st = state.nodes[node.id]!;
    if (st.idempotencyKey !== undefined || node.idempotencyKey === undefined) return st.idempotencyKey;
    try {
      return evaluateKey(node, await envFor(node, src));
    } catch {
      return undefined;
    }
  };
  /** A keyed step's effect happened but its result is lost: neither re-run nor adopted; a person resolves it. */
  const hold = (id: string, key: string, problem: string) => {
    resetWithDescendants(id, `its recorded result is lost: ${problem}`);
    state.nodes[id]!.awaiting = { kind: "resolve", since: nowIso(), key };
    touched.add(id);
    report.unresolved.push({ node: id, problem });
    opts.emit("result.lost", { node: id, key, problem });
  };

  for (let i = 0; i < ordered.length; i++) {
    const node = ordered[i]!;
    const id = node.id;
    const st = states[i]!;
    // An output kept in the state was checked with the state's checksum.
    if (st.status !== "done" || (st.outputRef && st.outputHash && (inStateText(st.outputRef) !== undefined || (await store.checkArtifact(st.outputRef, st.outputHash))))) continue;
    const key = await keyOf(node);
    const rec = key !== undefined ? records[key] : undefined;
    if (key === undefined || !rec || rec.resultRef !== (st.outputRef ?? null)) {
      resetWithDescendants(id, "its output artifact is missing or altered");
      continue;
    }
    const r = await recordedResult(store, rec);
    if (r.kind === "restored") opts.emit("artifact.restored", { node: id, key, resultRef: r.art.ref });
    else if (r.kind === "lost") hold(id, key, r.problem);
  }
  if (opts.changedInputs && opts.changedInputs.size > 0) {
    for (const n of plan.nodes) {
      if (readsInputs(n, opts.changedInputs)) resetWithDescendants(n.id, "an input it reads changed");
    }
  }

  for (let i = 0; i < ordered.length; i++) {
    const node = ordered[i]!;
    const id = node.id;
    const st = states[i]!;
    if (st.status === "failed") {
      reset(id, "failed in an earlier session; retried on resume");
      continue;
    }
    if (st.status !== "running" || st.awaiting?.kind === "judge") continue;
    const key = await keyOf(node);
    const rec = key !== undefined ? records[key] : undefined;
    const recorded = rec && rec.resultRef ? await recordedResult(store, rec) : undefined;
    if (recorded?.kind === "lost") {
      hold(id, key!, recorded.problem);
    } else if (recorded) {
      if (recorded.kind === "restored") opts.emit("artifact.restored", { node: id, key, resultRef: recorded.art.ref });
      st.outputRef = recorded.art.ref;
      st.outputHash = recorded.art.hash;
      delete st.awaiting;
      transition(id, st, "done");
      st.endedAt = nowIso();
      touched.add(id);
      report.adopted.push(id);
      opts.emit("node.adopted", { node: id, key, resultRef: recorded.art.ref });
      opts.emit("node.transition", { node: id, from: "running", to: "done", attempt: st.attempts });
    } else if (node.risk === "read" || opts.rerunInterrupted) {
      reset(id, node.risk === "read" ? "interrupted; a read step is re-run" : "interrupted; re-run allowed by --rerun-interrupted");
    } else {
      st.awaiting ??= { kind: "interrupted", since: nowIso() };
      touched.add(id);
      report.blocked.push({ node: id, risk: node.risk });
    }
  }
  return report;
}

/** Whether a node's expressions mention one of `names` as `inputs.<name>` (or read inputs in a way that hides the name). */
function readsInputs(node: IRNode, names: ReadonlySet<string>): boolean {
  const read = inputsRead(node);
  return read === undefined || [...names].some((n) => read.has(n));
}
