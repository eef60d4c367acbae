/**
 * `{{name}}` placeholders, filled in one place for every stage: rule and compiler
 * messages (a name the data lacks stays as written), the built-in `template.render` tool,
 * and the descriptions of codes. A name is letters, digits, `_`, `.` and `-`, with
 * optional spaces inside the braces. Each template is split once and the split kept (a
 * corpus run fills tens of thousands of messages from a few dozen templates).
 */

/** A template's literal text and its placeholders, in order. */
export type TemplatePart = string | { name: string; raw: string };

const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;
/** Bounded: `template.render` fills templates users write, which must not pile up in a long-lived worker. */
const MAX_CACHED = 1024;
const cache = new Map<string, readonly TemplatePart[]>();

/** The template split into literal text and placeholders; literal parts alternate with placeholders, first and last are text. */
export function templateParts(template: string): readonly TemplatePart[] {
  let parts = cache.get(template);
  if (parts) return parts;
  const out: TemplatePart[] = [];
  let last = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    out.push(template.slice(last, m.index), { name: m[1]!, raw: m[0] });
    last = m.index + m[0].length;
  }
  out.push(template.slice(last));
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(template, (parts = out));
  return parts;
}

/**
 * Fills the placeholders from `values` (a record, or a function of the name); a name it
 * has no value for (undefined) keeps its placeholder text.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>> | ((name: string) => string | undefined) = {}): string {
  const lookup = typeof values === "function" ? values : (name: string) => (Object.hasOwn(values, name) ? String(values[name]) : undefined);
  let out = "";
  for (const p of templateParts(template)) out += typeof p === "string" ? p : (lookup(p.name) ?? p.raw);
  return out;
}
