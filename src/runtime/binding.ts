/**
 * What an approval approves: a hash of what the step will do — its definition, tool,
 * evaluated `with`, idempotency key, the inputs it reads and the results of the steps it
 * consumes. `approve` records it with the decision; the gate recomputes it before the
 * call, and a decision whose binding differs (new inputs, a revision, a resume with
 * `--input`) is void: the run asks again.
 */
import type { IRNode, Value } from "../ir.js";
import { canonicalJson, sha256 } from "../compiler/canonical.js";
import { evaluateValue, type EvalEnv } from "../compiler/expr/index.js";
import { evaluateKey } from "./keys.js";
import type { RunState } from "./store.js";

const INPUT_REF = /\binputs\s*\.\s*([A-Za-z_][\w-]*)|\binputs\s*\[\s*\\?["']([^"'\\]+)/g;

/** The inputs a node's expressions mention; undefined when it reads them in a way a name cannot be seen (all count). */
export function inputsRead(node: IRNode): Set<string> | undefined {
  const text = JSON.stringify([node.with, node.when, node.idempotencyKey, node.forEach, node.repeat, node.success]);
  const refs = [...text.matchAll(INPUT_REF)];
  // `inputs[name]` with a computed name, or `inputs` passed whole: every input counts.
  if ((text.match(/\binputs\b/g)?.length ?? 0) > refs.length) return undefined;
  return new Set(refs.map((m) => m[1] ?? m[2] ?? ""));
}

function attempt<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    // A `with` that needs `item` (for_each) is bound through its definition and inputs.
    return null;
  }
}

/** The binding of `node` in `env` (the environment its call would be evaluated in). */
export function actionBinding(node: IRNode, env: EvalEnv, state: RunState): string {
  const { span: _span, ...definition } = node;
  const read = inputsRead(node);
  const inputs = Object.fromEntries(Object.entries(state.inputs).filter(([k]) => read === undefined || read.has(k)));
  const upstream = Object.fromEntries(node.consumes.map((id) => [id, state.nodes[id]?.outputHash ?? null]));
  const args = node.with ? attempt(() => evaluateValue(node.with as Value, env)) : null;
  const key = attempt(() => evaluateKey(node, env) ?? null);
  return sha256(canonicalJson({ definition, tool: node.tool ?? null, args, key, inputs, upstream }));
}
