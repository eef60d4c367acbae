/**
 * What a model may not write into its own plan: suppressions. `x-planspec-*` keys (at
 * any depth: `x-planspec-disable`, an importer's mark) are dropped, and lines that read
 * as `# planspec-disable...` directives are cut out of strings (they would become comment
 * lines in the YAML a reviewer reads). The gate then sees the plan the model planned.
 */

const DIRECTIVE_LINE = /^[ \t]*#[ \t]*planspec-disable[^\n]*(?:\n|$)/gim;

export interface Stripped<T> {
  value: T;
  /** What was removed, for the trace: `x-planspec-disable at steps.send`, ... */
  removed: string[];
}

/** A copy of the model's document without suppression keys or directive lines. */
export function stripSuppressions(doc: Record<string, unknown>): Stripped<Record<string, unknown>> {
  const removed: string[] = [];
  const value = strip(doc, [], removed) as Record<string, unknown>;
  return { value, removed };
}

function strip(v: unknown, path: string[], removed: string[]): unknown {
  if (typeof v === "string") {
    if (!v.includes("planspec-disable")) return v;
    const out = v.replace(DIRECTIVE_LINE, "");
    if (out !== v) removed.push(`a planspec-disable line in ${path.join(".") || "the document"}`);
    return out;
  }
  if (Array.isArray(v)) return v.map((x, i) => strip(x, [...path, String(i)], removed));
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (/^x-planspec-/i.test(k)) {
      removed.push(`${k} at ${path.join(".") || "the top level"}`);
      continue;
    }
    out[k] = strip(x, [...path, k], removed);
  }
  return out;
}
