/**
 * The fast path for YAML plan files. `yaml`'s parser needs seconds for a 10,000-step
 * plan; js-yaml's event parser reads the same text ~10× faster and reports the source
 * offsets of every scalar and collection, from which we build the value and a position
 * tree in one pass. Anything unusual — a syntax error, a duplicate key, a `__proto__`
 * key, anchors, aliases, tags, several documents, a collection used as a key — returns undefined, and
 * the caller takes the careful path (`yaml-source.ts`), which also words the errors.
 */
import type { Event } from "js-yaml";
import { loadJsYaml } from "./lazy.js";
import { type DocPath, LazyIndexDoc, type SourceDoc } from "./source.js";

// Positions live on a flat tape in document order, not in an object per node: a 10,000-step
// plan has ~300,000 nodes, and objects and Maps for each were the bulk of this path's cost
// and of the collector's. A value takes 4 slots [kind, start, end, next], where `next` is
// the tape index just past its subtree; a mapping member is 3 slots [keyStart, keyEnd,
// name] (the key's index in `names`) followed by its value. Slot 0 is the root. An empty
// scalar has start and end -1 (in a mapping it takes its key's range instead).
const SCALAR = 0;
const MAP = 1;
const SEQ = 2;

interface Frame {
  value: Record<string, unknown> | unknown[];
  /** The tape index of the collection's value slots. */
  at: number;
  flow: boolean;
  /** The pending key of a mapping (its value comes next), or undefined. */
  key: string | undefined;
  /** The tape index of the pending key's member slots. */
  keyAt: number;
}

class Unsupported {}
const UNSUPPORTED = new Unsupported();

