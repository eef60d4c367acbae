/**
 * The scheduler: runs ready steps concurrently up to a limit, applies the state machine,
 * and writes state.json once per loop turn — after applying finished steps and marking
 * newly started ones `running`, before their tools are called. A linear plan thus costs
 * one durable state write per step, and a crash anywhere leaves a state that names
 * every step whose tool may have run as `running`.
 */
import { setMaxListeners } from "node:events";
import type { IRNode, PlanIR } from "../ir.js";
import type { EvalEnv } from "../compiler/expr/index.js";
import { runAttempt, StorageError, type AttemptResult } from "./attempt.js";
import { envFor, outputSource, type OutputSource } from "./env.js";
import { errorMessage, LimitError, ViolationError, type Gateway } from "./gateway.js";
import { evaluateKey, evaluateWhen } from "./keys.js";
import { backoffMs, maxAttemptsOf, StepTimeoutError } from "./retry.js";
import { isSettled, resetNode, transition, type RunStatus } from "./states.js";
import { resolveHint, ResultLostError, runRef } from "./recorded.js";
import { PermanentStepError } from "./step.js";
import { nowIso, type Decision, type NodeState, type RunEvent, type RunState, type Store } from "./store.js";
import { nextSummary } from "./summary.js";
import { actionBinding } from "./binding.js";
import type { SecretSalt } from "./fingerprint.js";
import { canonicalJson } from "../compiler/canonical.js";
import { inRunOrder, type Ordered } from "./run-order.js";

export interface SchedulerOptions {
  concurrency: number;
  /** Called for every event this process appends (progress display). */
  emit: (type: string, data: Record<string, unknown>) => void;
  /** The per-step output limit in bytes. */
  maxOutputBytes?: number;
  /** Values of the plan's `secrets:`, for expressions. */
  secrets?: Record<string, string>;
  /** The digest of the session's tool modules and MCP server programs (code.ts): an approval is bound to it. */
  code?: string;
  /** The run's workspace: an approval is bound to the files of it that the step's arguments name (binding.ts `namedFiles`). */
  workspace?: string;
  /**
   * What the programs its tools start get (secrets.ts `programEnv`): an approval is bound to the programs a command's
   * words resolve to through its PATH (binding.ts `namedPrograms`) and to the values of the variables that change what
   * they do (binding.ts `boundVariables`), fingerprinted under `secretSalt`.
   */
  programEnv?: Readonly<Record<string, string>>;
  /** The run's salt (config.json), for the fingerprint of the bound variables. */
  secretSalt?: SecretSalt;
  /** The steps in run order with their states, if the caller has them (`inRunOrder` of this plan and state). */
  ordered?: Ordered;
}

export interface RunOutcome {
  status: RunStatus;
  reason?: string;
}

interface Launch {
  i: number;
  env: EvalEnv;
  key?: string;
}

type Completion = AttemptResult & { i: number };

export class Scheduler implements OutputSource {
  private readonly nodes: IRNode[];
  private readonly children: number[][];
  private readonly states: NodeState[];
  /** `states` are in the plan's order (not only in run order): the status summary takes them by place. */
  private readonly statesInPlanOrder: boolean;
  private readonly unmet: Int32Array;
  private readonly ready: number[] = [];
  private readyHead = 0;
  private readonly completions: Completion[] = [];
  private readonly dirty = new Set<string>();
  private readonly outputs = new Map<string, unknown>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly runAbort = new AbortController();
  private running = 0;
  private parked = 0;
  private rejected: string | undefined;
  private decisionEvents: Promise<RunEvent[]> | undefined;
  /** Idempotency key (stored form) -> the step that uses it; built on the first keyed step. */
  private keyOwners: Map<string, number> | undefined;
  private stopping: RunOutcome | undefined;
  private wakeResolve: (() => void) | undefined;
  private woken = false;
  private readonly sessionStart = Date.now();
  private readonly elapsedBefore: number;
  readonly inputs: Record<string, unknown>;
  readonly secrets: Record<string, string>;
  readonly runId: string;

