/**
 * JSON as Python's `json.loads` reads it, for scoring TaskBench files exactly as its
 * `evaluate.py` does: objects keep their keys in insertion order (a JS object moves
 * integer-like keys first), integers stay apart from floats (`1` vs `1.0` print
 * differently in Python), and `NaN`, `Infinity` and `-Infinity` are accepted.
 */

/** A Python value: `None`, bool, int (bigint), float (number), str, list, dict. */
export type Py = null | boolean | bigint | number | string | Py[] | PyDict;
/** A dict in insertion order; a repeated key keeps its first position and its last value, as `dict(pairs)`. */
export type PyDict = Map<string, Py>;

export const isDict = (v: Py | undefined): v is PyDict => v instanceof Map;

export class PyJsonError extends Error {}

const WS = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Parses one JSON document as `json.loads` does; throws PyJsonError with Python's message and column. */
export function pyJsonParse(text: string): Py {
  let pos = 0;
  const fail = (msg: string, at = pos): never => {
    throw new PyJsonError(`${msg}: column ${at + 1} (char ${at})`);
  };
  const ws = () => {
    WS.lastIndex = pos;
    WS.exec(text);
    pos = WS.lastIndex;
  };
  const string = (): string => {
    const start = pos++;
    let out = "";
    for (;;) {
      const c = text[pos];
      if (c === undefined) return fail("Unterminated string starting at", start);
      if (c === '"') {
        pos++;
        return out;
      }
      if (c < " ") return fail("Invalid control character at");
      if (c !== "\\") {
        out += c;
        pos++;
        continue;
      }
      const e = text[pos + 1];
      if (e === undefined) return fail("Unterminated string starting at", start);
      if (e !== "u") {
        if (!(e in ESCAPES)) return fail("Invalid \\escape");
        out += ESCAPES[e];
        pos += 2;
        continue;
      }
      const hex = text.slice(pos + 2, pos + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return fail("Invalid \\uXXXX escape");
      out += String.fromCharCode(Number.parseInt(hex, 16));
      pos += 6;
    }
  };
  const value = (): Py => {
    const c = text[pos];
    if (c === '"') return string();
    if (c === "{") {
      pos++;
      const dict: PyDict = new Map();
      ws();
      if (text[pos] === "}") {
        pos++;
        return dict;
      }
      for (;;) {
        if (text[pos] !== '"') return fail("Expecting property name enclosed in double quotes");
        const key = string();
        ws();
        if (text[pos] !== ":") return fail("Expecting ':' delimiter");
        pos++;
        ws();
        dict.set(key, value());
        ws();
        if (text[pos] === "}") {
          pos++;
          return dict;
        }
        if (text[pos] !== ",") return fail("Expecting ',' delimiter");
        pos++;
        ws();
      }
    }
    if (c === "[") {
      pos++;
      const list: Py[] = [];
      ws();
      if (text[pos] === "]") {
        pos++;
        return list;
      }
      for (;;) {
        list.push(value());
        ws();
        if (text[pos] === "]") {
          pos++;
          return list;
        }
        if (text[pos] !== ",") return fail("Expecting ',' delimiter");
        pos++;
        ws();
      }
    }
    for (const [word, v] of [["null", null], ["true", true], ["false", false], ["NaN", NaN], ["Infinity", Infinity], ["-Infinity", -Infinity]] as const) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (!m) return fail("Expecting value");
    pos = NUMBER.lastIndex;
    return m[1] === undefined && m[2] === undefined ? BigInt(m[0]) : Number(m[0]);
  };
  ws();
  const v = value();
  ws();
  if (pos < text.length) fail("Extra data");
  return v;
}

/** A JS value (from JSON.parse or a literal) as Python would hold it; integral numbers become ints. */
export function fromJs(v: unknown): Py {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === "boolean" || typeof v === "string" || typeof v === "bigint") return v;
  if (Array.isArray(v)) return v.map(fromJs);
  if (v instanceof Map) return v as PyDict;
  return new Map(Object.entries(v as object).map(([k, x]) => [k, fromJs(x)]));
}

/** Python's `repr(float)`: the shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mant, expText] = x.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  const sign = mant.startsWith("-") ? "-" : "";
  const digits = mant.replace(/^-/, "").replace(".", "");
  if (exp < -4 || exp >= 16) {
    const m = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  const int = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
  const frac = digits.slice(exp + 1);
  return `${sign}${int}.${frac || "0"}`;
}

/** Characters `str.isprintable()` rejects: Unicode "Other" and "Separator", except the ASCII space. */
const NON_PRINTABLE = /[\p{C}\p{Z}]/u;

function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && NON_PRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0)!;
      out += cp < 0x100 ? `\\x${cp.toString(16).padStart(2, "0")}` : cp < 0x10000 ? `\\u${cp.toString(16).padStart(4, "0")}` : `\\U${cp.toString(16).padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python's `repr(v)`. */
export function pyRepr(v: Py): string {
  if (typeof v === "string") return strRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if (isDict(v)) return `{${[...v].map(([k, x]) => `${strRepr(k)}: ${pyRepr(x)}`).join(", ")}}`;
  return pyStr(v);
}

/** Python's `str(v)`, as an f-string prints it. */
export function pyStr(v: Py): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return floatRepr(v);
  if (typeof v === "string") return v;
  return pyRepr(v);
}

let nanSerial = 0;
/**
 * A string equal for two values exactly when Python's `==` holds (so `1`, `1.0` and `True`
 * share one), for use as a dict or set key; `undefined` for an unhashable list or dict.
 * Each NaN is its own key, as distinct NaN objects are in Python.
 */
export function pyKey(v: Py): string | undefined {
  if (v === null) return "N";
  if (typeof v === "string") return `s${v}`;
  if (typeof v === "boolean") return v ? "n1" : "n0";
  if (typeof v === "bigint") return `n${v}`;
  if (typeof v === "number") {
    if (Number.isNaN(v)) return `nan${nanSerial++}`;
    return Number.isFinite(v) && Number.isInteger(v) ? `n${BigInt(v)}` : `n${v}`;
  }
  return undefined;
}

/** Python's type name of a value, for messages. */
export function pyType(v: Py | undefined): string {
  if (v === undefined) return "missing";
  if (v === null) return "None";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return "float";
  if (typeof v === "string") return "str";
  return Array.isArray(v) ? "list" : "dict";
}
