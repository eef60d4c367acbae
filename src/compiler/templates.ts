/**
 * Templates: fixed workflows with typed parameters, expanded at compile time.
 * `params.x` references are substituted, references between the template's own steps are
 * renamed to the instance's ids (`steps["inst.local"]`), and needs are re-attached.
 */
import { scanTemplate } from "./expr/index.js";
import type { DocPath, SourceDoc } from "./source.js";

export interface TemplateDef {
  name: string;
  doc: SourceDoc;
  data: Record<string, unknown>;
  params: Record<string, { type: string; default?: unknown }>;
  stepIds: string[];
}

type Json = unknown;

/** JSON-ish type name, as the DSL's `type:` keys spell them. */
export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v === "object" ? "object" : typeof v;
}

/** True when `v` fits a declared input/param type (integers are numbers too). */
export function fitsType(v: unknown, type: string): boolean {
  const t = jsonType(v);
  return t === type || (type === "number" && t === "integer");
}

/** True for a string that is exactly one `${{ ... }}` expression. */
function wholeExpression(s: string): string | undefined {
  const { parts, unterminated } = scanTemplate(s);
  if (unterminated || parts.length !== 1 || parts[0]!.kind !== "expr") return undefined;
  return parts[0]!.src;
}

/** The expression-source form of a parameter value. */
function paramAsExpression(v: unknown): string {
  if (typeof v === "string") {
    const inner = wholeExpression(v);
    if (inner !== undefined) return `(${inner.trim()})`;
  }
  return JSON.stringify(v ?? null);
}

const PARAM_REF = /\bparams\.([A-Za-z_][A-Za-z0-9_]*)/g;
const STEP_REF = /\bsteps\.([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Rewrites one string of a template step: a string that is exactly `${{ params.x }}`
 * becomes the parameter's value; elsewhere `params.x` and local `steps.y` are rewritten
 * inside each expression.
 */
function rewriteString(s: string, params: Record<string, unknown>, instance: string, local: Set<string>): Json {
  if (!s.includes("${{")) return s;
  const whole = wholeExpression(s);
  if (whole !== undefined) {
    const m = /^\s*params\.([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(whole);
    if (m && m[1]! in params) return params[m[1]!];
  }
  const { parts, unterminated } = scanTemplate(s);
  if (unterminated) return s;
  return parts
    .map((p) => {
      if (p.kind === "text") return p.text;
      const src = p.src
        .replace(PARAM_REF, (all, name: string) => (name in params ? paramAsExpression(params[name]) : all))
        .replace(STEP_REF, (all, id: string) => (local.has(id) ? `steps[${JSON.stringify(`${instance}.${id}`)}]` : all));
      return "${{" + src + "}}";
    })
    .join("");
}

/** Bare expression strings (`when`, `check`, `until`, `items`) hold no `${{ }}`; rewrite them as one expression. */
function rewriteBare(s: string, params: Record<string, unknown>, instance: string, local: Set<string>): string {
  if (s.includes("${{")) return String(rewriteString(s, params, instance, local));
  return s
    .replace(PARAM_REF, (all, name: string) => (name in params ? paramAsExpression(params[name]) : all))
    .replace(STEP_REF, (all, id: string) => (local.has(id) ? `steps[${JSON.stringify(`${instance}.${id}`)}]` : all));
}

function rewriteDeep(v: Json, params: Record<string, unknown>, instance: string, local: Set<string>): Json {
  if (typeof v === "string") return rewriteString(v, params, instance, local);
  if (Array.isArray(v)) return v.map((x) => rewriteDeep(x, params, instance, local));
  if (v && typeof v === "object") {
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) out[k] = rewriteDeep(x, params, instance, local);
    return out;
  }
  return v;
}

/** A template step's definition as it appears in the instance. */
export function instantiateStep(
  def: Record<string, unknown>,
  params: Record<string, unknown>,
  instance: string,
  local: Set<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(def)) {
    if (key === "when" && typeof value === "string") out[key] = rewriteBare(value, params, instance, local);
    else if (key === "success" && Array.isArray(value)) {
      out[key] = value.map((c: Record<string, unknown>) => {
        const crit: Record<string, unknown> = { ...c };
        if (typeof crit.check === "string") crit.check = rewriteBare(crit.check, params, instance, local);
        if (Array.isArray(crit.evidence))
          crit.evidence = crit.evidence.map((r: unknown) =>
            typeof r === "string" ? r.replace(/^steps\.([A-Za-z_][A-Za-z0-9_]*)/, (all, id: string) => (local.has(id) ? `steps["${instance}.${id}"]` : all)) : r,
          );
        return crit;
      });
    } else if ((key === "repeat" || key === "for_each") && value && typeof value === "object") {
      const o: Record<string, unknown> = { ...(value as object) };
      for (const k of ["until", "items"]) if (typeof o[k] === "string") o[k] = rewriteBare(o[k] as string, params, instance, local);
      out[key] = o;
    } else if (key === "needs") {
      const list = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
      out[key] = list.map((n) => (typeof n === "string" && local.has(n) ? `${instance}.${n}` : n));
    } else if (key === "output" && typeof value === "string") {
      // Two uses of one template must not store results under the same name.
      out[key] = `${instance}.${value}`;
    } else if (key === "with" || key === "idempotency_key" || key === "goal") {
      out[key] = rewriteDeep(value, params, instance, local);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Steps of the template that no other template step needs: what the instance's dependents wait for. */
export function templateSinks(t: TemplateDef): string[] {
  const steps = t.data.steps as Record<string, Record<string, unknown>>;
  const needed = new Set<string>();
  for (const def of Object.values(steps)) {
    const needs = typeof def.needs === "string" ? [def.needs] : Array.isArray(def.needs) ? def.needs : [];
    for (const n of needs) needed.add(String(n));
  }
  return t.stepIds.filter((id) => !needed.has(id));
}

export type { DocPath };
