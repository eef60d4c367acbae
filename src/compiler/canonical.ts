/** Canonical JSON and the plan hash: identical for plans that differ only in formatting, comments or key order. */
import { createHash } from "node:crypto";
import type { PlanIR } from "../ir.js";

/** JSON with object keys sorted at every depth; `skip` drops keys by name at every depth. */
export function canonicalJson(value: unknown, skip: ReadonlySet<string> = new Set()): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return "[" + value.map((v) => canonicalJson(v, skip)).join(",") + "]";
  const keys = Object.keys(value)
    .filter((k) => !skip.has(k) && (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonicalJson((value as Record<string, unknown>)[k], skip)).join(",") + "}";
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

const HASH_SKIP = new Set(["span", "source", "planHash"]);

/**
 * sha256 of the canonical IR without spans, source and planHash (SPEC §2). Nodes are
 * hashed in id order and `order` is left out (it is derived from the graph), so moving
 * steps around in the file — reordering the keys of `steps:` — keeps the hash.
 */
export function planHash(ir: Omit<PlanIR, "planHash"> & { planHash?: string }): string {
  // Copy key by key: `planHash` may be a lazy getter (see `withLazyHashes`) that calls us.
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(ir)) if (k !== "planHash" && k !== "source" && k !== "order") o[k] = (ir as Record<string, unknown>)[k];
  o.nodes = [...ir.nodes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sha256(canonicalJson(o, HASH_SKIP));
}

/** Defines `key` on `obj` as an enumerable value computed on first read (JSON.stringify reads it). */
export function lazyProperty<T extends object>(obj: T, key: string, compute: () => string): void {
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = compute();
      Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      return value;
    },
  });
}
