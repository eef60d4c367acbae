/** Canonical JSON and the plan hash: identical for plans that differ only in formatting, comments or key order. */
import { createHash } from "node:crypto";
import type { PlanIR } from "../ir.js";

/** JSON with object keys sorted at every depth; `skip` drops keys by name at every depth. */
export function canonicalJson(value: unknown, skip: ReadonlySet<string> = new Set()): string {
  // One string built by appending, without per-key closures and joins: the plan hash of a
  // 10,000-step IR spent most of its time in those.
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    // A hole stays empty, as `join` writes it.
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + (i in value ? canonicalJson(value[i], skip) : "");
    return out + "]";
  }
  const obj = value as Record<string, unknown>;
  const keys: string[] = [];
  for (const k of Object.keys(obj)) if (!skip.has(k) && obj[k] !== undefined) keys.push(k);
  keys.sort();
  let out = "{";
  for (let i = 0; i < keys.length; i++) out += (i ? "," : "") + JSON.stringify(keys[i]) + ":" + canonicalJson(obj[keys[i]!], skip);
  return out + "}";
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

const COMPUTE = Symbol("lazy values");
const getters = new Map<string, () => string>();

/**
 * Defines `key` on `obj` as an enumerable value computed on first read (JSON.stringify reads it).
 * The getter is one function per key name, shared by every object: a fresh closure per object
 * would give each IR its own hidden class, and after a few hundred plans V8 turns them into
 * slow dictionary objects (a corpus lint compiles thousands).
 */
export function lazyProperty<T extends object>(obj: T, key: string, compute: () => string): void {
  const holder = obj as T & { [COMPUTE]?: Record<string, () => string> };
  let pending = holder[COMPUTE];
  if (!pending) {
    pending = {};
    Object.defineProperty(obj, COMPUTE, { value: pending, configurable: true });
  }
  pending[key] = compute;
  let get = getters.get(key);
  if (!get) {
    get = function (this: typeof holder): string {
      const value = this[COMPUTE]![key]!();
      Object.defineProperty(this, key, { value, enumerable: true, writable: true, configurable: true });
      return value;
    };
    getters.set(key, get);
  }
  Object.defineProperty(obj, key, { get, enumerable: true, configurable: true });
}