const NULLS = new Set(["", "~", "null", "Null", "NULL"]);
const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** A plain scalar resolved by the YAML 1.2 core schema, as `yaml` resolves it. */
function resolvePlain(s: string): unknown {
  if (NULLS.has(s)) return null;
  switch (s) {
    case "true":
    case "True":
    case "TRUE":
      return true;
    case "false":
    case "False":
    case "FALSE":
      return false;
  }
  const c = s.charCodeAt(0);
  // Only strings that start like a number can be one.
  if ((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46) {
    if (INT.test(s) || FLOAT.test(s)) return Number(s);
    if (/^0o[0-7]+$/.test(s)) return parseInt(s.slice(2), 8);
    if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.slice(2), 16);
    if (/^[-+]?\.(inf|Inf|INF)$/.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
    if (/^\.(nan|NaN|NAN)$/.test(s)) return NaN;
  }
  return s;
}

interface Built {
  value: unknown;
  tape: Int32Array;
  names: string[];
}

/** A growable tape; one scratch buffer serves every document (the result is a copy). */
let scratch = new Int32Array(1 << 12);

function build(text: string, events: Event[]): Built {
  const { COLLECTION_STYLE, EVENT_ID, getScalarValue, SCALAR_STYLE } = loadJsYaml();
  let tape = scratch;
  let top = 0;
  const names: string[] = [];
  const stack: Frame[] = [];
  let root: { value: unknown } | undefined;
  let docs = 0;
  let lastEnd = 0;

  const grow = (slots: number) => {
    if (top + slots <= tape.length) return;
    const bigger = new Int32Array(tape.length * 2 + slots);
    bigger.set(tape.subarray(0, top));
    tape = scratch = bigger;
  };
  /** Writes a value's slots (its `next` is filled later for collections); returns their index. */
  const open = (kind: number, start: number, end: number): number => {
    grow(4);
    const at = top;
    tape[at] = kind;
    tape[at + 1] = start;
    tape[at + 2] = end;
    top += 4;
    tape[at + 3] = top;
    return at;
  };

  /** Places a value (already on the tape at `at`) in the open collection, or as the root. */
  const place = (value: unknown) => {
    const frame = stack[stack.length - 1];
    if (!frame) {
      if (root) throw UNSUPPORTED;
      root = { value };
      return;
    }
    if (Array.isArray(frame.value)) {
      frame.value.push(value);
      return;
    }
    const name = frame.key!;
    frame.key = undefined;
    (frame.value as Record<string, unknown>)[name] = value;
  };

  /** In a mapping waiting for a key, a scalar is that key: true when it was taken as one. */
  const takeKey = (value: unknown, start: number, end: number, isScalar: boolean): boolean => {
    const frame = stack[stack.length - 1];
    if (!frame || Array.isArray(frame.value) || frame.key !== undefined) return false;
    if (!isScalar || (value === null && start < 0)) throw UNSUPPORTED;
    const name = String(value);
    // A duplicate key and a `__proto__` key: the careful path reports them.
    if (name === "__proto__" || Object.hasOwn(frame.value, name)) throw UNSUPPORTED;
    grow(3);
    frame.keyAt = top;
    tape[top] = start;
    tape[top + 1] = end;
    tape[top + 2] = names.length;
    top += 3;
    names.push(name);
    frame.key = name;
    return true;
  };

  for (const e of events) {
    switch (e.type) {
      case EVENT_ID.DOCUMENT:
        if (++docs > 1) throw UNSUPPORTED;
        break;
      case EVENT_ID.SCALAR: {
        if (e.tagStart >= 0 || e.anchorStart >= 0) throw UNSUPPORTED;
        const raw = e.valueStart < 0 ? "" : getScalarValue(text, e);
        const value = e.style === SCALAR_STYLE.PLAIN ? resolvePlain(raw) : raw;
        const quoted = e.style === SCALAR_STYLE.SINGLE_QUOTED || e.style === SCALAR_STYLE.DOUBLE_QUOTED;
        // Quoted scalars are reported without their quotes; include them, as `yaml` does.
        let start = e.valueStart < 0 ? -1 : quoted ? e.valueStart - 1 : e.valueStart;
        let end = e.valueStart < 0 ? -1 : quoted ? e.valueEnd + 1 : e.valueEnd;
        if (e.style === SCALAR_STYLE.LITERAL_BLOCK || e.style === SCALAR_STYLE.FOLDED_BLOCK) {
          // A block scalar starts at its `|` or `>` indicator and ends at its last visible character.
          start = Math.max(text.lastIndexOf("|", e.valueStart), text.lastIndexOf(">", e.valueStart));
          while (end > start + 1 && /\s/.test(text[end - 1]!)) end--;
        }
        if (end > lastEnd) lastEnd = end;
        if (takeKey(value, start, end, true)) break;
        const frame = stack[stack.length - 1];
        // An empty value (`key:`) has no position of its own; it is the key's.
        if (start < 0 && frame && !Array.isArray(frame.value)) {
          start = tape[frame.keyAt]!;
          end = tape[frame.keyAt + 1]!;
        }
        open(SCALAR, start, end);
        place(value);
        break;
      }
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE: {
        if (e.tagStart >= 0 || e.anchorStart >= 0) throw UNSUPPORTED;
        const isMap = e.type === EVENT_ID.MAPPING;
        const value = isMap ? {} : [];
        takeKey(value, e.start, e.start, false);
        const at = open(isMap ? MAP : SEQ, e.start, e.start);
        place(value);
        stack.push({ value, at, flow: e.style === COLLECTION_STYLE.FLOW, key: undefined, keyAt: 0 });
        break;
      }
      case EVENT_ID.POP: {
        const frame = stack.pop();
        if (!frame) break;
        let end = Math.max(lastEnd, tape[frame.at + 1]! + 1);
        if (frame.flow) {
          // A flow collection ends at its closing bracket, which no event reports.
          const close = text.indexOf(Array.isArray(frame.value) ? "]" : "}", end);
          if (close >= 0) end = close + 1;
        }
        tape[frame.at + 2] = end;
        tape[frame.at + 3] = top;
        if (end > lastEnd) lastEnd = end;
        break;
      }
      default:
        throw UNSUPPORTED; // aliases
    }
  }
  if (!root) return { value: null, tape: Int32Array.of(SCALAR, 0, 0, 4), names };
  return { value: root.value, tape: tape.slice(0, top), names };
}

/** Maps document paths to tape entries; per-collection lookups are built on first use. */
class Positions {
  private readonly members = new Map<number, Map<string, number>>();
  private readonly items = new Map<number, number[]>();

  constructor(
    private readonly tape: Int32Array,
    private readonly names: readonly string[],
  ) {}

  rangeOf(path: DocPath, part: "key" | "value"): [number, number] {
    const tape = this.tape;
    let at = 0;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i]!;
      const kind = tape[at];
      if (kind === MAP) {
        const member = this.memberMap(at).get(String(seg));
        if (member === undefined) break;
        if (i === path.length - 1 && part === "key") return [tape[member]!, tape[member + 1]!];
        at = member + 3;
      } else if (kind === SEQ && typeof seg === "number") {
        const item = this.itemList(at)[seg];
        if (item === undefined) break;
        at = item;
      } else break;
    }
    return [Math.max(0, tape[at + 1]!), Math.max(0, tape[at + 2]!)];
  }

  private memberMap(at: number): Map<string, number> {
    let map = this.members.get(at);
    if (map) return map;
    map = new Map();
    const tape = this.tape;
    for (let j = at + 4, end = tape[at + 3]!; j < end; j = tape[j + 6]!) map.set(this.names[tape[j + 2]!]!, j);
    this.members.set(at, map);
    return map;
  }

  private itemList(at: number): number[] {
    let list = this.items.get(at);
    if (list) return list;
    list = [];
    const tape = this.tape;
    for (let j = at + 4, end = tape[at + 3]!; j < end; j = tape[j + 3]!) list.push(j);
    this.items.set(at, list);
    return list;
  }
}

/** Parses a YAML plan quickly, or returns undefined when the careful parser must decide. */
export function parseYamlFast(file: string, text: string): SourceDoc | undefined {
  let built: Built;
  try {
    built = build(text, loadJsYaml().parseEvents(text, { filename: file }));
  } catch {
    return undefined;
  }
  return new LazyIndexDoc(file, text, built.value, new Positions(built.tape, built.names));
}
