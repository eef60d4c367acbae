/**
 * Success criteria, evaluated after each step (SPEC §1 `success`): `check` expressions
 * over the output, `evidence` references that must exist in the trace, and `judge`
 * criteria decided by a registered `judge` tool or, without one, by a person.
 */
import type { IRNode, SuccessCriterion } from "../ir.js";
import { evaluateSource, truthy, type EvalEnv } from "../compiler/expr/index.js";
import type { NodeState } from "./store.js";

export type CriteriaResult = { ok: true } | { ok: false; error: string } | { ok: "ask"; criterion: string };

export type Judge = (criterion: string, output: unknown) => Promise<{ pass: boolean; reason?: string }>;

function get(value: unknown, path: string[]): unknown {
  let cur = value;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

/** Checks one evidence reference (`steps.X` or `steps.X.output.path`) against the trace. */
function evidenceMissing(ref: string, env: EvalEnv, trace: (id: string) => NodeState | undefined): string | undefined {
  const parts = ref.split(".");
  if (parts[0] !== "steps" || !parts[1]) return `evidence "${ref}" is not a step reference`;
  const id = parts[1];
  const rec = trace(id);
  if (!rec || rec.status !== "done" || !rec.outputRef) return `evidence "${ref}": step "${id}" has no output in the trace`;
  if (parts.length > 2) {
    const v = get(env.steps?.[id], parts.slice(2));
    if (v === undefined || v === null) return `evidence "${ref}" is empty in the trace`;
  }
  return undefined;
}

/** Evaluates every criterion of `node` in order; the first failure (or question for a person) wins. */
export async function evaluateCriteria(
  node: IRNode,
  output: unknown,
  env: EvalEnv,
  state: NodeState,
  trace: (id: string) => NodeState | undefined,
  judge: Judge | undefined,
): Promise<CriteriaResult> {
  const withOutput: EvalEnv = { ...env, output };
  for (const c of node.success as SuccessCriterion[]) {
    if (c.check !== undefined) {
      if (!truthy(evaluateSource(c.check, withOutput))) return { ok: false, error: `success check failed: ${c.check}` };
    } else if (c.evidence) {
      for (const ref of c.evidence) {
        const missing = evidenceMissing(ref, env, trace);
        if (missing) return { ok: false, error: missing };
      }
    } else if (c.judge !== undefined) {
      const decided = state.judgeDecision;
      if (decided) {
        if (decided.decision === "rejected") {
          return { ok: false, error: `judged not met by ${decided.by}: ${c.judge}${decided.note ? ` (${decided.note})` : ""}` };
        }
        continue;
      }
      if (!judge) return { ok: "ask", criterion: c.judge };
      const verdict = await judge(c.judge, output);
      if (!verdict.pass) return { ok: false, error: `judge: not met: ${c.judge}${verdict.reason ? ` (${verdict.reason})` : ""}` };
    }
  }
  return { ok: true };
}
