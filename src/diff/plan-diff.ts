/**
 * A reviewer's diff of two compiled plans (`planspec diff OLD NEW`): steps added, removed
 * and changed field by field, edges, deliverables, effective risk and approval changes,
 * and success criteria that were removed or loosened. Which steps changed comes from the
 * revise path's `diffPlans`, so the diff and `revise` agree on it.
 */
import { type IRNode, type PlanIR, type Risk, type SuccessCriterion, riskRank } from "../ir.js";
import { formatDuration } from "../compiler/durations.js";
import { PlanGraph } from "../graph.js";
import { diffPlans, stable } from "../runtime/revise.js";

export interface FieldChange {
  field: string;
  from?: unknown;
  to?: unknown;
}

export interface StepChange {
  id: string;
  fields: FieldChange[];
}

export interface RiskChange {
  step: string;
  /** Absent for a new step. */
  from?: Risk;
  to: Risk;
  direction: "raised" | "lowered";
}

export interface ApprovalChange {
  step: string;
  change: "added" | "removed" | "changed";
  from?: unknown;
  to?: unknown;
}

export interface CriterionChange {
  step: string;
  change: "removed" | "loosened" | "added" | "changed";
  from?: string;
  to?: string;
  /** Why a change counts as loosened. */
  why?: string;
}

export interface PlanDiff {
  old: { file: string; name: string; planHash: string };
  new: { file: string; name: string; planHash: string };
  goal?: { from: string; to: string };
  steps: { added: string[]; removed: string[]; changed: StepChange[] };
  edges: { added: Array<[string, string]>; removed: Array<[string, string]> };
  deliverables: { added: string[]; removed: string[] };
  risk: RiskChange[];
  approvals: ApprovalChange[];
  criteria: CriterionChange[];
  /** Run-level limits, tools and inputs that differ. */
  plan: FieldChange[];
}

type Obj = Record<string, unknown>;

/** Node fields in reading order; the rest (new IR fields) follow sorted. */
const FIELD_ORDER = ["kind", "goal", "tool", "allowedTools", "risk", "riskInferred", "dependsOn", "consumes", "with", "output", "outputSchema", "success", "when", "retry", "timeoutMs", "repeat", "forEach", "approval", "idempotencyKey", "assumes", "phase", "template"];

/** DSL names for IR fields, as a plan's author wrote them. */
const DSL_NAME: Record<string, string> = {
  allowedTools: "allowed_tools",
  riskInferred: "risk (inferred)",
  dependsOn: "needs",
  outputSchema: "output_schema",
  timeoutMs: "timeout",
  forEach: "for_each",
  idempotencyKey: "idempotency_key",
  maxAttempts: "max_attempts",
  maxItems: "max_items",
  initialDelayMs: "initial_delay",
  maxDelayMs: "max_delay",
  maxSteps: "max_steps",
  runTimeoutMs: "run_timeout",
  maxToolCalls: "max_tool_calls",
};

export function dslName(field: string): string {
  return DSL_NAME[field] ?? field;
}

function fieldChanges(from: Obj, to: Obj): FieldChange[] {
  const keys = new Set([...Object.keys(from), ...Object.keys(to)]);
  keys.delete("id");
  keys.delete("span");
  keys.delete("consumes"); // derived from the expressions and needs, which show their own change
  const ordered = [...FIELD_ORDER.filter((k) => keys.has(k)), ...[...keys].filter((k) => !FIELD_ORDER.includes(k)).sort()];
  const out: FieldChange[] = [];
  for (const k of ordered) pushChanges(out, dslName(k), from[k], to[k], k === "timeoutMs");
  return out;
}

const isPlainMap = (v: unknown): v is Obj =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !("$expr" in v) && !("$template" in v);

/** One change per differing leaf of two maps (`with.template`), else one for the whole value. */
function pushChanges(out: FieldChange[], field: string, a: unknown, b: unknown, ms = false): void {
  if (stable(a) === stable(b)) return;
  if (isPlainMap(a) && isPlainMap(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])]) pushChanges(out, `${field}.${dslName(k)}`, a[k], b[k], k.endsWith("Ms"));
    return;
  }
  const c: FieldChange = { field };
  const form = (v: unknown) => (ms && typeof v === "number" ? formatDuration(v) : sourceForm(v));
  if (a !== undefined) c.from = form(a);
  if (b !== undefined) c.to = form(b);
  out.push(c);
}

