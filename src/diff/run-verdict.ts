/**
 * Whether a live run can move to a new plan (`planspec diff OLD NEW --run RUN`): which done
 * steps stay valid and which run again (the revise path's `mapState`, on a copy of the
 * state), which side effects would happen again, and whether `planspec revise` would
 * accept the revision (its lint gate and `checkRevision`). Nothing is written.
 */
import type { CompileResult } from "../compiler/index.js";
import type { IRNode, PlanIR } from "../ir.js";
import { PlanGraph } from "../graph.js";
import { envFor } from "../runtime/env.js";
import { evaluateKey } from "../runtime/keys.js";
import { checkRevision, mapState, ReviseError, revisionLintErrors } from "../runtime/revise.js";
import type { IdempotencyRecord, RunState } from "../runtime/store.js";

export interface EffectRepeat {
  step: string;
  risk: "write" | "external";
  /** `repeats`: certain; `may-repeat`: the key reads outputs that are produced again; `deduplicated`: the recorded key matches. */
  verdict: "repeats" | "may-repeat" | "deduplicated";
  why: string;
}

export interface RunVerdict {
  runId: string;
  /** The run's plan differs from OLD (it was revised, or OLD is another plan). */
  runPlanIsOld: boolean;
  stayValid: string[];
  /** Steps that had run (done, failed, skipped, awaiting) and start over. */
  rerun: string[];
  /** Steps of NEW the run has not reached or that are new. */
  pending: string[];
  effects: EffectRepeat[];
  revise: { accepted: boolean; reasons: string[] };
}

const KEY_STEP_REF = /steps\s*(?:\.\s*([A-Za-z_][\w-]*)|\[\s*['"]([^'"]+)['"]\s*\])/g;

/** The steps an idempotency key's expressions read. */
function keyReads(node: IRNode): string[] {
  const text = JSON.stringify(node.idempotencyKey ?? "");
  return [...new Set([...text.matchAll(KEY_STEP_REF)].map((m) => (m[1] ?? m[2])!))];
}

export async function runVerdict(opts: {
  runId: string;
  state: RunState;
  runPlan: PlanIR;
  oldPlan: PlanIR;
  newCompiled: CompileResult & { ir: PlanIR };
  idempotency: Record<string, IdempotencyRecord>;
  /** A recorded step result (an artifact of the run). */
  artifact: (ref: string) => Promise<unknown>;
}): Promise<RunVerdict> {
  const { state, runPlan, idempotency } = opts;
  const newPlan = opts.newCompiled.ir;
  const reasons: string[] = [];
  let changes;
  try {
    changes = checkRevision(state, runPlan, newPlan, []);
  } catch (err) {
    if (!(err instanceof ReviseError)) throw err;
    reasons.push(err.message);
  }
  for (const d of revisionLintErrors(opts.newCompiled, runPlan)) reasons.push(`${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]`);

  const before = state.nodes;
  const copy: RunState = structuredClone(state);
  const reset = new Set(mapState(copy, newPlan, changes ?? []));
  const stayValid: string[] = [];
  const rerun: string[] = [];
  const pending: string[] = [];
  for (const id of newPlan.order) {
    const was = before[id];
    if (reset.has(id)) rerun.push(id);
    else if (was?.status === "done" && copy.nodes[id]?.status === "done") stayValid.push(id);
    else if (!was || copy.nodes[id]?.status === "pending") pending.push(id);
  }

  const graph = new PlanGraph(newPlan);
  // The environment keys are evaluated in, from the results that stay valid.
  const source = {
    inputs: state.inputs,
    runId: state.runId,
    status: (id: string) => copy.nodes[id]?.status,
    output: (id: string) => {
      const ref = copy.nodes[id]?.outputRef;
      return ref ? opts.artifact(ref) : Promise.resolve(null);
    },
  };
  const effects: EffectRepeat[] = [];
  for (const id of rerun) {
    if (before[id]?.status !== "done") continue; // only a completed call has had its effect
    const node = graph.node(id)!;
    const risk = graph.effectiveRisk(node);
    if (risk === "read") continue;
    const push = (verdict: EffectRepeat["verdict"], why: string) => effects.push({ step: id, risk, verdict, why });
    if (node.idempotencyKey === undefined) {
      push("repeats", "no idempotency_key: the call is made again");
      continue;
    }
    const reads = keyReads(node).filter((s) => reset.has(s));
    if (reads.length) {
      push("may-repeat", `its idempotency_key reads ${reads.map((s) => `steps.${s}`).join(", ")}, which run${reads.length === 1 ? "s" : ""} again: a different result makes a new key`);
      continue;
    }
    let key: string | undefined;
    try {
      key = evaluateKey(node, await envFor(node, source));
    } catch (err) {
      push("may-repeat", `its idempotency_key cannot be evaluated yet: ${(err as Error).message}`);
      continue;
    }
    if (key !== undefined && key in idempotency) push("deduplicated", `key "${key}" is recorded: the runtime reuses the result`);
    else push("repeats", `key "${key}" is not recorded: the call is made again`);
  }
  return {
    runId: opts.runId,
    runPlanIsOld: runPlan.planHash === opts.oldPlan.planHash,
    stayValid,
    rerun,
    pending,
    effects,
    revise: { accepted: reasons.length === 0, reasons },
  };
}
