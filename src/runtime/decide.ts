/** Recording a person's decision: an approval gate, or a `judge` criterion with no judge tool. */
import { existsSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import type { IRNode, PlanIR } from "../ir.js";
import { actionBinding } from "./binding.js";
import { envFor, outputSource } from "./env.js";
import { programEnv, runSalt } from "./secrets.js";
import { loadRun, openRun, readRunConfig } from "./load.js";
import type { Store } from "./store.js";
import { nowIso, type Decision, type NodeState, type RunState } from "./store.js";
import { formatDuration } from "../compiler/durations.js";

/** A decision that cannot be recorded (unknown step, no gate, not an approver, already decided). */
export class DecisionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DecisionError";
  }
}

export interface DecideResult {
  kind: "approval" | "judge";
  state: RunState;
  plan: PlanIR;
}

export interface StepAt {
  store: Store;
  state: RunState;
  plan: PlanIR;
  node: IRNode;
  st: NodeState;
}

/** Runs `fn` on `step` of a run (directory or store) under the run's lock: what a person's decision needs. */
export async function atStep<T>(run: string | Store, step: string, fn: (at: StepAt) => Promise<T>): Promise<T> {
  const store = typeof run === "string" ? openRun(run) : run;
  await store.lock();
  try {
    const { state, plan } = await loadRun(store);
    const node = plan.nodes.find((n) => n.id === step);
    const st = state.nodes[step];
    if (!node || !st) throw new DecisionError(`the run has no step "${step}"`);
    return await fn({ store, state, plan, node, st });
  } finally {
    await store.unlock();
  }
}

/** Records `decision` on `step` of a run (directory or store); the run continues on `resume`. */
export async function decide(
  run: string | Store,
  step: string,
  decision: Decision["decision"],
  by: string,
  note?: string,
): Promise<DecideResult> {
  return atStep(run, step, async ({ store, state, plan, node, st }) => {
    const record: Decision = { decision, by, at: nowIso(), ...(note ? { note } : {}) };
    let kind: DecideResult["kind"];
    // The approver could not see the workspace: the files its arguments name are not bound.
    let unseen = false;
    if (st.awaiting?.kind === "judge") {
      kind = "judge";
      st.judgeDecision = record;
    } else if (st.awaiting?.kind === "interrupted") {
      throw new DecisionError(`step "${step}" was interrupted mid-call, not waiting for approval; resume with --rerun-interrupted, or settle it with planspec resolve RUN ${step} --rerun | --adopt RESULT.json`);
    } else if (node.approval?.required) {
      kind = "approval";
      if (st.status !== "pending") throw new DecisionError(`step "${step}" is already ${st.status}`);
      if (st.decision) throw new DecisionError(`step "${step}" was already ${st.decision.decision} by ${st.decision.by}`);
      const approvers = node.approval.approvers;
      if (approvers.length > 0 && !approvers.includes(by)) {
        throw new DecisionError(`"${by}" may not decide step "${step}": its approvers are ${approvers.join(", ")}`);
      }
      // What the step will do is known only once its needs are done: decide it then.
      const unmet = node.dependsOn.filter((d) => !["done", "skipped"].includes(state.nodes[d]?.status ?? ""));
      if (unmet.length > 0) {
        throw new DecisionError(`step "${step}" is not waiting for a decision yet: its needs ${unmet.map((d) => `"${d}"`).join(", ")} are not done; decide it when the run pauses there`);
      }
      if (decision === "approved") refuseExpired(node, st);
      // Bound to the code the last session ran with, as its first event recorded it (approve may run on
      // another machine than the sessions: a PostgreSQL store); the session that resumes must run the same.
      // And to the workspace files its arguments name (`sh ./deploy.sh`), as they are now; an approver on a
      // machine without the workspace (a PostgreSQL store) cannot see them, and says so in the event.
      if (decision === "approved") {
        const config = await readRunConfig(store);
        const { workspace } = config;
        unseen = !existsSync(workspace);
        // And to the programs the command's words resolve to through the PATH a session started here would give them,
        // and to the values of the variables that change what they do (binding.ts `boundVariables`), as such a session would give them.
        // An approver who cannot see the workspace is on another machine: its environment is not the workers', so it binds
        // none, as it binds no files (else no approval from there could ever hold).
        record.binding = actionBinding(plan, node, await envFor(node, outputSource(state, store)), state, await sessionCode(store), unseen ? undefined : workspace, unseen ? undefined : { env: programEnv(plan, process.env), salt: runSalt(config) });
      }
      st.decision = record;
      delete st.awaiting;
    } else {
      throw new DecisionError(`step "${step}" has no approval gate and waits for no judgement`);
    }
    state.reason = `step "${step}" ${decision} by ${by}: resume to ${decision === "approved" ? "continue" : "apply the decision"}`;
    store.appendEvent("approval", { node: step, kind, decision, by, account: account(), ...(note ? { note } : {}), ...(record.binding ? { binding: record.binding } : {}), ...(unseen ? { files: "unseen" } : {}) });
    await store.writeState(state);
    await store.syncEvents();
    (store as Store).requeue?.();
    return { kind, state, plan };
  });
}

/** The code digest (code.ts) the run's last session recorded in its first event; undefined for a run of an older planspec. */
async function sessionCode(store: Store): Promise<string | undefined> {
  const types = ["run.started", "run.resumed"];
  const last = store.lastEvent ? await store.lastEvent(types) : (await store.readEvents()).filter((e) => types.includes(e.type)).at(-1);
  return typeof last?.data.code === "string" ? last.data.code : undefined;
}

/**
 * `approval.timeout` is the plan's deadline for a yes: once the request is older, only a
 * resume may settle it (as timed out). Without this an approval given late held whenever
 * it came before the next resume.
 */
function refuseExpired(node: IRNode, st: NodeState): void {
  const timeout = node.approval?.timeoutMs;
  if (timeout === undefined || st.awaiting?.kind !== "approval") return;
  const deadline = Date.parse(st.awaiting.since) + timeout;
  if (Date.now() <= deadline) return;
  throw new DecisionError(`the request to approve step "${node.id}" timed out at ${new Date(deadline).toISOString()} (approval.timeout ${formatDuration(timeout)}); resume to end it, or start a new run`);
}

/**
 * The operating-system account that ran the decision, for the audit: `--by` is a name the
 * approver gives (matched against the step's approvers), not an identity planspec can check.
 */
function account(): string {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    // No entry for the uid (a container's arbitrary user): the uid alone.
  }
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  return `${name ?? "?"}${uid !== undefined ? ` (uid ${uid})` : ""} on ${hostname()}`;
}
