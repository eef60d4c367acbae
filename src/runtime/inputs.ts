/** Run inputs: `--input k=v` strings checked and converted against the plan's declared inputs. */
import type { InputSpec, PlanIR } from "../ir.js";

/** A user error in the inputs of a run. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
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
        throw new InputError(`input "${name}" must be ${spec.type === "integer" ? "an integer" : "a number"}, got "${raw}"`);
      }
      return n;
    }
    case "boolean":
      if (raw === "true" || raw === "false") return raw === "true";
      throw new InputError(`input "${name}" must be true or false, got "${raw}"`);
    default:
      try {
        const v = JSON.parse(raw) as unknown;
        if (spec.type === "array" ? Array.isArray(v) : v !== null && typeof v === "object" && !Array.isArray(v)) return v;
      } catch {
        // Reported below.
      }
      throw new InputError(`input "${name}" must be a JSON ${spec.type}, got "${raw}"`);
  }
}

/** Applies defaults, converts types and rejects unknown or missing inputs. */
export function resolveInputs(plan: PlanIR, given: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(given)) {
    if (!(name in plan.inputs)) {
      const known = Object.keys(plan.inputs);
      throw new InputError(`unknown input "${name}"${known.length ? ` (the plan declares: ${known.join(", ")})` : " (the plan declares no inputs)"}`);
    }
  }
  for (const [name, spec] of Object.entries(plan.inputs)) {
    if (name in given) out[name] = convert(name, spec, given[name]);
    else if (spec.default !== undefined) out[name] = spec.default;
    else if (spec.required) throw new InputError(`missing input "${name}": pass --input ${name}=...`);
  }
  return out;
}

/** Parses `k=v` pairs (repeatable `--input`). */
export function parseInputPairs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const eq = p.indexOf("=");
    if (eq <= 0) throw new InputError(`--input expects name=value, got "${p}"`);
    out[p.slice(0, eq)] = p.slice(eq + 1);
  }
  return out;
}
