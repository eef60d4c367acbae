/**
 * The built-in functions: their arity and docs (checked at parse time) and their
 * implementations (used by the evaluator). A missing value (`null`) is an empty thing
 * for the "is there anything" functions (`len` → 0, `contains`/`startsWith`/`endsWith`
 * → false, `keys` → []) and a type error everywhere else.
 */
import { type ExprError, ExprEvalError } from "./ast.js";
import { deepEqual, isPlainObject, toText, typeName } from "./values.js";

/** The built-in functions by name: arity bounds (checked at parse time) and a one-line doc. */
export const FUNCTIONS: Record<string, { minArgs: number; maxArgs: number; doc: string }> = {
  len: { minArgs: 1, maxArgs: 1, doc: "len(x): characters of a string, items of a list, keys of an object; 0 for null" },
  exists: { minArgs: 1, maxArgs: 1, doc: "exists(x): true unless x is null (a missing property is null)" },
  contains: { minArgs: 2, maxArgs: 2, doc: "contains(list, x): x is an item (deep equality); contains(string, s): s is a substring" },
  startsWith: { minArgs: 2, maxArgs: 2, doc: "startsWith(s, prefix): case-sensitive prefix test" },
  endsWith: { minArgs: 2, maxArgs: 2, doc: "endsWith(s, suffix): case-sensitive suffix test" },
  lower: { minArgs: 1, maxArgs: 1, doc: "lower(s): the string in lower case" },
  upper: { minArgs: 1, maxArgs: 1, doc: "upper(s): the string in upper case" },
  join: { minArgs: 1, maxArgs: 2, doc: "join(list, sep=','): the items as text, separated by sep" },
  keys: { minArgs: 1, maxArgs: 1, doc: "keys(obj): the property names of an object, in order" },
  toJSON: { minArgs: 1, maxArgs: 1, doc: "toJSON(x): x as compact JSON text" },
  fromJSON: { minArgs: 1, maxArgs: 1, doc: "fromJSON(s): the value the JSON text s holds" },
};

/** Levenshtein distance, case-insensitive, for "did you mean". */
function distance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

// Names people reach for from other languages, which edit distance alone would miss.
const aliases: Record<string, string> = {
  length: "len",
  size: "len",
  count: "len",
  includes: "contains",
  has: "contains",
  defined: "exists",
  isdefined: "exists",
  tolowercase: "lower",
  touppercase: "upper",
  parsejson: "fromJSON",
  parse: "fromJSON",
  stringify: "toJSON",
  tostring: "toJSON",
};

/** The closest known function name to `name`, if one is close enough to be a likely typo. */
export function suggestFunction(name: string): string | undefined {
  const alias = aliases[name.toLowerCase()];
  if (alias) return alias;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of Object.keys(FUNCTIONS)) {
    const d = distance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

function plural(n: number): string {
  return n === 1 ? "1 argument" : `${n} arguments`;
}

/** The parse-time check of a call: an unknown name or a wrong number of arguments. */
export function checkCall(name: string, argc: number, start: number, nameEnd: number, end: number): ExprError | undefined {
  const spec = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  if (!spec) {
    const close = suggestFunction(name);
    return {
      kind: "unknown-function",
      message: `unknown function "${name}"`,
      start,
      end: nameEnd,
      hint: close ? `did you mean "${close}"?` : `functions are ${Object.keys(FUNCTIONS).join(", ")}`,
    };
  }
  if (argc >= spec.minArgs && argc <= spec.maxArgs) return undefined;
  const wanted = spec.minArgs === spec.maxArgs ? plural(spec.minArgs) : `${spec.minArgs} to ${spec.maxArgs} arguments`;
  return { kind: "arity", message: `${name}() takes ${wanted}, got ${argc}`, start, end, hint: spec.doc };
}

type Impl = (args: unknown[], fail: (message: string) => never) => unknown;

function str(fn: string, v: unknown, fail: (m: string) => never): string {
  if (typeof v !== "string") fail(`${fn}() needs a string, got ${typeName(v)}`);
  return v;
}

/** Characters (code points) of a string, counted in place: `[...s]` would build an array of the whole string. */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const impls: Record<string, Impl> = {
  len: ([x], fail) => {
    if (x === null || x === undefined) return 0;
    if (typeof x === "string") return codePoints(x);
    if (Array.isArray(x)) return x.length;
    if (isPlainObject(x)) return Object.keys(x).length;
    return fail(`len() needs a string, list or object, got ${typeName(x)}`);
  },
  exists: ([x]) => x !== null && x !== undefined,
  contains: ([hay, needle], fail) => {
    if (hay === null || hay === undefined) return false;
    if (Array.isArray(hay)) return hay.some((item) => deepEqual(item, needle));
    if (typeof hay === "string") return hay.includes(toText(needle));
    return fail(`contains() needs a list or a string, got ${typeName(hay)}`);
  },
  startsWith: ([s, p], fail) => (s === null || s === undefined ? false : str("startsWith", s, fail).startsWith(str("startsWith", p, fail))),
  endsWith: ([s, p], fail) => (s === null || s === undefined ? false : str("endsWith", s, fail).endsWith(str("endsWith", p, fail))),
  lower: ([s], fail) => str("lower", s, fail).toLowerCase(),
  upper: ([s], fail) => str("upper", s, fail).toUpperCase(),
  join: ([list, sep], fail) => {
    if (!Array.isArray(list)) return fail(`join() needs a list, got ${typeName(list)}`);
    const separator = sep === undefined ? "," : str("join", sep, fail);
    return list.map(toText).join(separator);
  },
  keys: ([obj], fail) => {
    if (obj === null || obj === undefined) return [];
    if (!isPlainObject(obj)) return fail(`keys() needs an object, got ${typeName(obj)}`);
    return Object.keys(obj);
  },
  toJSON: ([x]) => JSON.stringify(x === undefined ? null : x),
  fromJSON: ([s], fail) => {
    const text = str("fromJSON", s, fail);
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      return fail(`fromJSON(): invalid JSON: ${(err as Error).message}`);
    }
  },
};

/** Calls a built-in; errors become ExprEvalError at `[start, end)`. */
export function callFunction(name: string, args: unknown[], start: number, end: number): unknown {
  const impl = Object.hasOwn(impls, name) ? impls[name] : undefined;
  const fail = (message: string): never => {
    throw new ExprEvalError(message, start, end);
  };
  if (!impl) return fail(`unknown function "${name}"`);
  const spec = FUNCTIONS[name]!;
  if (args.length < spec.minArgs || args.length > spec.maxArgs) {
    return fail(checkCall(name, args.length, start, end, end)!.message);
  }
  return impl(args, fail);
}
