/**
 * Plan files in JSON form. `JSON.parse` keeps no positions and `yaml` is far too slow for
 * thousands of plans, so one hand-written scanner over char codes builds the plain value and,
 * beside it, a flat tape of source offsets from which document paths are mapped to ranges.
 */
import { type DocPath, LazyIndexDoc, type SourceDoc } from "./source.js";

export interface JsonParseError { message: string; start: number; end: number }

export interface JsonDuplicateKey {
  key: string;
  /** The path of the duplicated member: its object's path plus the key. */
  path: DocPath;
  start: number;
  end: number;
}

export interface JsonSourceResult {
  doc?: SourceDoc;
  errors: JsonParseError[];
  duplicateKeys: JsonDuplicateKey[];
  /** Every `"__proto__"` key (kept as an own property, as JSON.parse does; the compiler refuses it). */
  protoKeys: Array<{ start: number; end: number }>;
}

/** Deeper documents are certainly not plans; the limit keeps recursion far from the stack's end. */
export const MAX_JSON_DEPTH = 1000;

// Tape layout: every value takes 3 slots [start, end, next] in document order, where `next` is
// the tape index just past its subtree; an object member is 2 slots [keyStart, keyEnd] followed
// by its value. Entry 0 is the root. Typed slots cost far less than an object per node.

// One tape reused by every document parsed in this process: a corpus lint parses thousands
// of files, and a fresh zero-filled array per file (twice its length in bytes) fed the GC.
let scratchTape: Int32Array = new Int32Array(1 << 16);

class SyntaxFailure { constructor(readonly error: JsonParseError) {} }

const ESCAPES: Record<number, string> = { 34: '"', 92: "\\", 47: "/", 98: "\b", 102: "\f", 110: "\n", 114: "\r", 116: "\t" };

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}

/** What both scanners keep: the text, where they are in it, and the position tape they fill (the shared scratch one first). */
abstract class TapeScan {
  pos = 0;
  top = 0;
  depth = 0;
  tape: Int32Array = scratchTape;

  constructor(readonly text: string) {}

  /** Skips JSON whitespace and returns the next char code (NaN at the end). */
  skipWs(): number {
    const t = this.text;
    let p = this.pos;
    let c = t.charCodeAt(p);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++p);
    this.pos = p;
    return c;
  }

  ensure(slots: number): void {
    if (this.top + slots <= this.tape.length) return;
    const grown = new Int32Array(this.tape.length * 2 + slots);
    grown.set(this.tape.subarray(0, this.top));
    this.tape = grown;
  }
}

class Scanner extends TapeScan {
  readonly dups: Array<{ key: string; start: number; end: number }> = [];
  readonly protoKeys: Array<{ start: number; end: number }> = [];

  /** Parses the whole text; throws SyntaxFailure on the first error. */
  document(): unknown {
    const t = this.text;
    if (t.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.skipWs();
    if (this.pos >= t.length) this.fail("empty document: expected a JSON value", 0, 0);
    const value = this.value();
    this.skipWs();
    if (this.pos < t.length) this.unexpected(this.pos, "expected the end of the document");
    // The document keeps an exact copy; the scratch tape (perhaps grown) serves the next one.
    scratchTape = this.tape;
    this.tape = this.tape.slice(0, this.top);
    return value;
  }


  value(): unknown {
    const c = this.skipWs();
    this.ensure(3);
    const at = this.top;
    this.top += 3;
    const start = this.pos;
    let v: unknown;
    if (c === 34) v = this.string();
    else if (c === 123 || c === 91) {
      if (++this.depth > MAX_JSON_DEPTH) this.fail(`nesting deeper than ${MAX_JSON_DEPTH} levels`, start, start + 1);
      v = c === 123 ? this.object() : this.array();
      this.depth--;
    }
    else if (c === 45 || (c >= 48 && c <= 57)) v = this.number();
    else if (c === 116) v = this.literal("true", true);
    else if (c === 102) v = this.literal("false", false);
    else if (c === 110) v = this.literal("null", null);
    else this.unexpected(start, "expected a value");
    const tape = this.tape;
    tape[at] = start;
    tape[at + 1] = this.pos;
    tape[at + 2] = this.top;
    return v;
  }

  object(): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    this.pos++;
    if (this.skipWs() !== 125) {
      for (let expected = 'expected a double-quoted key or "}"'; ; expected = "expected a double-quoted key") {
        if (this.text.charCodeAt(this.pos) !== 34) this.unexpected(this.pos, expected);
        const keyStart = this.pos;
        const key = this.string();
        const keyEnd = this.pos;
        if (this.skipWs() !== 58) this.unexpected(this.pos, `expected ":" after key ${JSON.stringify(key)}`);
        this.pos++;
        this.ensure(2);
        this.tape[this.top++] = keyStart;
        this.tape[this.top++] = keyEnd;
        const v = this.value();
        // Last one wins, as in JSON.parse; every repeat is reported at its key.
        if (Object.hasOwn(obj, key)) this.dups.push({ key, start: keyStart, end: keyEnd });
        // A plain assignment to "__proto__" would set the prototype instead of a property.
        if (key === "__proto__") {
          Object.defineProperty(obj, key, { value: v, writable: true, enumerable: true, configurable: true });
          this.protoKeys.push({ start: keyStart, end: keyEnd });
        } else obj[key] = v;
        const c = this.skipWs();
        if (c === 125) break;
        if (c !== 44) this.unexpected(this.pos, 'expected "," or "}"');
        const comma = this.pos++;
        if (this.skipWs() === 125) this.fail('trailing comma before "}"', comma, comma + 1);
      }
    }
    this.pos++;
    return obj;
  }

