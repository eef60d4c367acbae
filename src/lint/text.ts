/**
 * Text helpers shared by lint rules: content words of goals and criteria, and a
 * canonical form of `with` arguments for duplicate detection, and what expressions read
 * (through the compiler's own expression parser). Pure functions over IR values; nothing
 * here knows about positions.
 */
import { parseExpression, references, type Reference } from "../compiler/expr/index.js";
import { type IRNode, type Value, isExprValue, isTemplateValue } from "../ir.js";

// Function words plus the filler planners put in every goal ("the task", "step"); what is
// left says what a step is about.
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but nor of to in on at by for from with without into onto over under " +
    "about as is are was were be been being am do does did done doing has have had having " +
    "it its this that these those there here then than so such very just also only not no " +
    "yes all any each every some most more much many few other own same both either neither " +
    "i me my we our us you your he she they them their his her what which who whom whose " +
    "when where why how if else while until unless can could should would will shall may " +
    "might must need needs via per etc e g ie eg up down out off again further once " +
    "step steps task tasks thing things stuff"
  ).split(" "),
);

/**
 * A light suffix stripper so "anomalies"/"anomaly" and "parses"/"parsing"/"parsed"
 * compare equal; crude on purpose: rules only ask whether two texts share a word.
 */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  let w = word;
  if (w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 5) w = w.slice(0, -2);
  else if (/(?:ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  // "parse" and "parsed" meet at "pars".
  return w.length > 4 && w.endsWith("e") ? w.slice(0, -1) : w;
}

/** The distinct stemmed content words of `text` (stop words and 1-letter words dropped). */
export function contentWords(text: string): string[] {
  // A hand-rolled scan: this runs on every goal of every plan in a corpus lint, where a
  // regex match plus a Set per goal showed up in profiles.
  const lower = text.toLowerCase();
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 0;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    const w = lower.slice(start, i);
    start = -1;
    if (w.length < 2 || STOP_WORDS.has(w)) continue;
    const s = stem(w);
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

/** Content words of `text` as a set, for membership tests. */
export function contentWordSet(text: string): Set<string> {
  return new Set(contentWords(text));
}

/**
 * A canonical string for a `with` value: keys sorted, whitespace in strings and
 * expressions collapsed, so two steps that call a tool with the same arguments written
 * differently compare equal.
 */
export function normaliseValue(v: Value | undefined): string {
  if (v === undefined) return "";
  const parts: string[] = [];
  canonical(v, parts);
  return parts.join("");
}

// Serialises straight into `parts` (no intermediate objects): this runs on the arguments
// of every step of a 10,000-step plan.
function canonical(v: Value, parts: string[]): void {
  if (v === null || typeof v === "boolean" || typeof v === "number") {
    parts.push(String(v));
  } else if (typeof v === "string") {
    parts.push(JSON.stringify(v.trim().replace(/\s+/g, " ")));
  } else if (Array.isArray(v)) {
    parts.push("[");
    v.forEach((x, i) => {
      if (i > 0) parts.push(",");
      canonical(x, parts);
    });
    parts.push("]");
  } else if (isExprValue(v)) {
    parts.push("${", JSON.stringify(squash(v.$expr)), "}");
  } else if (isTemplateValue(v)) {
    parts.push("`");
    for (const p of v.$template) parts.push(typeof p === "string" ? JSON.stringify(p) : `\${${JSON.stringify(squash(p.$expr))}}`);
    parts.push("`");
  } else {
    parts.push("{");
    Object.keys(v)
      .sort()
      .forEach((k, i) => {
        parts.push(i > 0 ? "," : "", JSON.stringify(k), ":");
        canonical(v[k]!, parts);
      });
    parts.push("}");
  }
}

// Whitespace between tokens of an expression carries no meaning outside string literals;
// dropping it everywhere may merge two literals that differ only in spacing, which is
// harmless for a duplicate heuristic.
function squash(expr: string): string {
  return expr.replace(/\s+/g, "");
}

/** One expression a node holds, with the document path (below the step) that holds it. */
export interface NodeExpression {
  source: string;
  path: ReadonlyArray<string | number>;
}

/** Every expression of a node: `with`, `when`, success checks, `repeat`, `for_each`, `idempotency_key`. */
export function nodeExpressions(node: IRNode): NodeExpression[] {
  const out: NodeExpression[] = [];
  if (node.with) {
    for (const [k, v] of Object.entries(node.with)) collectValueExprs(v, ["with", k], out);
  }
  if (node.when !== undefined) out.push({ source: node.when, path: ["when"] });
  node.success.forEach((c, i) => {
    if (c.check !== undefined) out.push({ source: c.check, path: ["success", i, "check"] });
  });
  if (node.repeat) out.push({ source: node.repeat.until, path: ["repeat", "until"] });
  if (node.forEach) out.push({ source: node.forEach.items, path: ["for_each", "items"] });
  if (node.idempotencyKey !== undefined && typeof node.idempotencyKey !== "string") {
    collectValueExprs(node.idempotencyKey, ["idempotency_key"], out);
  }
  return out;
}

function collectValueExprs(v: Value, path: Array<string | number>, out: NodeExpression[]): void {
  if (v === null || typeof v !== "object") return;
  if (isExprValue(v)) {
    out.push({ source: v.$expr, path });
  } else if (isTemplateValue(v)) {
    for (const p of v.$template) if (typeof p !== "string") out.push({ source: p.$expr, path });
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => collectValueExprs(x, [...path, i], out));
  } else {
    for (const [k, x] of Object.entries(v)) collectValueExprs(x, [...path, k], out);
  }
}

/**
 * Every literal string inside a `with` value, with its path; `part` is true for the
 * literal pieces of an interpolated string.
 */
export function literalStrings(
  v: Value,
  path: Array<string | number>,
  visit: (s: string, path: Array<string | number>, part: boolean) => void,
): void {
  if (typeof v === "string") {
    visit(v, path, false);
  } else if (v === null || typeof v !== "object" || isExprValue(v)) {
    return;
  } else if (isTemplateValue(v)) {
    for (const p of v.$template) if (typeof p === "string") visit(p, path, true);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => literalStrings(x, [...path, i], visit));
  } else {
    for (const [k, x] of Object.entries(v)) literalStrings(x, [...path, k], visit);
  }
}

/** The references of an expression, read by the compiler's parser (none when it does not parse: the compiler reported it). */
function referencesOf(expr: string): Reference[] {
  const { ast } = parseExpression(expr);
  return ast ? references(ast) : [];
}

/**
 * The root names an expression reads (`inputs`, `steps`, `output`, `run`, `item`):
 * not string literals, property names after `.` or function names.
 */
export function expressionRoots(expr: string): Set<string> {
  return new Set(referencesOf(expr).map((r) => r.root));
}

/** Names of the inputs an expression reads: `inputs.x` and `inputs["x"]`. */
export function inputReferences(expr: string): string[] {
  // Reading an input takes the name `inputs` in the text: most expressions are not parsed again.
  if (!expr.includes("inputs")) return [];
  const out: string[] = [];
  for (const r of referencesOf(expr)) if (r.root === "inputs" && typeof r.path[0] === "string") out.push(r.path[0]);
  return out;
}

/** Joins ids as a readable list: `"a", "b" and "c"`. */
export function quoteList(ids: readonly string[]): string {
  const q = ids.map((id) => `"${id}"`);
  if (q.length <= 1) return q.join("");
  return `${q.slice(0, -1).join(", ")} and ${q[q.length - 1]!}`;
}
