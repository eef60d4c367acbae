/**
 * Silent faults for the recovery trials: a tool call that returns normally with a result
 * that is wrong. Three kinds, after the failures that hurt agents most: a wrong shape (an
 * object arrives as text, a list as its first item), a truncated result (half the keys,
 * items or characters), and a subtly wrong value (the first number off by one, else the
 * first boolean flipped, else the last character of the last string changed).
 *
 * `corruptValue` is self-contained (no imports, no outer names): the recovery tool module
 * runs it in the child process from its source text.
 */

export const CORRUPT_KINDS = ["wrong-shape", "truncated", "subtly-wrong"] as const;
export type CorruptKind = (typeof CORRUPT_KINDS)[number];

/** The corrupted copy of a tool result (the input is not changed). */
export function corruptValue(value: unknown, kind: string): unknown {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (kind === "wrong-shape") {
    if (isObj(value)) return JSON.stringify(value);
    if (Array.isArray(value)) return value.length > 0 ? value[0] : {};
    if (typeof value === "string") return { value };
    return value === null || value === undefined ? "" : String(value);
  }
  if (kind === "truncated") {
    if (isObj(value)) {
      const keys = Object.keys(value);
      return Object.fromEntries(keys.slice(0, Math.floor(keys.length / 2)).map((k) => [k, value[k]]));
    }
    if (Array.isArray(value)) return value.slice(0, Math.floor(value.length / 2));
    if (typeof value === "string") return value.slice(0, Math.floor(value.length / 2));
    return null;
  }
  // subtly-wrong: one plausible value changed, everything else intact.
  const copy = JSON.parse(JSON.stringify(value ?? null)) as unknown;
  const paths: Array<{ get: () => unknown; set: (v: unknown) => void }> = [];
  const walk = (v: unknown, set: (x: unknown) => void) => {
    paths.push({ get: () => v, set });
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, (y) => (v[i] = y)));
    else if (isObj(v)) for (const k of Object.keys(v)) walk(v[k], (y) => (v[k] = y));
  };
  let root = copy;
  walk(copy, (y) => (root = y));
  const num = paths.find((p) => typeof p.get() === "number");
  if (num) num.set((num.get() as number) + 1);
  else {
    const bool = paths.find((p) => typeof p.get() === "boolean");
    if (bool) bool.set(!bool.get());
    else {
      const str = paths.filter((p) => typeof p.get() === "string" && (p.get() as string).length > 0).at(-1);
      if (str) {
        const s = str.get() as string;
        str.set(s.slice(0, -1) + (s.endsWith("a") ? "b" : "a"));
      } else return typeof value === "string" ? "a" : 0;
    }
  }
  return root;
}
