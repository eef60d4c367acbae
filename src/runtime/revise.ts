/**
 * Revisions (SPEC §5): a new plan replaces the run's plan; node state is mapped by id —
 * a done step whose definition is unchanged stays done, changed and new steps (and the
 * steps after them) run on resume — and a `plan.revised` event records why.
 */
import type { CompileResult } from "../compiler/index.js";
import type { Diagnostic } from "../diagnostic.js";
import type { IRNode, PlanIR } from "../ir.js";
import { lintCompiled } from "../lint/engine.js";
import { loadRun, openRun } from "./load.js";
import type { NodeState, RunState, Store } from "./store.js";

export class ReviseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReviseError";
  }
}

export interface Change {
  node: string;
  /** The old definition (without its source span), or null for a new step. */
  from: Record<string, unknown> | null;
  /** The new definition, or null for a removed step. */
  to: Record<string, unknown> | null;
}

function definition(n: IRNode): Record<string, unknown> {
  const { span: _span, ...rest } = n;
  return rest as unknown as Record<string, unknown>;
}

/** A canonical JSON text of a value (keys sorted, undefined dropped), to compare definitions. */
export function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(",")}]`;
  if (v !== null && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/** The steps that differ between two plans. */
export function diffPlans(oldPlan: PlanIR, newPlan: PlanIR): Change[] {
  const oldById = new Map(oldPlan.nodes.map((n) => [n.id, n]));
  const newIds = new Set(newPlan.nodes.map((n) => n.id));
  const changes: Change[] = [];
  for (const n of newPlan.nodes) {
    const o = oldById.get(n.id);
    if (!o) changes.push({ node: n.id, from: null, to: definition(n) });
    else if (stable(definition(o)) !== stable(definition(n))) changes.push({ node: n.id, from: definition(o), to: definition(n) });
  }
  for (const o of oldPlan.nodes) if (!newIds.has(o.id)) changes.push({ node: o.id, from: definition(o), to: null });
  return changes;
}

/** Maps node state onto the new plan: changed steps and everything downstream of them start over. */
export function mapState(state: RunState, newPlan: PlanIR, changes: Change[]): string[] {
  const changed = new Set(changes.filter((c) => c.to !== null).map((c) => c.node));
  const nodes: Record<string, NodeState> = {};
  const resetIds: string[] = [];
  const invalid = new Set<string>();
  const order = newPlan.order.length === newPlan.nodes.length ? newPlan.order : newPlan.nodes.map((n) => n.id);
  const byId = new Map(newPlan.nodes.map((n) => [n.id, n]));
  for (const id of order) {
    const node = byId.get(id)!;
    const old = state.nodes[id];
    const upstreamChanged = node.dependsOn.some((d) => invalid.has(d)) || node.consumes.some((d) => invalid.has(d));
    if (!old || changed.has(id) || upstreamChanged) {
      invalid.add(id);
      const fresh: NodeState = { status: "pending", attempts: 0 };
      if (old && old.status !== "pending") resetIds.push(id);
      // An approval given for the old upstream results does not carry over: they change.
      nodes[id] = fresh;
    } else {
      nodes[id] = old;
    }
  }
  state.nodes = nodes;
  return resetIds;
}

/**
 * The lint gate of a revision: errors of every rule (goal-drift and unsafe-revision among
 * them) on the new plan compared with the run's plan. `planspec revise` refuses on any.
 */
export function revisionLintErrors(compiled: CompileResult, runPlan: PlanIR): Diagnostic[] {
  const before: CompileResult = { ir: runPlan, kind: compiled.kind, diagnostics: [], sources: new Map(), origins: new Map() };
  return lintCompiled(compiled, { original: before }).filter((d) => d.severity === "error");
}

/**
 * Why `reviseRun` would refuse this revision of a run in this state (throws ReviseError),
 * else the changes it would record.
 */
export function checkRevision(state: RunState, oldPlan: PlanIR, newPlan: PlanIR, evidence: readonly string[]): Change[] {
  for (const ref of evidence) {
    const id = evidenceStep(ref, state);
    if (id !== undefined && state.nodes[id]?.status !== "done") throw new ReviseError(`evidence "${ref}": step "${id}" has no recorded output`);
  }
  const changes = diffPlans(oldPlan, newPlan);
  if (changes.length === 0 && oldPlan.planHash === newPlan.planHash) throw new ReviseError("the new plan is the same as the run's plan; nothing to revise");
  const running = Object.entries(state.nodes).filter(([, s]) => s.status === "running" && !s.awaiting);
  if (running.length > 0) throw new ReviseError(`steps ${running.map(([id]) => `"${id}"`).join(", ")} were interrupted; resume the run first`);
  return changes;
}

/** Applies a revision to a run (directory or store) and returns its number and changes. */
export async function reviseRun(
  run: string | Store,
  newPlan: PlanIR,
  opts: { reason: string; evidence: string[] },
): Promise<{ revision: number; changes: Change[]; reset: string[]; oldPlan: PlanIR }> {
  const store = typeof run === "string" ? openRun(run) : run;
  await store.lock();
  try {
    const { state, plan: oldPlan } = await loadRun(store);
    const changes = checkRevision(state, oldPlan, newPlan, opts.evidence);
    const revision = state.revision + 1;
    await store.saveRevision(revision, newPlan);
    const reset = mapState(state, newPlan, changes);
    state.revision = revision;
    state.planHash = newPlan.planHash;
    state.status = "paused";
    state.reason = `plan revised (revision ${revision}): resume to continue`;
    store.appendEvent("plan.revised", { revision, planHash: newPlan.planHash, reason: opts.reason, evidence: opts.evidence, changed: changes, reset });
    await store.writeState(state);
    await store.syncEvents();
    return { revision, changes, reset, oldPlan };
  } finally {
    await store.unlock();
  }
}

/** The step an evidence reference `steps.<id>[.field...]` names; ids of template steps hold dots (`steps.reporting.install`). */
function evidenceStep(ref: string, state: RunState): string | undefined {
  if (!ref.startsWith("steps.")) return undefined;
  const parts = ref.slice("steps.".length).split(".");
  for (let n = parts.length; n > 0; n--) {
    const id = parts.slice(0, n).join(".");
    if (state.nodes[id]) return id;
  }
  return parts[0];
}
