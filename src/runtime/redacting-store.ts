/**
 * The one boundary where run data leaves the process: a Store wrapper that scrubs
 * secrets from everything written — state (inputs, reasons, errors, keys), events,
 * artifacts and idempotency records — so the scheduler, the gateway and the tools never
 * have to remember to. Whatever reads the store afterwards (status, status --json,
 * report.html, the terminal's progress lines, which are the appended events) sees only
 * scrubbed data. Secret inputs are written as their fingerprint mark, under the salt of
 * the scrubber (the run's).
 *
 * The in-memory state keeps the real values (steps need them); outputs are scrubbed
 * when stored, so a step that reads another's output after a resume sees `[redacted]`
 * where a secret was.
 */
import type { PlanIR } from "../ir.js";
import type { Scrubber } from "./redact.js";
import { secretInputNames, secretMark } from "./secrets.js";
import type { IdempotencyRecord, NodeState, RunState, Store } from "./store.js";

// Fields of a node's state that are protocol, not text: never scrubbed (a hash must stay a hash).
const PROTOCOL = new Set(["status", "attempts", "startedAt", "endedAt", "outputRef", "outputHash"]);

/** Wraps `inner` so every write goes through `scrub`; reads and anything else pass through. */
export function redactingStore(inner: Store, plan: PlanIR, scrub: Scrubber): Store {
  const secretInputs = new Set(secretInputNames(plan));
  // Nothing to hide: the store itself (no copy per write).
  if (scrub.empty && secretInputs.size === 0) return inner;
  // The scrubbed nodes last written, in the state's key order: only dirty ones are redone.
  let nodes: Record<string, NodeState> = {};
  // `nodes` holds every node (a full rebuild made it): a session's first write may name only a few, or none.
  let filled = false;

  const node = (st: NodeState): NodeState => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(st)) out[k] = PROTOCOL.has(k) ? v : k === "idempotencyKey" && typeof v === "string" ? scrub.tagged(v) : scrub.value(v);
    return out as unknown as NodeState;
  };

  const persisted = (state: RunState, dirty?: Iterable<string>): RunState => {
    const ids = dirty === undefined ? undefined : [...dirty];
    // A full write (no dirty list) follows every change of the node set (start, revision); a resume's first write is a record.
    if (ids === undefined || !filled || ids.some((id) => !Object.hasOwn(nodes, id))) {
      nodes = {};
      for (const [id, st] of Object.entries(state.nodes)) nodes[id] = node(st);
      filled = true;
    } else {
      for (const id of ids) if (state.nodes[id]) nodes[id] = node(state.nodes[id]);
    }
    const inputs: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(state.inputs)) inputs[k] = secretInputs.has(k) ? secretMark(v, scrub.salt) : scrub.value(v);
    // The status summary quotes errors, reasons and output facts: text like any other.
    const summary = state.summary !== undefined ? { summary: { ...state.summary, text: scrub.text(state.summary.text) } } : {};
    return { ...state, inputs, ...(state.reason !== undefined ? { reason: scrub.text(state.reason) } : {}), ...summary, nodes };
  };

  // What the inner store set on the copy (stateVersion, updatedAt, a checksum) goes back to the live state.
  const settle = (state: RunState, copy: RunState): void => {
    for (const [k, v] of Object.entries(copy)) if (k !== "inputs" && k !== "reason" && k !== "nodes" && k !== "summary") (state as unknown as Record<string, unknown>)[k] = v;
  };

  const overrides: Partial<Store> = {
    async create(p, config, state) {
      const copy = persisted(state);
      await inner.create(p, config, copy);
      settle(state, copy);
    },
    async writeState(state, dirty, opts) {
      const copy = persisted(state, dirty);
      await inner.writeState(copy, dirty, opts);
      settle(state, copy);
    },
    appendEvent(type, data) {
      return inner.appendEvent(type, scrub.value(data) as Record<string, unknown>);
    },
    putArtifact(value, durable) {
      return inner.putArtifact(scrub.value(value), durable);
    },
    recordIdempotency(key, ref, result) {
      // The inline copy of a small result is one more sink: scrubbed like its artifact.
      return inner.recordIdempotency(scrub.tagged(key), ref, result === undefined ? undefined : scrub.value(result));
    },
    storedKey(key) {
      return scrub.tagged(key);
    },
    forgetIdempotency(key) {
      return inner.forgetIdempotency(scrub.tagged(key));
    },
    async readIdempotency() {
      const records = await inner.readIdempotency();
      // Keys were stored tagged: look a live key up the same way.
      return new Proxy(records, {
        get: (t, k) => (typeof k === "string" ? t[scrub.tagged(k)] : undefined),
        has: (t, k) => typeof k === "string" && scrub.tagged(k) in t,
      }) as Record<string, IdempotencyRecord>;
    },
  };

  return new Proxy(inner, {
    get(target, prop) {
      const own = (overrides as Record<PropertyKey, unknown>)[prop];
      if (own !== undefined) return own;
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