  array(): unknown[] {
    const arr: unknown[] = [];
    this.pos++;
    if (this.skipWs() !== 93) {
      for (;;) {
        arr.push(this.value());
        const c = this.skipWs();
        if (c === 93) break;
        if (c !== 44) this.unexpected(this.pos, 'expected "," or "]"');
        const comma = this.pos++;
        if (this.skipWs() === 93) this.fail('trailing comma before "]"', comma, comma + 1);
      }
    }
    this.pos++;
    return arr;
  }

  string(): string {
    const t = this.text;
    const start = ++this.pos;
    for (let p = start; ; p++) {
      const c = t.charCodeAt(p);
      if (c === 34) {
        this.pos = p + 1;
        return t.slice(start, p);
      }
      // `!(c >= 32)` also catches NaN, the end of the text.
      if (c === 92 || !(c >= 32)) return this.escapedString(start, p);
    }
  }

  /** The rare path: strings with escapes, and the errors inside strings. */
  escapedString(start: number, from: number): string {
    const t = this.text;
    let out = t.slice(start, from);
    let p = from;
    let seg = from;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 34) {
        this.pos = p + 1;
        return out + t.slice(seg, p);
      }
      if (c === 92) {
        out += t.slice(seg, p);
        const e = t.charCodeAt(p + 1);
        const simple = ESCAPES[e];
        if (simple !== undefined) {
          out += simple;
          p += 2;
        } else if (e === 117) {
          const hex = t.slice(p + 2, p + 6);
          const bad = /[^0-9a-fA-F]/.exec(hex)?.index ?? (hex.length < 4 ? hex.length : -1);
          if (bad >= 0) {
            if (p + 2 + bad >= t.length) this.fail("unterminated string", start - 1, t.length);
            this.fail(`invalid unicode escape ${JSON.stringify(t.slice(p, p + 3 + bad))}: expected 4 hex digits`, p, p + 3 + bad);
          }
          out += String.fromCharCode(parseInt(hex, 16));
          p += 6;
        } else if (p + 1 >= t.length) {
          this.fail("unterminated string", start - 1, t.length);
        } else {
          const bad = String.fromCodePoint(t.codePointAt(p + 1)!);
          this.fail(`invalid escape ${JSON.stringify("\\" + bad)}`, p, p + 1 + bad.length);
        }
        seg = p;
        continue;
      }
      if (!(c >= 32)) {
        // A raw line break inside a string almost always means a missing closing quote.
        if (p >= t.length || c === 10 || c === 13) this.fail("unterminated string", start - 1, p);
        const hex = c.toString(16).toUpperCase().padStart(4, "0");
        this.fail(`control character U+${hex} in a string must be escaped`, p, p + 1);
      }
      p++;
    }
  }

  number(): number {
    const t = this.text;
    const start = this.pos;
    let p = start;
    let c = t.charCodeAt(p);
    const negative = c === 45;
    if (negative) c = t.charCodeAt(++p);
    let n = 0;
    if (c === 48) {
      c = t.charCodeAt(++p);
      if (c >= 48 && c <= 57) {
        while (c >= 48 && c <= 57) c = t.charCodeAt(++p);
        this.fail("numbers cannot have leading zeros", start, p);
      }
    } else if (c >= 49 && c <= 57) {
      do {
        n = n * 10 + (c - 48);
        c = t.charCodeAt(++p);
      } while (c >= 48 && c <= 57);
    } else {
      this.unexpected(p, 'expected a digit after "-"');
    }
    let integer = true;
    if (c === 46) {
      integer = false;
      c = t.charCodeAt(++p);
      if (!(c >= 48 && c <= 57)) this.unexpected(p, 'expected a digit after "."');
      while (c >= 48 && c <= 57) c = t.charCodeAt(++p);
    }
    if (c === 101 || c === 69) {
      integer = false;
      c = t.charCodeAt(++p);
      if (c === 43 || c === 45) c = t.charCodeAt(++p);
      if (!(c >= 48 && c <= 57)) this.unexpected(p, "expected a digit in the exponent");
      while (c >= 48 && c <= 57) c = t.charCodeAt(++p);
    }
    this.pos = p;
    // Up to 15 digits the running integer is exact; anything else goes through Number().
    if (integer && p - start - (negative ? 1 : 0) <= 15) return negative ? -n : n;
    return Number(t.slice(start, p));
  }

  literal<T>(word: string, value: T): T {
    const p = this.pos;
    if (this.text.startsWith(word, p) && !isWordChar(this.text.charCodeAt(p + word.length))) {
      this.pos = p + word.length;
      return value;
    }
    return this.unexpected(p, "expected a value");
  }

  /** Reports the token at `p`: a whole word, a comment opener, one character, or the end. */
  unexpected(p: number, expected: string): never {
    const t = this.text;
    if (p >= t.length) this.fail(`unexpected end of input: ${expected}`, t.length, t.length);
    const c = t.charCodeAt(p);
    if (c === 47 && (t.charCodeAt(p + 1) === 47 || t.charCodeAt(p + 1) === 42)) {
      this.fail("comments are not allowed in JSON", p, p + 2);
    }
    let end = p + 1;
    if (isWordChar(c)) while (end < t.length && isWordChar(t.charCodeAt(end))) end++;
    else end = p + String.fromCodePoint(t.codePointAt(p)!).length;
    this.fail(`unexpected ${JSON.stringify(t.slice(p, end))}: ${expected}`, p, end);
  }

  fail(message: string, start: number, end: number): never {
    throw new SyntaxFailure({ message, start, end });
  }
}

