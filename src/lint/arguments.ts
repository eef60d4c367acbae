/**
 * What lint knows about a step's `with` arguments: their positions (for catalogue
 * `input_types`) and, where the compiler's expression parser can tell, the JSON type and
 * the producing step of an expression value. Anything it cannot tell is `unknown`, and
 * rules treat unknown as "no finding".
 */
import { parseExpression, references } from "../compiler/expr/index.js";
import type { DocPath } from "../compiler/source.js";
import { type IRNode, type PlanIR, type ToolSpec, type Value, isExprValue, isTemplateValue } from "../ir.js";

/** One argument by position: its value and its path below the step. */
export interface PositionalArg {
  value: Value | undefined;
  path: DocPath;
  /** How the argument is named in messages: `args[1]` or the property name. */
  name: string;
}

/**
 * The step's arguments by position: `with.args[k]` when the step passes a list under
 * `args` (the form the TaskBench importer writes), else the k-th property of the tool's
 * `input_schema.properties`. Undefined when neither applies.
 */
export function positionalArgs(node: IRNode, tool: ToolSpec): PositionalArg[] | undefined {
  const args = node.with?.args;
  if (Array.isArray(args)) return args.map((value, k) => ({ value, path: ["with", "args", k], name: `args[${k}]` }));
  const props = schemaProperties(tool.inputSchema);
  if (!props) return undefined;
  return Object.keys(props).map((name) => ({ value: node.with?.[name], path: ["with", name], name }));
}

function schemaProperties(schema: unknown): Record<string, unknown> | undefined {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return undefined;
  const props = (schema as { properties?: unknown }).properties;
  return props && typeof props === "object" && !Array.isArray(props) ? (props as Record<string, unknown>) : undefined;
}

export type JsonType = "string" | "number" | "integer" | "boolean" | "array" | "object" | "null";

/** What an argument value is, as far as the plan says. */
export type ArgFact =
  | { kind: "literal" }
  | { kind: "typed"; type: JsonType }
  /** `${{ steps.X.output }}`: the whole result of step X. */
  | { kind: "output"; step: string }
  | { kind: "unknown" };

interface Parsed {
  /** The single reference the whole expression is, when it is one. */
  ref?: { root: string; path: Array<string | number> };
  /** Set when the expression's type follows from its form (a comparison is boolean). */
  type?: JsonType;
}

// A corpus lint meets the same few expressions thousands of times.
const parsedCache = new Map<string, Parsed>();

function parse(src: string): Parsed {
  let p = parsedCache.get(src);
  if (p) return p;
  p = {};
  const { ast } = parseExpression(src);
  if (ast) {
    if (ast.type === "literal") p.type = ast.value === null ? "null" : (typeof ast.value as JsonType);
    else if (ast.type === "binary" && ["==", "!=", "<", "<=", ">", ">=", "&&", "||"].includes(ast.op)) p.type = "boolean";
    else if (ast.type === "unary" && ast.op === "!") p.type = "boolean";
    else if (ast.type === "list") p.type = "array";
    else if (ast.type === "ident" || ast.type === "member" || ast.type === "index") {
      const refs = references(ast);
      if (refs.length === 1 && refs[0]!.start === ast.start && refs[0]!.end === ast.end) p.ref = { root: refs[0]!.root, path: refs[0]!.path };
    }
  }
  parsedCache.set(src, p);
  return p;
}

/** The fact about one argument value in `ir`. */
export function argFact(value: Value | undefined, ir: PlanIR): ArgFact {
  if (value === undefined) return { kind: "unknown" };
  if (isTemplateValue(value)) return { kind: "typed", type: "string" };
  if (!isExprValue(value)) return { kind: "literal" };
  const p = parse(value.$expr);
  if (p.type) return { kind: "typed", type: p.type };
  const ref = p.ref;
  if (!ref) return { kind: "unknown" };
  if (ref.root === "inputs" && ref.path.length === 1) {
    const input = ir.inputs[String(ref.path[0])];
    return input ? { kind: "typed", type: input.type } : { kind: "unknown" };
  }
  if (ref.root === "steps" && ref.path.length === 2 && ref.path[1] === "output") return { kind: "output", step: String(ref.path[0]) };
  return { kind: "unknown" };
}

/** Resource types compare without case: TaskBench writes both `image` and `Image`. */
export function sameResourceType(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
