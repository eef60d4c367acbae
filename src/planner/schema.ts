/**
 * The structured-output schema sent to providers: the DSL's `#/definitions/plan` with
 * every `$ref` inlined (providers do not resolve references into a document they never
 * saw) and the keys the planner fills itself (`tools`, `templates`, `$schema`) removed.
 */
import { dslSchema } from "../compiler/index.js";

type Obj = Record<string, unknown>;

/** Keywords some providers refuse in a tool or response schema; the compiler still checks them. */
const DROPPED_KEYWORDS = new Set(["if", "then", "else", "$schema", "$id"]);

function inline(node: unknown, defs: Obj, seen: readonly string[]): unknown {
  if (Array.isArray(node)) return node.map((x) => inline(x, defs, seen));
  if (!node || typeof node !== "object") return node;
  const obj = node as Obj;
  const ref = obj.$ref;
  if (typeof ref === "string") {
    const name = ref.replace(/^#\/definitions\//, "");
    if (seen.includes(name)) throw new Error(`recursive schema definition ${name} cannot be inlined`);
    const target = defs[name];
    if (target === undefined) throw new Error(`unknown schema reference ${ref}`);
    const { $ref: _ref, ...rest } = obj;
    return { ...(inline(target, defs, [...seen, name]) as Obj), ...(inline(rest, defs, seen) as Obj) };
  }
  const out: Obj = {};
  for (const [k, v] of Object.entries(obj)) {
    if (DROPPED_KEYWORDS.has(k)) continue;
    // Property maps hold user-chosen names, not keywords: inline their values only.
    out[k] = k === "properties" || k === "patternProperties" ? inlineMap(v as Obj, defs, seen) : inline(v, defs, seen);
  }
  return out;
}

function inlineMap(map: Obj, defs: Obj, seen: readonly string[]): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(map)) out[k] = inline(v, defs, seen);
  return out;
}

/** A self-contained JSON Schema of `name`'s definition, with the given top-level properties removed. */
export function definitionSchema(name: string, omit: readonly string[] = []): Obj {
  const root = dslSchema() as { definitions: Obj };
  const schema = inline(root.definitions[name], root.definitions, [name]) as Obj;
  const props = { ...(schema.properties as Obj) };
  for (const k of omit) delete props[k];
  delete schema.patternProperties;
  return { ...schema, properties: props, required: ((schema.required as string[]) ?? []).filter((r) => !omit.includes(r)) };
}

/** The schema of a plan document as the model writes it. */
export function planRequestSchema(): Obj {
  // The model never names MCP servers: a stdio server is a program the runtime starts, which only a reviewer may choose.
  return definitionSchema("plan", ["tools", "templates", "mcp", "$schema"]);
}

/** The schema of one step, for refinement answers (a map of sub-steps). */
export function stepsRequestSchema(): Obj {
  const step = inline((dslSchema() as { definitions: Obj }).definitions.step, (dslSchema() as { definitions: Obj }).definitions, ["step"]);
  return {
    type: "object",
    additionalProperties: false,
    required: ["steps"],
    properties: {
      steps: { type: "object", description: "The sub-steps: the key is the local step id.", additionalProperties: step },
    },
  };
}
