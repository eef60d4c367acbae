/**
 * The fast path for YAML plan files. `yaml`'s parser needs seconds for a 10,000-step
 * plan; js-yaml's event parser reads the same text ~10× faster and reports the source
 * offsets of every scalar and collection, from which we build the value and a position
 * tree in one pass. Anything unusual — a syntax error, a duplicate key, a `__proto__`
 * key, anchors, aliases, tags, several documents, a collection used as a key — returns undefined, and
 * the caller takes the careful path (`yaml-source.ts`), which also words the errors.
 */
import type { Event } from "js-yaml";
import { LineIndex } from "../diagnostic.js";
import { loadJsYaml } from "./lazy.js";
import type { DocPath, SourceDoc } from "./source.js";

interface Pos {
  start: number;
  end: number;
  keys?: Map<string, { keyStart: number; keyEnd: number; node: Pos }>;
  items?: Pos[];
}

interface Frame {
  value: Record<string, unknown> | unknown[];
  pos: Pos;
  flow: boolean;
  key?: { name: string; start: number; end: number };
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

function build(text: string, events: Event[]): { value: unknown; pos: Pos } {
  const { COLLECTION_STYLE, EVENT_ID, getScalarValue, SCALAR_STYLE } = loadJsYaml();
  const stack: Frame[] = [];
  let root: { value: unknown; pos: Pos } | undefined;
  let docs = 0;
  let lastEnd = 0;

  const place = (value: unknown, pos: Pos, isScalar: boolean) => {
    const top = stack[stack.length - 1];
    if (!top) {
      if (root) throw UNSUPPORTED;
      root = { value, pos };
      return;
    }
    if (Array.isArray(top.value)) {
      top.value.push(value);
      top.pos.items!.push(pos);
      return;
    }
    if (!top.key) {
      if (!isScalar || value === null && pos.start < 0) throw UNSUPPORTED;
      top.key = { name: String(value), start: pos.start, end: pos.end };
      return;
    }
    const { name, start, end } = top.key;
    top.key = undefined;
    // A duplicate key and a `__proto__` key: the careful path reports them.
    if (top.pos.keys!.has(name) || name === "__proto__") throw UNSUPPORTED;
    // An empty value (`key:`) has no position of its own; it is the key's.
    const at = pos.start < 0 ? { start, end } : pos;
    top.pos.keys!.set(name, { keyStart: start, keyEnd: end, node: at });
    (top.value as Record<string, unknown>)[name] = value;
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
        const pos: Pos = e.valueStart < 0 ? { start: -1, end: -1 } : quoted ? { start: e.valueStart - 1, end: e.valueEnd + 1 } : { start: e.valueStart, end: e.valueEnd };
        if (e.style === SCALAR_STYLE.LITERAL_BLOCK || e.style === SCALAR_STYLE.FOLDED_BLOCK) {
          // A block scalar starts at its `|` or `>` indicator and ends at its last visible character.
          pos.start = Math.max(text.lastIndexOf("|", e.valueStart), text.lastIndexOf(">", e.valueStart));
          while (pos.end > pos.start + 1 && /\s/.test(text[pos.end - 1]!)) pos.end--;
        }
        if (pos.end > lastEnd) lastEnd = pos.end;
        place(value, pos, true);
        break;
      }
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE: {
        if (e.tagStart >= 0 || e.anchorStart >= 0) throw UNSUPPORTED;
        const isMap = e.type === EVENT_ID.MAPPING;
        const value = isMap ? {} : [];
        const pos: Pos = isMap ? { start: e.start, end: e.start, keys: new Map() } : { start: e.start, end: e.start, items: [] };
        place(value, pos, false);
        stack.push({ value, pos, flow: e.style === COLLECTION_STYLE.FLOW });
        break;
      }
      case EVENT_ID.POP: {
        const frame = stack.pop();
        if (!frame) break;
        let end = Math.max(lastEnd, frame.pos.start + 1);
        if (frame.flow) {
          // A flow collection ends at its closing bracket, which no event reports.
          const close = text.indexOf(Array.isArray(frame.value) ? "]" : "}", end);
          if (close >= 0) end = close + 1;
        }
        frame.pos.end = end;
        if (end > lastEnd) lastEnd = end;
        break;
      }
      default:
        throw UNSUPPORTED; // aliases
    }
  }
  if (!root) return { value: null, pos: { start: 0, end: 0 } };
  return root;
}

function rangeIn(root: Pos, path: DocPath, part: "key" | "value"): [number, number] {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    const last = i === path.length - 1;
    if (node.keys) {
      const entry = node.keys.get(String(seg));
      if (!entry) break;
      if (last && part === "key") return [entry.keyStart, entry.keyEnd];
      node = entry.node;
    } else if (node.items && typeof seg === "number" && node.items[seg]) {
      node = node.items[seg]!;
    } else break;
  }
  return [Math.max(0, node.start), Math.max(0, node.end)];
}

/** Parses a YAML plan quickly, or returns undefined when the careful parser must decide. */
export function parseYamlFast(file: string, text: string): SourceDoc | undefined {
  let built: { value: unknown; pos: Pos };
  try {
    built = build(text, loadJsYaml().parseEvents(text, { filename: file }));
  } catch {
    return undefined;
  }
  let index: LineIndex | undefined;
  const root = built.pos;
  return {
    file,
    text,
    get index() {
      return (index ??= new LineIndex(text));
    },
    data: built.value,
    rangeOf: (path, part = "value") => rangeIn(root, path, part),
  };
}