/**
 * The common case, cheaper than the scanner (most of a one-shot lint runs as cold code, and
 * native code is fast from the first file): `JSON.parse` checks the syntax and builds the
 * value, and a scan of the structure alone fills the same tape as `Scanner` (strings
 * skipped with indexOf, nothing allocated but the tape). Returns undefined for what only
 * the scanner handles: a syntax error (it words the error), a byte-order mark, nesting past
 * the limit, a duplicate key (the scan counts more members than the value has keys), and
 * any text that could spell `__proto__` (literally, or with a \u escape).
 */
function parseFast(text: string): { data: unknown; tape: Int32Array } | undefined {
  if (text.includes("__proto__") || text.includes("\\u")) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const scan = new StructureScan(text);
  let members: number;
  try {
    members = scan.document();
  } catch (err) {
    if (err === TOO_DEEP) return undefined;
    throw err;
  }
  if (members !== countKeys(data)) return undefined;
  return { data, tape: scan.tape };
}

const TOO_DEEP = new Error("too deep");

/** How many object members `value` holds, at every depth. */
function countKeys(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) n += countKeys(value[i]);
    return n;
  }
  const obj = value as Record<string, unknown>;
  for (const k in obj) n += 1 + countKeys(obj[k]);
  return n;
}

/** Fills the tape of text that `JSON.parse` accepted, so it checks nothing but depth. */
class StructureScan extends TapeScan {
  members = 0;

  /** The number of object members; the tape is left in `tape`. */
  document(): number {
    try {
      this.value();
    } finally {
      scratchTape = this.tape;
    }
    this.tape = this.tape.slice(0, this.top);
    return this.members;
  }


  value(): void {
    const c = this.skipWs();
    this.ensure(3);
    const at = this.top;
    this.top += 3;
    const start = this.pos;
    if (c === 34) this.pos = this.stringEnd(start);
    else if (c === 123 || c === 91) {
      if (++this.depth > MAX_JSON_DEPTH) throw TOO_DEEP;
      if (c === 123) this.object();
      else this.array();
      this.depth--;
    } else {
      // A number or a literal: up to the next delimiter.
      const t = this.text;
      let p = start + 1;
      for (let d = t.charCodeAt(p); p < t.length && d !== 44 && d !== 93 && d !== 125 && d !== 32 && d !== 10 && d !== 13 && d !== 9; d = t.charCodeAt(++p));
      this.pos = p;
    }
    const tape = this.tape;
    tape[at] = start;
    tape[at + 1] = this.pos;
    tape[at + 2] = this.top;
  }

  object(): void {
    this.pos++;
    if (this.skipWs() === 125) {
      this.pos++;
      return;
    }
    for (;;) {
      const keyStart = this.pos;
      const keyEnd = this.stringEnd(keyStart);
      this.pos = keyEnd;
      this.skipWs();
      this.pos++; // the colon
      this.ensure(2);
      this.tape[this.top++] = keyStart;
      this.tape[this.top++] = keyEnd;
      this.members++;
      this.value();
      if (this.skipWs() === 125) break;
      this.pos++; // the comma
      this.skipWs();
    }
    this.pos++;
  }

