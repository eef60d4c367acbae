/**
 * YAML plan files: parsed with `yaml`'s Document API so every node keeps its source
 * range; document paths are mapped to ranges lazily, per lookup.
 */
import type { Node, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { loadYaml } from "./lazy.js";
import { LineIndex } from "../diagnostic.js";
import type { DocPath, SourceDoc } from "./source.js";

let yamlLib: typeof import("yaml") | undefined;
const Y = () => (yamlLib ??= loadYaml());
const isMap = (n: unknown): n is YAMLMap => Y().isMap(n);
const isSeq = (n: unknown): n is YAMLSeq => Y().isSeq(n);
const isScalar = (n: unknown): n is Scalar => Y().isScalar(n);
const isPair = (n: unknown): n is Pair => Y().isPair(n);

export interface SourceError {
  code: "syntax" | "duplicate-key" | "proto-key";
  message: string;
  start: number;
  end: number;
  key?: string;
}

/** Parses YAML text into a SourceDoc; syntax errors and duplicate keys are returned, not thrown. */
export function parseYamlSource(file: string, text: string): { doc?: SourceDoc; errors: SourceError[] } {
  const { LineCounter, parseDocument } = Y();
  const lineCounter = new LineCounter();
  // yaml's own uniqueKeys check compares every key with every earlier one: quadratic in
  // the size of a map, seconds for a 10,000-step plan. We find duplicates in one pass.
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false, keepSourceTokens: false });
  const errors: SourceError[] = [];
  for (const e of document.errors) {
    const [start, end] = e.pos;
    if (e.code === "DUPLICATE_KEY") {
      // yaml points at the key's first character; underline the whole key.
      const m = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^:\n]+?)\s*:/.exec(text.slice(start));
      const raw = m ? m[1]! : text.slice(start, end);
      const key = raw.replace(/^["']|["']$/g, "").trim();
      errors.push({ code: "duplicate-key", message: `duplicate key "${key}"`, start, end: start + raw.length, key });
    } else {
      errors.push({ code: "syntax", message: cleanYamlMessage(e.message), start, end: Math.max(end, start + 1) });
    }
  }
  if (errors.some((e) => e.code === "syntax")) return { errors };
  checkKeys(document.contents as Node | null, errors);
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // Alias bombs and unresolved aliases surface here: a user error, with no better position.
    errors.push({ code: "syntax", message: (err as Error).message, start: 0, end: 1 });
    return { errors };
  }
  const root = document.contents as Node | null;
  let index: LineIndex | undefined;
  const doc: SourceDoc = {
    file,
    text,
    get index() {
      return (index ??= new LineIndex(text));
    },
    data: data ?? null,
    rangeOf: (path, part = "value") => trimRange(text, yamlRange(root, path, part, text.length)),
  };
  return { doc, errors };
}

/** Reports every key that repeats an earlier key of the same map, and every `__proto__` key (`yaml` keeps it as an own property). */
function checkKeys(root: Node | null, errors: SourceError[]): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        if (isScalar(key)) {
          const name = String(key.value);
          if (seen.has(name) && key.range) {
            errors.push({ code: "duplicate-key", message: `duplicate key "${name}"`, start: key.range[0], end: key.range[1], key: name });
          }
          if (name === "__proto__" && key.range) errors.push({ code: "proto-key", message: "__proto__ key", start: key.range[0], end: key.range[1], key: name });
          seen.add(name);
        }
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    }
  }
}

/** yaml's messages end with a position suffix and code frame; we print our own. */
function cleanYamlMessage(message: string): string {
  // yaml reports its own stack overflow as an error at the value it was reading.
  if (/Maximum call stack size exceeded/.test(message)) return "nesting too deep to read: a plan's values may nest a few hundred levels";
  const first = message.split("\n")[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, "").trim();
}

function nodeRange(node: Node | null | undefined): [number, number] | undefined {
  const r = node?.range;
  return r ? [r[0], r[1]] : undefined;
}

const mapIndexes = new WeakMap<object, Map<string, Pair>>();

/** Finds the pair of `key` in a map; big maps (plans of thousands of steps) get an index. */
function findPair(map: { items: Pair[] }, key: string): Pair | undefined {
  if (map.items.length < 16) {
    return map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  }
  let idx = mapIndexes.get(map);
  if (!idx) {
    idx = new Map();
    for (const p of map.items) if (isScalar(p.key)) idx.set(String(p.key.value), p);
    mapIndexes.set(map, idx);
  }
  return idx.get(key);
}

function yamlRange(root: Node | null, path: DocPath, part: "key" | "value", textLength: number): [number, number] {
  let node: Node | null | undefined = root;
  let best: [number, number] = nodeRange(root) ?? [0, Math.min(1, textLength)];
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = findPair(node, String(seg));
      if (!pair || !isPair(pair)) return best;
      const keyRange = nodeRange(pair.key as Node);
      const valRange = nodeRange(pair.value as Node);
      if (last && part === "key" && keyRange) return keyRange;
      node = pair.value as Node | null;
      // `key:` with no value has a null value node positioned after the colon; point at the key instead.
      best = valRange && valRange[1] > valRange[0] ? valRange : (keyRange ?? best);
    } else if (isSeq(node) && typeof seg === "number") {
      const item = node.items[seg] as Node | undefined;
      const r = nodeRange(item);
      if (!r) return best;
      node = item;
      best = r;
    } else {
      return best;
    }
  }
  return best;
}

/** Block nodes' ranges include trailing newlines; an underline should not. */
function trimRange(text: string, r: [number, number]): [number, number] {
  let end = r[1];
  while (end > r[0] + 1 && /\s/.test(text[end - 1]!)) end--;
  return [r[0], end];
}
