/**
 * A call the tool cannot take fails at run time, after the steps before it have run
 * (and maybe written). The `with` arguments are checked against the tool's
 * `input_schema` with ajv: types, required and unknown arguments, the number of
 * positional arguments. An expression whose type the plan does not fix is not an error.
 */
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { loadAjv } from "../../compiler/lazy.js";
import { didYouMean } from "../../compiler/suggest.js";
import type { IRNode, JsonValue, PlanIR, ToolSpec, Value } from "../../ir.js";
import { type JsonType, argFact } from "../arguments.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "tool-argument-mismatch",
  meta: {
    description: "A step's `with` arguments do not fit its tool's input_schema (type, required, unknown, number of arguments).",
    defaultSeverity: "error",
    messages: {
      missing: 'step "{{step}}" does not pass argument "{{name}}", which tool "{{tool}}" requires',
      unknown: 'step "{{step}}" passes argument "{{name}}", which tool "{{tool}}" does not take{{suggestion}}',
      type: 'argument "{{name}}" of step "{{step}}" must be {{expected}} for tool "{{tool}}", got {{actual}}',
      arity: 'step "{{step}}" passes {{count}} positional argument{{s}} to tool "{{tool}}", which takes {{expected}}',
      other: 'argument "{{name}}" of step "{{step}}" does not fit the input_schema of tool "{{tool}}": {{reason}}',
    },
  },
  check(ctx) {
    const { ir } = ctx;
    // Each tool's validator, looked up once per plan: steps share tools.
    const byTool = new Map<ToolSpec, ValidateFunction | undefined>();
    for (const node of ir.nodes) {
      const tool = node.tool !== undefined ? ir.tools[node.tool] : undefined;
      if (!tool || node.kind === "phase") continue;
      let validate = byTool.get(tool);
      if (validate === undefined && !byTool.has(tool)) {
        validate = tool.inputSchema !== undefined ? validatorFor(tool.inputSchema) : undefined;
        byTool.set(tool, validate);
      }
      const base = { node: node.id, data: { step: node.id, tool: node.tool! } };
      if (validate) {
        const { instance, loose } = instanceOf(node, ir);
        if (validate(instance)) continue;
        for (const e of validate.errors ?? []) {
          const r = describe(e, loose);
          if (r) ctx.report({ ...base, messageId: r.messageId, path: node.with ? ["with", ...r.path] : [], data: { ...base.data, ...r.data } });
        }
      } else if (tool.inputTypes && Array.isArray(node.with?.args) && node.with.args.length !== tool.inputTypes.length) {
        // No schema, but the catalogue's input_types fix how many positional arguments there are.
        const count = node.with.args.length;
        const data = { ...base.data, count, s: count === 1 ? "" : "s", expected: `${tool.inputTypes.length} (${tool.inputTypes.join(", ")})` };
        ctx.report({ ...base, messageId: "arity", path: ["with", "args"], data });
      }
    }
  },
});

type MessageId = "missing" | "unknown" | "type" | "arity" | "other";

// verbose: errors carry the offending data and their schema, which the messages quote.
// logger: false, so an unknown `format` in a catalogue does not print while linting.
// Built for the first tool with an input_schema: most plans declare none, and loading ajv costs ~30 ms.
let ajv: Ajv | undefined;
const checker = (): Ajv => (ajv ??= new (loadAjv().Ajv)({ allErrors: true, strict: false, validateSchema: false, verbose: true, logger: false }));
const validators = new Map<string, ValidateFunction | null>();

/**
 * One compiled validator per distinct schema (a corpus repeats the same catalogue); null for
 * a schema ajv rejects. Keyed by the schema's text: each plan has its own schema objects.
 * (A WeakMap by object cost more than it saved: its entries are never hit again, and every
 * insertion is work for the collector.)
 */
function validatorFor(schema: JsonValue): ValidateFunction | undefined {
  if (schema === null || typeof schema !== "object") return undefined;
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (v === undefined) {
    try {
      v = checker().compile(schema);
    } catch {
      v = null; // a broken schema is the catalogue's problem, not this step's
    }
    validators.set(key, v);
  }
  return v ?? undefined;
}