  array(): void {
    this.pos++;
    if (this.skipWs() === 93) {
      this.pos++;
      return;
    }
    for (;;) {
      this.value();
      if (this.skipWs() === 93) break;
      this.pos++; // the comma
    }
    this.pos++;
  }

  /** The offset just past the string that opens at `open`. */
  stringEnd(open: number): number {
    const t = this.text;
    let q = t.indexOf('"', open + 1);
    // A quote after an odd number of backslashes is escaped.
    while (t.charCodeAt(q - 1) === 92) {
      let b = q - 1;
      while (t.charCodeAt(b - 1) === 92) b--;
      if ((q - b) % 2 === 0) break;
      q = t.indexOf('"', q + 1);
    }
    return q + 1;
  }
}

/** Maps document paths to tape entries; per-container key maps are built on first use. */
class PositionIndex {
  private readonly members = new Map<number, Map<string, number>>();
  private readonly items = new Map<number, number[]>();

  constructor(
    private readonly text: string,
    private readonly tape: Int32Array,
  ) {}

  rangeOf(path: DocPath, part: "key" | "value"): [number, number] {
    const tape = this.tape;
    if (tape.length === 0) return [0, 0];
    let at = 0;
    for (let d = 0; d < path.length; d++) {
      const open = this.text.charCodeAt(tape[at]!);
      const seg = path[d]!;
      if (open === 123) {
        const member = this.memberMap(at).get(String(seg));
        if (member === undefined) break;
        if (part === "key" && d === path.length - 1) return [tape[member]!, tape[member + 1]!];
        at = member + 2;
      } else if (open === 91) {
        const i = typeof seg === "number" ? seg : /^(0|[1-9]\d*)$/.test(seg) ? Number(seg) : -1;
        const item = this.itemList(at)[i];
        if (item === undefined) break;
        at = item;
      } else {
        break;
      }
    }
    return [tape[at]!, tape[at + 1]!];
  }

  /** The path of the innermost container that holds `offset` outside its members' values. */
  pathAt(offset: number): Array<string | number> {
    const tape = this.tape;
    const path: Array<string | number> = [];
    let at = 0;
    descend: for (;;) {
      const open = this.text.charCodeAt(tape[at]!);
      const end = tape[at + 2]!;
      if (open === 123) {
        for (let j = at + 3; j < end; j = tape[j + 4]!) {
          if (tape[j + 2]! <= offset && offset < tape[j + 3]!) {
            path.push(this.keyAt(j));
            at = j + 2;
            continue descend;
          }
        }
      } else if (open === 91) {
        for (let j = at + 3, i = 0; j < end; j = tape[j + 2]!, i++) {
          if (tape[j]! <= offset && offset < tape[j + 1]!) {
            path.push(i);
            at = j;
            continue descend;
          }
        }
      }
      return path;
    }
  }

  private memberMap(at: number): Map<string, number> {
    let map = this.members.get(at);
    if (map) return map;
    map = new Map();
    const tape = this.tape;
    // A repeated key maps to its last occurrence, the one whose value is in `data`.
    for (let j = at + 3, end = tape[at + 2]!; j < end; j = tape[j + 4]!) map.set(this.keyAt(j), j);
    this.members.set(at, map);
    return map;
  }

  private itemList(at: number): number[] {
    let list = this.items.get(at);
    if (list) return list;
    list = [];
    const tape = this.tape;
    for (let j = at + 3, end = tape[at + 2]!; j < end; j = tape[j + 2]!) list.push(j);
    this.items.set(at, list);
    return list;
  }

  private keyAt(slot: number): string {
    const raw = this.text.slice(this.tape[slot]!, this.tape[slot + 1]!);
    return raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }
}

/** Parses JSON text into a SourceDoc whose rangeOf(path, part) maps document paths to [start, end) offsets. */
export function parseJsonSource(file: string, text: string): JsonSourceResult {
  const fast = parseFast(text);
  if (fast) return { doc: sourceDoc(file, text, fast.data, new PositionIndex(text, fast.tape)), errors: [], duplicateKeys: [], protoKeys: [] };
  const scanner = new Scanner(text);
  let data: unknown;
  try {
    data = scanner.document();
  } catch (err) {
    if (err instanceof SyntaxFailure) return { errors: [err.error], duplicateKeys: [], protoKeys: [] };
    throw err;
  }
  const positions = new PositionIndex(text, scanner.tape);
  const duplicateKeys = scanner.dups.map((d) => ({ ...d, path: [...positions.pathAt(d.start), d.key] }));
  return { doc: sourceDoc(file, text, data, positions), errors: [], duplicateKeys, protoKeys: scanner.protoKeys };
}

function sourceDoc(file: string, text: string, data: unknown, positions: PositionIndex): SourceDoc {
  return new LazyIndexDoc(file, text, data, positions);
}