  constructor(
    private readonly plan: PlanIR,
    private readonly state: RunState,
    private readonly store: Store,
    private readonly gateway: Gateway,
    private readonly opts: SchedulerOptions,
  ) {
    this.inputs = state.inputs;
    this.secrets = opts.secrets ?? {};
    this.runId = state.runId;
    this.elapsedBefore = state.budget.elapsedMs;
    // Each running attempt listens on the run's signal (step-abort.ts): its call waiting on
    // the tool and, once the tool reads ctx.signal, the step's own signal; up to
    // `concurrency` attempts at once, not a leak.
    setMaxListeners(Math.max(10, 2 * opts.concurrency + 1), this.runAbort.signal);
    const byId = new Map<string, number>();
    // Each step's state, looked up once: a dictionary lookup per step and pass costs more
    // than the pass itself on a long run. The scheduler changes these objects in place.
    const { nodes, ids, states } = opts.ordered ?? inRunOrder(plan, state, this.dirty);
    this.nodes = nodes;
    this.states = states;
    this.statesInPlanOrder = ids === plan.order;
    ids.forEach((id, i) => byId.set(id, i));
    this.children = this.nodes.map(() => []);
    this.unmet = new Int32Array(this.nodes.length);
    this.nodes.forEach((n, i) => {
      // A settled step is never ready again: its needs are not read (a lazily read plan's
      // step stays unparsed).
      if (isSettled(this.states[i]?.status)) return;
      for (const d of n.dependsOn) {
        const j = byId.get(d);
        if (j === undefined) continue;
        this.children[j]!.push(i);
        const s = this.states[j]?.status;
        if (s !== "done" && s !== "skipped") this.unmet[i]!++;
      }
    });
  }

  status(id: string): string | undefined {
    return this.state.nodes[id]?.status;
  }

  async output(id: string): Promise<unknown> {
    if (this.outputs.has(id)) return this.outputs.get(id);
    const ref = this.state.nodes[id]?.outputRef;
    const value = ref ? await this.store.getArtifact(ref) : null;
    this.outputs.set(id, value);
    return value;
  }

  private ns(i: number): NodeState {
    return this.states[i]!;
  }

  private move(i: number, to: NodeState["status"], error?: string): void {
    const node = this.nodes[i]!;
    const st = this.ns(i);
    const from = st.status;
    transition(node.id, st, to, maxAttemptsOf(node));
    if (to === "running") {
      st.startedAt = nowIso();
      st.endedAt = undefined;
    } else {
      st.endedAt = nowIso();
    }
    if (error !== undefined) st.lastError = error;
    this.dirty.add(node.id);
    this.opts.emit("node.transition", { node: node.id, from, to, attempt: st.attempts, ...(error !== undefined ? { error } : {}) });
  }

  private settle(i: number): void {
    for (const c of this.children[i]!) {
      if (--this.unmet[c]! === 0 && this.ns(c).status === "pending") this.ready.push(c);
    }
  }

  private skip(i: number, reason: string): void {
    this.ns(i).skipReason = reason;
    this.move(i, "skipped");
    this.settle(i);
  }

