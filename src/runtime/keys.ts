/** Evaluation of a step's `when` and `idempotency_key`, shared by the scheduler and resume. */
import type { IRNode, Value } from "../ir.js";
import { evaluateSource, evaluateValue, truthy, type EvalEnv } from "../compiler/expr/index.js";
import { PermanentStepError } from "./step.js";

/** The step's idempotency key, evaluated before the call; undefined when it has none. */
export function evaluateKey(node: IRNode, env: EvalEnv): string | undefined {
  if (node.idempotencyKey === undefined) return undefined;
  let v: unknown;
  try {
    v = evaluateValue(node.idempotencyKey as Value, env);
  } catch (err) {
    throw new PermanentStepError(`cannot evaluate idempotency_key of step "${node.id}": ${(err as Error).message}`);
  }
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** Whether the step's `when` holds (true when it has none). */
export function evaluateWhen(node: IRNode, env: EvalEnv): boolean {
  if (node.when === undefined) return true;
  try {
    return truthy(evaluateSource(node.when, env));
  } catch (err) {
    throw new PermanentStepError(`cannot evaluate when of step "${node.id}": ${(err as Error).message}`);
  }
}
