/**
 * Helpers over the JSON values expressions compute with: deep equality, the text form used
 * by `+` and templates, and type names for error messages.
 */

/** A user-facing type name: `null`, `boolean`, `number`, `string`, `list` or `object`. */
export function typeName(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "list";
  return typeof v === "object" ? "object" : typeof v;
}

/** True for a JSON object (not null, not a list). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Deep equality on JSON values; `undefined` counts as `null` (both mean "missing"). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const ob = b as Record<string, unknown>;
  if (ka.length !== Object.keys(ob).length) return false;
  const oa = a as Record<string, unknown>;
  for (const k of ka) if (!Object.hasOwn(ob, k) || !deepEqual(oa[k], ob[k])) return false;
  return true;
}

/** Strings as they are, everything else as JSON (`null`, `3`, `[1,2]`): the text form of `+` and templates. */
export function toText(v: unknown): string {
  if (typeof v === "string") return v;
  return JSON.stringify(v === undefined ? null : v) ?? "null";
}
