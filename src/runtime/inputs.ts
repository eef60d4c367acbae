/** Run inputs: `--input k=v` strings checked and converted against the plan's declared inputs. */
import type { InputSpec, PlanIR } from "../ir.js";
import { cutClean } from "./redact.js";

/** A user error in the inputs of a run. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

/** JSON inputs nested deeper than this are refused: every later stage walks values recursively. */
export const MAX_INPUT_DEPTH = 100;

/** How a given value is quoted in an error: never a secret, never a page of text. */
function got(spec: InputSpec, raw: string): string {
  if (spec.secret) return "got something else (the value is secret and not shown)";
  return `got "${raw.length > 40 ? `${cutClean(raw, 40)}…` : raw}"`;
}

/** The nesting depth of a parsed JSON value, without recursion (a hostile value can be 100,000 deep). */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

function convert(name: string, spec: InputSpec, raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  switch (spec.type) {
    case "string":
      return raw;
    case "number":
    case "integer": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(n) || (spec.type === "integer" && !Number.isInteger(n))) {
        throw new InputError(`input "${name}" must be ${spec.type === "integer" ? "an integer" : "a number"}, ${got(spec, raw)}`);
      }
      return n;
    }
    case "boolean":
      if (raw === "true" || raw === "false") return raw === "true";
      throw new InputError(`input "${name}" must be true or false, ${got(spec, raw)}`);
    default: {
      let v: unknown;
      try {
        v = JSON.parse(raw) as unknown;
      } catch {
        // Reported below.
      }
      if (spec.type === "array" ? Array.isArray(v) : v !== null && typeof v === "object" && !Array.isArray(v)) {
        if (jsonDepth(v, MAX_INPUT_DEPTH) > MAX_INPUT_DEPTH) {
          throw new InputError(`input "${name}" is nested deeper than ${MAX_INPUT_DEPTH} levels; pass a flatter value`);
        }
        return v;
      }
      throw new InputError(`input "${name}" must be a JSON ${spec.type}, ${got(spec, raw)}`);
    }
  }
}

/** Applies defaults, converts types and rejects unknown or missing inputs. */
export function resolveInputs(plan: PlanIR, given: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Own names only: `constructor` or `__proto__` are not declared inputs because an object has them.
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(plan.inputs, name)) {
      const known = Object.keys(plan.inputs);
      throw new InputError(`unknown input "${name}"${known.length ? ` (the plan declares: ${known.join(", ")})` : " (the plan declares no inputs)"}`);
    }
  }
  for (const [name, spec] of Object.entries(plan.inputs)) {
    if (Object.hasOwn(given, name)) out[name] = convert(name, spec, given[name]);
    else if (spec.default !== undefined) out[name] = spec.default;
    else if (spec.required) throw new InputError(`missing input "${name}": pass --input ${name}=...`);
  }
  return out;
}

/** Parses `k=v` pairs (repeatable `--input`) into an object without a prototype, so `__proto__` is a name like any other. */
export function parseInputPairs(pairs: readonly string[]): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [i, p] of pairs.entries()) {
    const eq = p.indexOf("=");
    // The argument is not quoted: it is often a secret typed as name:value.
    if (eq <= 0) throw new InputError(`--input expects name=value: --input number ${i + 1} has ${eq === 0 ? "no name before the" : "no"} "=" (its text is not shown: it may be a secret)`);
    out[p.slice(0, eq)] = p.slice(eq + 1);
  }
  return out;
}