const SAMPLE: Record<JsonType, unknown> = { string: "", number: 0, integer: 0, boolean: false, array: [], object: {}, null: null };

/**
 * The arguments as a JSON instance for ajv: literals as written, expressions of a known
 * type as a sample of that type, others as a placeholder. `loose` maps instance paths to
 * what is known there: only the type (`actual` names it for messages), or nothing.
 */
interface Loose {
  known: "type" | "none";
  actual?: string;
}

function instanceOf(node: IRNode, ir: PlanIR): { instance: unknown; loose: Map<string, Loose> } {
  const loose = new Map<string, Loose>();
  const walk = (v: Value, pointer: string): unknown => {
    const fact = argFact(v, ir);
    if (fact.kind === "typed") {
      loose.set(pointer, { known: "type", actual: `a ${fact.type} expression` });
      return SAMPLE[fact.type];
    }
    if (fact.kind === "output") {
      const type = outputType(ir, fact.step);
      loose.set(pointer, type ? { known: "type", actual: `the ${type} output of step "${fact.step}"` } : { known: "none" });
      return type ? SAMPLE[type] : null;
    }
    if (fact.kind === "unknown") {
      loose.set(pointer, { known: "none" });
      return null;
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${pointer}/${i}`));
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
      return out;
    }
    return v;
  };
  return { instance: walk(node.with ?? {}, ""), loose };
}

/** The declared JSON type of a step's whole output, when its output_schema names one. */
function outputType(ir: PlanIR, step: string): JsonType | undefined {
  const producer = ir.nodes.find((n) => n.id === step);
  // A for_each step's output is the list of its items' results, whatever its schema says.
  if (producer?.forEach) return undefined;
  const schema = (producer?.outputSchema ?? (producer?.tool !== undefined ? ir.tools[producer.tool]?.outputSchema : undefined)) as { type?: unknown } | undefined;
  const t = schema?.type;
  return typeof t === "string" && t in SAMPLE ? (t as JsonType) : undefined;
}

/** Turns one ajv error into a report, or nothing when it is about a value the plan leaves open. */
function describe(e: ErrorObject, loose: ReadonlyMap<string, Loose>): { messageId: MessageId; path: Array<string | number>; data: Record<string, string | number> } | undefined {
  const at = e.instancePath;
  let actual: string | undefined;
  for (const [p, l] of loose) {
    const inside = at === p || at.startsWith(`${p}/`);
    if (inside && (l.known === "none" || at !== p || e.keyword !== "type")) return undefined;
    if (at === p) actual = l.actual;
  }
  const path = at === "" ? [] : at.slice(1).split("/").map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, "/").replace(/~0/g, "~")));
  const name = path.length ? path.map((s, i) => (typeof s === "number" ? `[${s}]` : i ? `.${s}` : s)).join("") : "with";
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return { messageId: "missing", path, data: { name: String(params.missingProperty) } };
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const hint = didYouMean(key, Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {}));
      return { messageId: "unknown", path: [...path, key], data: { name: key, suggestion: hint ? ` (${hint})` : "" } };
    }
    case "type":
      return { messageId: "type", path, data: { name, expected: String(params.type), actual: actual ?? kindOf(e.data) } };
    case "minItems":
    case "maxItems": {
      const count = Array.isArray(e.data) ? e.data.length : 0;
      const schema = e.parentSchema as { minItems?: number; maxItems?: number; description?: string } | undefined;
      const range = schema?.minItems === schema?.maxItems ? `${schema?.minItems}` : `${schema?.minItems ?? 0} to ${schema?.maxItems ?? "any"}`;
      const what = schema?.description ? ` (${schema.description})` : "";
      return { messageId: "arity", path, data: { count, s: count === 1 ? "" : "s", expected: `${range}${what}` } };
    }
    default:
      return { messageId: "other", path, data: { name, reason: e.message ?? e.keyword } };
  }
}

function kindOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : `${typeof v} ${JSON.stringify(v)}`;
}
