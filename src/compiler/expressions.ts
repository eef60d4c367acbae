/**
 * Stage 4 helpers: turn DSL strings into IR values and expressions, with every
 * expression's absolute offset in its file so errors point inside the string.
 */
import type { ExprValue, TemplateValue, Value } from "../ir.js";
import type { Collector } from "./diagnostics.js";
import { parseExpression, references, scanTemplate, type Expr, type Reference } from "./expr/index.js";
import type { DocPath, SourceDoc } from "./source.js";

export type ExprRole = "with" | "when" | "check" | "until" | "items" | "idempotency_key" | "evidence";

/**
 * An expression found in a step, waiting for its references to be checked. Where it sits
 * in the file (`base`) is looked up only when a diagnostic needs it: a clean plan of
 * 10,000 steps has ~30,000 expressions and reports on none of them.
 */
export class ExprSite {
  #base: number | undefined;

  constructor(
    readonly src: string,
    readonly doc: SourceDoc,
    /** Which key it came from: decides whether `output` and `item` may be used. */
    readonly role: ExprRole,
    private readonly path: DocPath,
    /** The k-th `${{` of the node at `path`; -1 for a bare expression (no braces). */
    private readonly k: number,
  ) {}

  /** Absolute offset of `src` in `doc.text`. */
  get base(): number {
    return (this.#base ??= this.k < 0 ? bareBase(this.doc, this.path, this.src) : exprBase(this.doc, this.path, this.k));
  }
}

/** Finds where the k-th `${{` of the node at `path` starts in the source (after the braces). */
// Both search the file's text in place: a slice per expression fed the GC on large plans.
function exprBase(doc: SourceDoc, path: DocPath, k: number): number {
  const [s, e] = doc.rangeOf(path);
  const text = doc.text;
  let idx = s - 1;
  for (let i = 0; i <= k; i++) {
    idx = text.indexOf("${{", idx + 1);
    if (idx < 0 || idx + 3 > e) return s;
  }
  return idx + 3;
}

/** Where a bare expression string (no `${{ }}`) starts in the source. */
function bareBase(doc: SourceDoc, path: DocPath, src: string): number {
  const [s, e] = doc.rangeOf(path);
  const i = doc.text.indexOf(src, s);
  return i >= 0 && i + src.length <= e ? i : s;
}

/**
 * Converts a `with` (or idempotency key) value: strings holding `${{ }}` become
 * `{ $expr }` or `{ $template }`; every expression is recorded in `sites`.
 */
export function compileValue(
  v: unknown,
  doc: SourceDoc,
  path: DocPath,
  role: ExprSite["role"],
  sites: ExprSite[],
  out: Collector,
): Value {
  if (typeof v === "string") return compileString(v, doc, path, role, sites, out);
  if (Array.isArray(v)) return v.map((x, i) => compileValue(x, doc, [...path, i], role, sites, out));
  if (v && typeof v === "object") {
    const o: { [k: string]: Value } = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === "$expr" || k === "$template") out.report("PS141", doc.file, doc.rangeOf([...path, k], "key"), { key: k });
      o[k] = compileValue(x, doc, [...path, k], role, sites, out);
    }
    return o;
  }
  return (v ?? null) as Value;
}

function compileString(s: string, doc: SourceDoc, path: DocPath, role: ExprSite["role"], sites: ExprSite[], out: Collector): string | ExprValue | TemplateValue {
  if (!s.includes("${{")) return s;
  const { parts, unterminated } = scanTemplate(s);
  if (unterminated) {
    const count = s.slice(0, unterminated.start).split("${{").length - 1;
    const base = exprBase(doc, path, Math.max(0, count - 1)) - 3;
    out.report("PS140", doc.file, [base, base + 3]);
    return s;
  }
  let k = 0;
  const items: Array<string | ExprValue> = [];
  for (const p of parts) {
    if (p.kind === "text") {
      if (p.text) items.push(p.text);
      continue;
    }
    sites.push(new ExprSite(p.src, doc, role, path, k++));
    items.push({ $expr: p.src.trim() });
  }
  if (items.length === 1 && typeof items[0] !== "string") return items[0]!;
  return { $template: items };
}

/**
 * An expression-valued key (`when`, `check`, `repeat.until`, `for_each.items`): written
 * bare or wrapped in `${{ }}`. Returns the expression source for the IR.
 */
export function compileBareExpression(
  s: string,
  doc: SourceDoc,
  path: DocPath,
  role: ExprSite["role"],
  sites: ExprSite[],
  out: Collector,
): string {
  const trimmed = s.trim();
  if (trimmed.includes("${{")) {
    const { parts, unterminated } = scanTemplate(trimmed);
    if (unterminated) {
      const base = exprBase(doc, path, 0) - 3;
      out.report("PS140", doc.file, [base, base + 3]);
      return trimmed;
    }
    const exprs = parts.filter((p) => p.kind === "expr");
    const onlyExpr = parts.length === 1 && exprs.length === 1;
    if (onlyExpr) {
      const p = exprs[0]!;
      sites.push(new ExprSite(p.src, doc, role, path, 0));
      return p.src.trim();
    }
    // Text around an expression in a condition is a mistake; treat the whole thing as text-with-expressions.
    out.report("PS124", doc.file, doc.rangeOf(path), {
      reason: `${role === "check" ? "a check" : `\`${role}\``} must be a single expression, e.g. "\${{ output.rows > 0 }}"`,
    });
    return trimmed;
  }
  sites.push(new ExprSite(s, doc, role, path, -1));
  return trimmed;
}

/**
 * Parses an expression and reports syntax, function and arity errors at their columns.
 * The AST and references it returns are positioned within `site.src` (add `site.base`
 * for the file): most sites are never located.
 */
export function parseSite(site: ExprSite, out: Collector): { ast?: Expr; refs: Reference[] } {
  const first = parseExpression(site.src);
  // Errors are rare: parse again at the site's place so every offset they carry is the file's.
  const { ast, errors } = first.errors.length ? parseExpression(site.src, site.base) : first;
  for (const e of errors) {
    const code = e.kind === "unknown-function" ? "PS125" : e.kind === "arity" ? "PS126" : "PS124";
    const range: [number, number] = [e.start, Math.max(e.end, e.start + 1)];
    const data: Record<string, string> = e.kind === "unknown-function" ? { name: functionName(site, e.start) } : { reason: e.message };
    out.report(code, site.doc.file, range, data, e.hint ? { hint: e.hint } : {});
  }
  if (!ast || errors.length) return { refs: [] };
  return { ast, refs: references(ast) };
}

function functionName(site: ExprSite, start: number): string {
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(site.src.slice(start - site.base));
  return m ? m[0] : "?";
}
