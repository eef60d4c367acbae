/**
 * One attempt of one step: evaluate `with`, call the tool through the gateway (per item
 * for `for_each`, until the condition for `repeat`), and validate the output schema.
 * Nothing here touches run state; the scheduler owns that.
 */
import type { IRNode, Value } from "../ir.js";
import { evaluateSource, evaluateValue, truthy, type EvalEnv } from "../compiler/expr/index.js";
import type { CallContext, Gateway } from "./gateway.js";

/** A failure that retrying cannot fix (bad expression, too many items, refused call). */
export class PermanentStepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentStepError";
  }
}

/** Loops without a bound compile (the linter reports them); the runtime still stops here. */
export const HARD_LOOP_CAP = 1000;

function evalWith(node: IRNode, env: EvalEnv): Record<string, unknown> {
  if (!node.with) return {};
  try {
    return evaluateValue(node.with as Value, env) as Record<string, unknown>;
  } catch (err) {
    throw new PermanentStepError(`cannot evaluate "with" of step "${node.id}": ${(err as Error).message}`);
  }
}

function evalExpr(src: string, env: EvalEnv, what: string, node: IRNode): unknown {
  try {
    return evaluateSource(src, env);
  } catch (err) {
    throw new PermanentStepError(`cannot evaluate ${what} of step "${node.id}": ${(err as Error).message}`);
  }
}

async function callOnce(node: IRNode, env: EvalEnv, gateway: Gateway, cc: CallContext): Promise<unknown> {
  const args = evalWith(node, env);
  // A step without a tool (an approval gate, a decision recorded by hand) passes its
  // evaluated `with` through as its output.
  if (!node.tool) return node.with ? args : null;
  if (!node.repeat) return gateway.call(node.tool, args, cc);
  const max = node.repeat.maxAttempts ?? HARD_LOOP_CAP;
  for (let i = 1; i <= max; i++) {
    if (i > 1) await pollDelay(node.repeat.delayMs ?? 0, cc.abort.signal);
    const output = await gateway.call(node.tool, args, cc);
    if (truthy(evalExpr(node.repeat.until, { ...env, output }, "repeat.until", node))) return output;
  }
  throw new Error(`repeat: "${node.repeat.until}" still false after ${max} attempts`);
}

/**
 * Every item's idempotency key, before any call. Two different items with one key would
 * be one effect to an idempotent service (the second call answered with the first's
 * result): refused. Equal items may share a key: they are the same effect.
 */
function itemKeys(node: IRNode, env: EvalEnv, items: unknown[], itemKey: (env: EvalEnv) => string | undefined): Array<string | undefined> {
  const first = new Map<string, number>();
  return items.map((item, i) => {
    const key = itemKey({ ...env, item });
    if (key === undefined) return key;
    const j = first.get(key);
    if (j === undefined) first.set(key, i);
    else if (JSON.stringify(items[j]) !== JSON.stringify(item)) {
      throw new PermanentStepError(
        `idempotency_key of step "${node.id}" is "${key}" for items ${j + 1} and ${i + 1}, which differ: an idempotent service would do the first only; make the key read item`,
      );
    }
    return key;
  });
}

/** Waits `ms` between two polls of a `repeat`; an abort (timeout, run stopped) ends the wait at once. */
export function pollDelay(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs the body of one attempt and returns the step's output. `itemKey` evaluates the
 * step's idempotency key in an item's environment: each call of a `for_each` carries its
 * item's key, not the step's (which is evaluated without `item`).
 */
export async function runStepBody(
  node: IRNode,
  env: EvalEnv,
  gateway: Gateway,
  cc: CallContext,
  itemKey?: (env: EvalEnv) => string | undefined,
): Promise<unknown> {
  if (!node.forEach) return callOnce(node, env, gateway, cc);
  const items = evalExpr(node.forEach.items, env, "for_each.items", node);
  if (!Array.isArray(items)) throw new PermanentStepError(`for_each.items of step "${node.id}" is not a list`);
  const max = node.forEach.maxItems ?? HARD_LOOP_CAP;
  if (items.length > max) {
    throw new PermanentStepError(`for_each of step "${node.id}" has ${items.length} items, more than max_items ${max}`);
  }
  const keys = cc.idempotencyKey !== undefined && itemKey ? itemKeys(node, env, items, itemKey) : undefined;
  const results: unknown[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await callOnce(node, { ...env, item: items[i] }, gateway, keys ? { ...cc, idempotencyKey: keys[i] } : cc);
    }
  };
  const k = Math.max(1, Math.min(node.forEach.concurrency ?? 1, items.length || 1));
  await Promise.all(Array.from({ length: k }, worker));
  return results;
}