/** A value as the plan wrote it: compiled expressions back to `${{ }}` text. */
export function sourceForm(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sourceForm);
  if (v !== null && typeof v === "object") {
    const o = v as Obj;
    if (typeof o.$expr === "string") return `\${{ ${o.$expr} }}`;
    if (Array.isArray(o.$template)) return o.$template.map((p) => (typeof p === "string" ? p : `\${{ ${(p as { $expr: string }).$expr} }}`)).join("");
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [dslName(k), k.endsWith("Ms") && typeof x === "number" ? formatDuration(x) : sourceForm(x)]));
  }
  return v;
}

function edgesOf(plan: PlanIR): Set<string> {
  const out = new Set<string>();
  for (const n of plan.nodes) for (const d of n.dependsOn) out.add(`${d}\u0000${n.id}`);
  return out;
}

function criterionText(c: SuccessCriterion): string {
  if (c.check !== undefined) return `check: ${c.check}`;
  if (c.evidence !== undefined) return `evidence: ${c.evidence.join(", ")}`;
  return `judge: ${c.judge ?? ""}`;
}

/** The `&&` clauses of a check, outside parentheses and strings. */
function clauses(check: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let last = 0;
  for (let i = 0; i < check.length; i++) {
    const ch = check[i]!;
    if (quote) {
      if (ch === quote && check[i - 1] !== "\\") quote = "";
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
    else if (depth === 0 && ch === "&" && check[i + 1] === "&") {
      out.push(check.slice(last, i).trim());
      last = i + 2;
      i++;
    }
  }
  out.push(check.slice(last).trim());
  return out.filter(Boolean).map((c) => c.replace(/\s+/g, " "));
}

/** `lhs op number`: a threshold a loosened check moves. */
function threshold(clause: string): { lhs: string; op: string; n: number } | undefined {
  const m = /^(.+?)\s*(>=|<=|>|<|==)\s*(-?\d+(?:\.\d+)?)$/.exec(clause);
  return m ? { lhs: m[1]!.trim(), op: m[2]!, n: Number(m[3]) } : undefined;
}

/** Why `to` accepts more than `from` (a check loosened), or undefined when it does not obviously. */
function loosening(from: string, to: string): string | undefined {
  const a = clauses(from);
  const b = clauses(to);
  const dropped = a.filter((c) => !b.includes(c));
  const added = b.filter((c) => !a.includes(c));
  if (dropped.length > 0 && added.length === 0) return `drops ${dropped.map((c) => `"${c}"`).join(", ")}`;
  if (dropped.length === 1 && added.length === 1) {
    const x = threshold(dropped[0]!);
    const y = threshold(added[0]!);
    if (x && y && x.lhs === y.lhs) {
      const lower = (op: string) => op === ">" || op === ">=";
      const upper = (op: string) => op === "<" || op === "<=";
      const admitsMore =
        (lower(x.op) && lower(y.op) && (y.n < x.n || (y.n === x.n && x.op === ">" && y.op === ">="))) ||
        (upper(x.op) && upper(y.op) && (y.n > x.n || (y.n === x.n && x.op === "<" && y.op === "<="))) ||
        (x.op === "==" && y.op !== "==");
      if (admitsMore) return `"${dropped[0]}" became "${added[0]}"`;
    }
  }
  return undefined;
}

function criteriaChanges(step: string, from: SuccessCriterion[], to: SuccessCriterion[]): CriterionChange[] {
  const out: CriterionChange[] = [];
  const a = from.map(criterionText);
  const b = to.map(criterionText);
  const gone = a.filter((t) => !b.includes(t));
  const fresh = b.filter((t) => !a.includes(t));
  // Pair a removed check with a new check: a rewrite, loosened or not.
  const freshChecks = fresh.filter((t) => t.startsWith("check: "));
  const freshEvidence = fresh.filter((t) => t.startsWith("evidence: "));
  for (const g of gone) {
    if (g.startsWith("evidence: ") && freshEvidence.length > 0) {
      const n = freshEvidence.shift()!;
      fresh.splice(fresh.indexOf(n), 1);
      const was = g.slice(10).split(", ");
      const now = new Set(n.slice(10).split(", "));
      const dropped = was.filter((r) => !now.has(r));
      const narrowed = dropped.length > 0 && [...now].every((r) => was.includes(r));
      out.push(narrowed ? { step, change: "loosened", from: g, to: n, why: `drops evidence ${dropped.join(", ")}` } : { step, change: "changed", from: g, to: n });
    } else if (g.startsWith("check: ") && freshChecks.length > 0) {
      const n = freshChecks.shift()!;
      fresh.splice(fresh.indexOf(n), 1);
      const why = loosening(g.slice(7), n.slice(7));
      out.push(why ? { step, change: "loosened", from: g, to: n, why } : { step, change: "changed", from: g, to: n });
    } else if (g.startsWith("check: ") && fresh.some((t) => t.startsWith("judge: "))) {
      const n = fresh.find((t) => t.startsWith("judge: "))!;
      fresh.splice(fresh.indexOf(n), 1);
      out.push({ step, change: "loosened", from: g, to: n, why: "a mechanical check became a judgement" });
    } else {
      out.push({ step, change: "removed", from: g });
    }
  }
  for (const n of fresh) out.push({ step, change: "added", to: n });
  return out;
}

function approvalOf(n: IRNode): unknown {
  if (n.kind === "approval") return { required: true, approvers: n.approval?.approvers ?? [], kind: "approval" };
  return n.approval?.required ? n.approval : undefined;
}

/** The diff of two compiled plans. */
export function diffPlanIR(oldPlan: PlanIR, newPlan: PlanIR): PlanDiff {
  const changes = diffPlans(oldPlan, newPlan);
  const oldGraph = new PlanGraph(oldPlan);
  const newGraph = new PlanGraph(newPlan);
  const diff: PlanDiff = {
    old: { file: oldPlan.source.file, name: oldPlan.name, planHash: oldPlan.planHash },
    new: { file: newPlan.source.file, name: newPlan.name, planHash: newPlan.planHash },
    steps: { added: [], removed: [], changed: [] },
    edges: { added: [], removed: [] },
    deliverables: {
      added: newPlan.deliverables.filter((d) => !oldPlan.deliverables.includes(d)),
      removed: oldPlan.deliverables.filter((d) => !newPlan.deliverables.includes(d)),
    },
    risk: [],
    approvals: [],
    criteria: [],
    plan: [],
  };
  if (oldPlan.goal.trim() !== newPlan.goal.trim()) diff.goal = { from: oldPlan.goal, to: newPlan.goal };
  for (const c of changes) {
    if (c.from === null) diff.steps.added.push(c.node);
    else if (c.to === null) diff.steps.removed.push(c.node);
    else diff.steps.changed.push({ id: c.node, fields: fieldChanges(c.from, c.to) });
  }
  const oldEdges = edgesOf(oldPlan);
  const newEdges = edgesOf(newPlan);
  const split = (e: string) => e.split("\u0000") as [string, string];
  for (const e of newEdges) if (!oldEdges.has(e)) diff.edges.added.push(split(e));
  for (const e of oldEdges) if (!newEdges.has(e)) diff.edges.removed.push(split(e));

  for (const n of newPlan.nodes) {
    const o = oldGraph.node(n.id);
    const to = newGraph.effectiveRisk(n);
    const from = o ? oldGraph.effectiveRisk(o) : undefined;
    if (from === undefined) {
      if (to !== "read") diff.risk.push({ step: n.id, to, direction: "raised" });
    } else if (from !== to) diff.risk.push({ step: n.id, from, to, direction: riskRank(to) > riskRank(from) ? "raised" : "lowered" });
    const ga = o ? approvalOf(o) : undefined;
    const gb = approvalOf(n);
    if (ga === undefined && gb !== undefined) diff.approvals.push({ step: n.id, change: "added", to: gb });
    else if (ga !== undefined && gb === undefined) diff.approvals.push({ step: n.id, change: "removed", from: ga });
    else if (ga !== undefined && stable(ga) !== stable(gb)) diff.approvals.push({ step: n.id, change: "changed", from: ga, to: gb });
    if (o) diff.criteria.push(...criteriaChanges(n.id, o.success, n.success));
  }
  for (const o of oldPlan.nodes) {
    if (newGraph.node(o.id)) continue;
    const gate = approvalOf(o);
    if (gate !== undefined) diff.approvals.push({ step: o.id, change: "removed", from: gate });
    for (const c of o.success) diff.criteria.push({ step: o.id, change: "removed", from: criterionText(c), why: "the step is removed" });
  }
  for (const [field, a, b] of [
    ["limits", oldPlan.limits, newPlan.limits],
    ["tools", oldPlan.tools, newPlan.tools],
    ["inputs", oldPlan.inputs, newPlan.inputs],
    ["hypotheses", oldPlan.hypotheses, newPlan.hypotheses],
  ] as const) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      pushChanges(diff.plan, `${field}.${dslName(k)}`, (a as Obj)[k], (b as Obj)[k], k.endsWith("Ms"));
    }
  }
  return diff;
}

/** True when nothing a reviewer would see differs. */
export function isEmptyDiff(d: PlanDiff): boolean {
  return (
    !d.goal &&
    d.steps.added.length + d.steps.removed.length + d.steps.changed.length + d.edges.added.length + d.edges.removed.length === 0 &&
    d.deliverables.added.length + d.deliverables.removed.length + d.risk.length + d.approvals.length + d.criteria.length + d.plan.length === 0
  );
}