  private stop(outcome: RunOutcome): void {
    if (this.stopping && this.stopping.status === "terminated") return;
    this.stopping = outcome;
    if (outcome.status === "terminated") this.runAbort.abort(new LimitError(outcome.reason ?? "terminated"));
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private wake(): void {
    this.woken = true;
    const r = this.wakeResolve;
    this.wakeResolve = undefined;
    r?.();
  }

  private sleep(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((r) => {
      this.wakeResolve = () => {
        this.woken = false;
        r();
      };
    });
  }

  /** Runs until nothing more can run; returns the run's new status. */
  async run(): Promise<RunOutcome> {
    this.initialise();
    // A summary describes the session that wrote it.
    delete this.state.summary;
    this.state.status = "running";
    this.state.reason = undefined;
    const limit = this.plan.limits.runTimeoutMs;
    let runTimer: NodeJS.Timeout | undefined;
    // A lost lease stops the run at once: in-flight calls are aborted, nothing new starts.
    const lease = this.store.lease;
    const onLeaseLost = () => {
      this.stop({ status: "terminated", reason: errorMessage(lease?.signal.reason) });
      this.wake();
    };
    lease?.signal.addEventListener("abort", onLeaseLost, { once: true });
    if (limit !== undefined) {
      runTimer = setTimeout(() => {
        this.opts.emit("limit", { limit: "run_timeout", value: limit });
        this.stop({ status: "terminated", reason: `run_timeout (${limit}ms) reached` });
        this.wake();
      }, Math.max(0, limit - this.elapsedBefore));
    }
    try {
      for (;;) {
        this.drain();
        const launches: Launch[] = [];
        while (!this.stopping && this.running + launches.length < this.opts.concurrency && this.readyHead < this.ready.length) {
          const launch = await this.prepare(this.ready[this.readyHead++]!);
          if (launch) launches.push(launch);
        }
        const more = !this.stopping && this.readyHead < this.ready.length;
        const last = launches.length === 0 && this.running === 0 && this.timers.size === 0 && this.completions.length === 0 && !more;
        // The last turn starts nothing: its changes go into the closing snapshot below
        // instead of a record synced just before it (one sync less per session).
        if (last) break;
        if (this.dirty.size > 0) await this.commit();
        for (const l of launches) {
          this.running++;
          void this.execute(l);
        }
        if (!more || this.running >= this.opts.concurrency) await this.sleep();
      }
    } finally {
      if (runTimer) clearTimeout(runTimer);
      lease?.signal.removeEventListener("abort", onLeaseLost);
      // Calls still hanging (a timed-out tool that ignores its signal) are told the run is over.
      if (!this.runAbort.signal.aborted) this.runAbort.abort(new LimitError("the run ended"));
    }
    const outcome = this.outcome();
    this.state.status = outcome.status;
    this.state.reason = outcome.reason;
    // A full write: the session ends with a snapshot that people and tools can read alone,
    // and `status` can print from its first line.
    // Facts from the outputs as stored (scrubbed), as a reader of the run finds them.
    try {
      this.state.summary = await nextSummary(this.plan, this.state, (id) => this.store.getArtifact(this.state.nodes[id]!.outputRef!), this.statesInPlanOrder ? this.states : undefined);
    } catch (err) {
      // The last turn's changes are not on file yet: a summary that cannot be made must not lose them.
      if (this.dirty.size > 0) await this.commit();
      throw err;
    }
    await this.commit(true);
    delete this.state.summary;
    this.opts.emit(outcome.status === "paused" ? "run.paused" : "run.finished", { status: outcome.status, ...(outcome.reason ? { reason: outcome.reason } : {}) });
    await this.store.syncEvents();
    return outcome;
  }

  private initialise(): void {
    // Ready steps first: finishing a judged step below makes its children ready itself.
    this.nodes.forEach((_n, i) => {
      if (this.ns(i).status === "pending" && this.unmet[i] === 0) this.ready.push(i);
    });
    this.nodes.forEach((n, i) => {
      const st = this.ns(i);
      if (st.status === "pending") return;
      if (st.status === "running" && st.awaiting?.kind === "judge") this.finishJudged(i);
      else if (st.status === "running") throw new Error(`bug: step "${n.id}" is running when the scheduler starts`);
      else if (st.status === "failed") this.stop({ status: "failed", reason: `step "${n.id}" failed: ${st.lastError ?? "unknown error"}` });
    });
  }

  /** A step paused on a `judge` criterion: a recorded decision finishes it. */
  private finishJudged(i: number): void {
    const st = this.ns(i);
    const d = st.judgeDecision;
    if (!d) {
      this.parked++;
      return;
    }
    st.awaiting = undefined;
    if (d.decision === "approved") {
      this.move(i, "done");
      this.settle(i);
    } else {
      this.move(i, "failed", `judged not met by ${d.by}${d.note ? `: ${d.note}` : ""}`);
      this.stop({ status: "failed", reason: `step "${this.nodes[i]!.id}" was judged not met by ${d.by}` });
    }
  }

  /** Decides what a ready step does now: skip, wait for a person, or start. */
  private async prepare(i: number): Promise<Launch | undefined> {
    const node = this.nodes[i]!;
    const st = this.ns(i);
    if (st.status !== "pending" && st.status !== "failed") return undefined;
    const retry = st.status === "failed";
    if (st.awaiting?.kind === "resolve") {
      this.parked++;
      return undefined;
    }
    if (!retry) {
      if (node.dependsOn.length > 0 && node.dependsOn.every((d) => this.state.nodes[d]?.status === "skipped")) {
        this.skip(i, "all its needs were skipped");
        return undefined;
      }
      if (node.approval?.required && !(await this.gate(i))) return undefined;
    }
    const env = await envFor(node, this);
    let key: string | undefined;
    try {
      if (!retry && node.when !== undefined && !evaluateWhen(node, env)) {
        this.skip(i, `when is false: ${node.when}`);
        return undefined;
      }
      key = evaluateKey(node, env);
      const owner = key === undefined ? undefined : this.keyOwner(key, i);
      if (owner !== undefined) {
        throw new PermanentStepError(
          `idempotency_key "${key}" of step "${node.id}" is also the key of step "${this.nodes[owner]!.id}", which makes another call: "${node.id}" would adopt its result without calling ${node.tool ?? "its tool"}; give each step its own key`,
        );
      }
    } catch (err) {
      this.move(i, "running");
      this.move(i, "failed", errorMessage(err));
      this.stop({ status: "failed", reason: `step "${node.id}" failed: ${errorMessage(err)}` });
      return undefined;
    }
    if (node.kind === "phase") {
      // A phase is a placeholder for sub-steps: it must be refined, never "succeed" empty.
      if (st.awaiting?.kind !== "refine") {
        st.awaiting = { kind: "refine", since: nowIso() };
        this.dirty.add(node.id);
        this.opts.emit("refine.requested", { node: node.id, command: `planspec refine ${runRef(this.store)} ${node.id}` });
      }
      this.parked++;
      return undefined;
    }
    st.awaiting = undefined;
    if (key !== undefined) st.idempotencyKey = key;
    this.move(i, "running");
    return { i, env, key };
  }

  /**
   * The other step that uses `key` for another call, if one does; else step `i` owns the
   * key (or shares it with a step that makes the same call). A key's record says "this
   * effect happened": a second step making the same call (the same payment by mistake)
   * rightly adopts it, but one making another call (a receipt keyed like the invoice) was
   * passed off as done without its call. Keys compare in their stored form (secrets
   * tagged), so a key a step used in an earlier session counts.
   */
  private keyOwner(key: string, i: number): number | undefined {
    const norm = (k: string) => this.store.storedKey?.(k) ?? k;
    if (!this.keyOwners) {
      this.keyOwners = new Map();
      this.states.forEach((st, j) => {
        const k = st.idempotencyKey;
        if (k !== undefined && !this.keyOwners!.has(norm(k))) this.keyOwners!.set(norm(k), j);
      });
    }
    const k = norm(key);
    const owner = this.keyOwners.get(k);
    if (owner !== undefined && owner !== i) return sameCall(this.nodes[owner]!, this.nodes[i]!) ? undefined : owner;
    // A step whose key changed (new inputs on a resume) lets go of the old one.
    const before = this.ns(i).idempotencyKey;
    if (before !== undefined && norm(before) !== k && this.keyOwners.get(norm(before)) === i) this.keyOwners.delete(norm(before));
    this.keyOwners.set(k, i);
    return undefined;
  }

  /** The approval gate: true when the step may start now. An approval for something else than what the step will do now is void. */
  private async gate(i: number): Promise<boolean> {
    const node = this.nodes[i]!;
    const st = this.ns(i);
    const d = st.decision;
    if (d?.decision === "approved") {
      const problem = await this.approvalProblem(node, d);
      if (problem === undefined) return true;
      delete st.decision;
      st.awaiting = undefined;
      this.dirty.add(node.id);
      this.opts.emit("approval.voided", { node: node.id, by: d.by, reason: problem });
    }
    if (d?.decision === "rejected") {
      this.rejected ??= `step "${node.id}" was rejected by ${d.by}${d.note ? `: ${d.note}` : ""}`;
      this.skip(i, `rejected by ${d.by}`);
      return false;
    }
    const timeout = node.approval?.timeoutMs;
    if (st.awaiting && timeout !== undefined && Date.now() - Date.parse(st.awaiting.since) > timeout) {
      this.rejected ??= `approval of step "${node.id}" timed out`;
      this.skip(i, "approval timed out");
      return false;
    }
    if (!st.awaiting) {
      st.awaiting = { kind: "approval", since: nowIso() };
      this.dirty.add(node.id);
      this.opts.emit("approval.requested", { node: node.id, approvers: node.approval?.approvers ?? [] });
    }
    this.parked++;
    return false;
  }

  /** Why an approval does not hold for what the step will do now; undefined when it does. */
  private async approvalProblem(node: IRNode, d: Decision): Promise<string | undefined> {
    this.decisionEvents ??= this.store.readEvents().then((events) => events.filter((e) => e.type === "approval" && e.data.kind === "approval"));
    const recorded = (await this.decisionEvents).find((e) => e.data.node === node.id && e.data.decision === d.decision && e.data.by === d.by && e.data.binding === d.binding);
    if (!d.binding || !recorded) return "the decision was not recorded by planspec approve; approve it again";
    // `approve` bound the run as stored (secret inputs as their marks, no plan secrets, scrubbed outputs): judge by that view.
    const stored = { ...this.state, inputs: ((await this.store.readStateRaw()) as RunState).inputs };
    // An approver that could not see the workspace bound no files, programs or environment (decide.ts): judge as it did.
    const unseen = recorded.data.files === "unseen";
    const workspace = unseen ? undefined : this.opts.workspace;
    const programs = this.opts.programEnv && !unseen ? { env: this.opts.programEnv, salt: this.opts.secretSalt ?? null } : undefined;
    if (actionBinding(this.plan, node, await envFor(node, outputSource(stored, this.store)), stored, this.opts.code, workspace, programs) !== d.binding) {
      return "what the step will do (its arguments, idempotency key, the inputs or upstream results it reads, the workspace files they name, the programs they run, the environment they get, its tools, their servers and code, the secrets it is given) changed since it was approved; approve it again";
    }
    return undefined;
  }

  private async execute(l: Launch): Promise<void> {
    const node = this.nodes[l.i]!;
    const result = await runAttempt({
      node,
      state: this.ns(l.i),
      env: l.env,
      key: l.key,
      store: this.store,
      gateway: this.gateway,
      runSignal: this.runAbort.signal,
      trace: (id) => this.state.nodes[id],
      emit: this.opts.emit,
      ...(this.opts.maxOutputBytes !== undefined ? { maxOutputBytes: this.opts.maxOutputBytes } : {}),
    });
    this.complete({ i: l.i, ...result });
  }

  private complete(c: Completion): void {
    this.running--;
    this.completions.push(c);
    this.wake();
  }

  /** Applies finished steps to the state (in memory; the loop commits). */
  private drain(): void {
    while (this.completions.length > 0) {
      const c = this.completions.shift()!;
      const node = this.nodes[c.i]!;
      const st = this.ns(c.i);
      if (c.kind === "ok" || c.kind === "ask") {
        st.outputRef = c.art.ref;
        st.outputHash = c.art.hash;
        this.outputs.set(node.id, c.output);
      }
      if (c.kind === "ok") {
        st.lastError = undefined;
        this.move(c.i, "done");
        this.settle(c.i);
      } else if (c.kind === "ask") {
        st.awaiting = { kind: "judge", since: nowIso(), criterion: c.criterion };
        this.dirty.add(node.id);
        this.parked++;
        this.opts.emit("judge.requested", { node: node.id, criterion: c.criterion });
      } else if (c.error instanceof ResultLostError) {
        this.hold(c.i, c.error);
      } else {
        this.fail(c.i, c.error);
      }
    }
  }

  /** A keyed step whose recorded result is lost: back to pending, parked until a person resolves it. */
  private hold(i: number, err: ResultLostError): void {
    const node = this.nodes[i]!;
    const st = this.ns(i);
    resetNode(st);
    st.awaiting = { kind: "resolve", since: nowIso(), key: err.key };
    this.dirty.add(node.id);
    this.parked++;
    this.opts.emit("node.reset", { node: node.id, from: "running", reason: `its recorded result is lost: ${err.message}` });
    this.opts.emit("result.lost", { node: node.id, key: err.key, problem: err.message });
  }

  private fail(i: number, err: unknown): void {
    // The run's own storage failed: stop the session; the step stays running for resume.
    if (err instanceof StorageError) throw err;
    const node = this.nodes[i]!;
    const st = this.ns(i);
    const aborted = this.runAbort.signal.aborted;
    const message = aborted && this.stopping ? `${errorMessage(err)} (${this.stopping.reason ?? "run stopped"})` : errorMessage(err);
    this.move(i, "failed", message);
    if (err instanceof LimitError) {
      this.stop({ status: "terminated", reason: err.message });
      return;
    }
    if (aborted) return;
    const permanent = err instanceof ViolationError || err instanceof PermanentStepError || (err instanceof StepTimeoutError && err.stillRunning !== undefined);
    if (!permanent && !this.stopping && st.attempts < maxAttemptsOf(node)) {
      const delay = backoffMs(node, st.attempts);
      this.opts.emit("retry", { node: node.id, attempt: st.attempts, nextAttempt: st.attempts + 1, delayMs: delay, error: message });
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.ready.push(i);
        this.wake();
      }, delay);
      this.timers.add(t);
      return;
    }
    const reason = `step "${node.id}" failed${st.attempts > 1 ? ` after ${st.attempts} attempts` : ""}: ${message}`;
    this.stop({ status: err instanceof StepTimeoutError ? "terminated" : "failed", reason });
  }

  /** Writes the turn's changes; `last`: the session's last write, a snapshot a reader can use alone. */
  private async commit(last = false): Promise<void> {
    this.state.budget.elapsedMs = this.elapsedBefore + (Date.now() - this.sessionStart);
    const dirty = [...this.dirty];
    this.dirty.clear();
    await this.store.writeState(this.state, dirty, last ? { snapshot: true } : undefined);
  }

  private outcome(): RunOutcome {
    if (this.stopping) return this.stopping;
    if (this.parked > 0) return { status: "paused", reason: pausedReason(this.nodes, this.state, this.store) };
    if (this.rejected) return { status: "failed", reason: this.rejected };
    const open = this.nodes.find((_n, i) => {
      const s = this.states[i]!.status;
      return s !== "done" && s !== "skipped";
    });
    if (open) return { status: "failed", reason: `step "${open.id}" could not run` };
    return { status: "done" };
  }
}

/** Whether two steps make the same call: the same tool with the same arguments (as written), once or per item. */
function sameCall(a: IRNode, b: IRNode): boolean {
  return a.tool === b.tool && canonicalJson([a.with ?? null, a.forEach ?? null]) === canonicalJson([b.with ?? null, b.forEach ?? null]);
}

/** Why a run is paused, in one line: the steps waiting for a decision, and what settles the others. */
function pausedReason(nodes: readonly IRNode[], state: RunState, store: Store): string {
  const parts: string[] = [];
  const deciding = nodes.filter((n) => ["approval", "judge"].includes(state.nodes[n.id]!.awaiting?.kind ?? "")).map((n) => `"${n.id}"`);
  if (deciding.length > 0) parts.push(`waiting for a decision on ${deciding.join(", ")}`);
  for (const n of nodes) {
    const kind = state.nodes[n.id]!.awaiting?.kind;
    if (kind === "resolve") parts.push(`step "${n.id}" had its effect but its recorded result is missing or altered: check, then ${resolveHint(store, n.id)}`);
    else if (kind === "refine") parts.push(`refine this phase: "${n.id}" has no sub-steps yet; run planspec refine ${runRef(store)} ${n.id}`);
  }
  return parts.join("; ");
}

