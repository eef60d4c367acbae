/**
 * The evaluator. Semantics, in one place:
 *
 * - Roots: `inputs`, `steps`, `output`, `run`, `item` read the environment; an absent root
 *   is `null`. Any other bare name is an error (the compiler rejects it earlier).
 * - Access never throws: a missing property or index, or access into a non-object, is
 *   `null`, so `exists(output.x)` and `output.a.b.c == null` work on partial outputs.
 *   Only own properties are visible (no `constructor`, no `__proto__`).
 *   `list[i]` takes an integer index; `obj["k"]` a string key.
 * - `==` / `!=` are deep equality on JSON values (`1 == 1.0`, `[1] == [1]`).
 * - `<` `<=` `>` `>=` compare two numbers or two strings (code-unit order); anything else
 *   is an ExprEvalError, so `null > 0` is an error rather than a quiet `false`.
 * - `+` adds two numbers, or concatenates when either side is a string (the other side
 *   in text form: strings as they are, other values as JSON). `- * / %` need numbers;
 *   division or remainder by zero and non-finite results are errors.
 * - `&&` / `||` short-circuit and return booleans; `!` negates truthiness.
 * - Truthiness (for `when`, `check`, `repeat.until`): `false`, `null`, `0`, `NaN` and `""`
 *   are false; everything else, empty lists and objects included, is true (as in
 *   GitHub Actions; write `len(x) > 0` to test for items).
 * - Functions: see functions.ts.
 */
import type { Value } from "../../ir.js";
import { isExprValue, isTemplateValue } from "../../ir.js";
import { type Expr, ExprEvalError } from "./ast.js";
import { callFunction } from "./functions.js";
import { parseExpression } from "./parser.js";
import { deepEqual, isPlainObject, toText, typeName } from "./values.js";

export interface EvalEnv {
  inputs?: Record<string, unknown>;
  /** Values of the plan's `secrets:` (environment variables), by name. */
  secrets?: Record<string, unknown>;
  steps?: Record<string, { output?: unknown; status?: string }>;
  output?: unknown;
  run?: { id: string; [k: string]: unknown };
  item?: unknown;
}

/** Truthiness used by `when`, `check`, `repeat.until`. */
export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === "") return false;
  if (typeof v === "number") return v !== 0 && !Number.isNaN(v);
  return true;
}

const ROOTS = new Set(["inputs", "secrets", "steps", "output", "run", "item"]);

function get(obj: unknown, key: unknown): unknown {
  if (Array.isArray(obj)) {
    return typeof key === "number" && Number.isInteger(key) && key >= 0 && key < obj.length ? obj[key] : null;
  }
  if (isPlainObject(obj) && typeof key === "string" && Object.hasOwn(obj, key)) {
    const v = obj[key];
    return v === undefined ? null : v;
  }
  return null;
}

function number(v: unknown, op: string, node: Expr): number {
  if (typeof v !== "number") throw new ExprEvalError(`"${op}" needs numbers, got ${typeName(v)}`, node.start, node.end);
  return v;
}

function arithmetic(op: string, a: unknown, b: unknown, node: Expr): number {
  const x = number(a, op, node);
  const y = number(b, op, node);
  if ((op === "/" || op === "%") && y === 0) throw new ExprEvalError(`division by zero`, node.start, node.end);
  const r = op === "-" ? x - y : op === "*" ? x * y : op === "/" ? x / y : op === "%" ? x % y : x + y;
  if (!Number.isFinite(r)) throw new ExprEvalError(`"${op}" gives a number too large to represent`, node.start, node.end);
  return r;
}

function compare(op: string, a: unknown, b: unknown, node: Expr): boolean {
  const comparable = (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string");
  if (!comparable) {
    throw new ExprEvalError(`"${op}" compares two numbers or two strings, got ${typeName(a)} and ${typeName(b)}`, node.start, node.end);
  }
  const x = a as number | string;
  const y = b as number | string;
  return op === "<" ? x < y : op === "<=" ? x <= y : op === ">" ? x > y : x >= y;
}

/** Evaluates an AST in an environment; throws ExprEvalError on a type error. */
export function evaluate(ast: Expr, env: EvalEnv): unknown {
  switch (ast.type) {
    case "literal":
      return ast.value;
    case "list":
      return ast.items.map((item) => evaluate(item, env));
    case "ident": {
      if (!ROOTS.has(ast.name)) throw new ExprEvalError(`unknown name "${ast.name}"`, ast.start, ast.end);
      const v = env[ast.name as keyof EvalEnv];
      return v === undefined ? null : v;
    }
    case "member":
      return get(evaluate(ast.object, env), ast.property);
    case "index":
      return get(evaluate(ast.object, env), evaluate(ast.index, env));
    case "call":
      return callFunction(
        ast.callee,
        ast.args.map((a) => evaluate(a, env)),
        ast.start,
        ast.end,
      );
    case "unary": {
      const v = evaluate(ast.operand, env);
      if (ast.op === "!") return !truthy(v);
      return -number(v, "-", ast);
    }
    case "binary": {
      const { op } = ast;
      if (op === "&&") return truthy(evaluate(ast.left, env)) && truthy(evaluate(ast.right, env));
      if (op === "||") return truthy(evaluate(ast.left, env)) || truthy(evaluate(ast.right, env));
      const a = evaluate(ast.left, env);
      const b = evaluate(ast.right, env);
      switch (op) {
        case "==":
          return deepEqual(a, b);
        case "!=":
          return !deepEqual(a, b);
        case "<":
        case "<=":
        case ">":
        case ">=":
          return compare(op, a, b, ast);
        case "+":
          if (typeof a === "string" || typeof b === "string") return toText(a) + toText(b);
          return arithmetic(op, a, b, ast);
        default:
          return arithmetic(op, a, b, ast);
      }
    }
  }
}

// Runtime evaluates the same few sources once per step attempt; parse each once. The cap
// keeps a pathological plan (every step a distinct expression) from growing without end.
const cache = new Map<string, Expr>();
const CACHE_LIMIT = 50_000;

/** Parses (cached by source) and evaluates; throws ExprEvalError on a syntax or evaluation error. */
export function evaluateSource(src: string, env: EvalEnv): unknown {
  let ast = cache.get(src);
  if (!ast) {
    const { ast: parsed, errors } = parseExpression(src);
    const first = errors[0];
    if (first || !parsed) throw new ExprEvalError(first?.message ?? "invalid expression", first?.start, first?.end);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(src, parsed);
    ast = parsed;
  }
  return evaluate(ast, env);
}

/** Evaluates an IR `Value`: expressions to their value, templates to a string, containers recursively. */
export function evaluateValue(value: Value, env: EvalEnv): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => evaluateValue(v, env));
  if (isExprValue(value)) return evaluateSource(value.$expr, env);
  if (isTemplateValue(value)) {
    let out = "";
    for (const part of value.$template) out += typeof part === "string" ? part : toText(evaluateSource(part.$expr, env));
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = evaluateValue(v, env);
  return out;
}
