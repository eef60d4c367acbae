/**
 * JSON plan files: the data must be exactly what JSON.parse gives, every path must map to
 * the source text of its key and value, and every syntax error must point at its token.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineIndex } from "../../src/diagnostic.js";
import { MAX_JSON_DEPTH, parseJsonSource } from "../../src/compiler/json-source.js";
import type { DocPath, SourceDoc } from "../../src/compiler/source.js";

function parseOk(text: string): SourceDoc {
  const result = parseJsonSource("plan.plan.json", text);
  expect(result.errors).toEqual([]);
  expect(result.doc).toBeDefined();
  return result.doc!;
}

function jsonParses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** JSON.stringify's tokens with whitespace drawn from `ws` between every pair of them. */
function spaced(value: unknown, ws: string[]): string {
  let k = 0;
  const w = (): string => ws[k++ % ws.length] ?? "";
  const go = (v: unknown): string => {
    if (Array.isArray(v)) return `[${w()}${v.map(go).join(`${w()},${w()}`)}${w()}]`;
    if (v !== null && typeof v === "object") {
      const members = Object.entries(v).map(([key, x]) => `${JSON.stringify(key)}${w()}:${w()}${go(x)}`);
      return `{${w()}${members.join(`${w()},${w()}`)}${w()}}`;
    }
    return JSON.stringify(v);
  };
  return w() + go(value) + w();
}

/** Every path in a value, with the value there and, for object members, the key. */
function* walk(v: unknown, path: Array<string | number> = []): Generator<{ path: DocPath; value: unknown; key?: string }> {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      yield { path: [...path, i], value: v[i] };
      yield* walk(v[i], [...path, i]);
    }
  } else if (v !== null && typeof v === "object") {
    for (const [key, x] of Object.entries(v)) {
      yield { path: [...path, key], value: x, key };
      yield* walk(x, [...path, key]);
    }
  }
}

const whitespace = fc.array(fc.constantFrom("", " ", "  ", "\n", "\r\n", "\t", " \n  "), { minLength: 1, maxLength: 12 });

describe("parseJsonSource: the data", () => {
  it("equals JSON.parse for any JSON text fast-check generates", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(parseOk(text).data).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it("equals JSON.parse for any value serialised with random whitespace", () => {
    fc.assert(
      fc.property(fc.jsonValue(), whitespace, (value, ws) => {
        const text = spaced(value, ws);
        expect(parseOk(text).data).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it("decodes any string, including escapes, lone surrogates and raw non-ASCII text", () => {
    const units = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((c) => String.fromCharCode(...c));
    fc.assert(
      fc.property(fc.oneof(units, fc.string({ unit: "binary" })), (s) => {
        const text = JSON.stringify([s, { [s]: s }]);
        expect(parseOk(text).data).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
    const escapes = String.raw`"\u00e9\n\t\"\\\/\b\f\r\ud83d\ude00\udc00\u0041"`;
    expect(parseOk(escapes).data).toBe(JSON.parse(escapes));
  });

  it("reads numbers exactly as JSON.parse does", () => {
    const numbers = ["0", "-0", "7", "-12", "123456789012345", "-999999999999999", "9007199254740993", "12345678901234567890",
      "0.1", "-1.5e3", "1E-7", "2e+2", "1e400", "-1e400", "5e-324", "0.30000000000000004"];
    for (const n of numbers) expect(Object.is(parseOk(n).data, JSON.parse(n)), n).toBe(true);
  });

  it("accepts exactly the texts JSON.parse accepts, under random one-character edits", () => {
    const alphabet = fc.constantFrom(..."{}[],:\"\\ 0129-+.eEtrufalsn\n\t\u0001x/'");
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom("insert", "delete", "replace"), alphabet, (json, at, op, ch) => {
        const i = at % (json.length + 1);
        const text = op === "insert" ? json.slice(0, i) + ch + json.slice(i)
          : op === "delete" ? json.slice(0, i) + json.slice(i + 1) : json.slice(0, i) + ch + json.slice(i + 1);
        const { doc, errors } = parseJsonSource("p.json", text);
        expect(doc !== undefined, text).toBe(jsonParses(text));
        expect(errors.length === 0).toBe(doc !== undefined);
        if (doc) expect(doc.data).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 1000 },
    );
  });

  it("skips a UTF-8 byte order mark but keeps offsets into the original text", () => {
    const doc = parseOk('\uFEFF{"a":1}');
    expect(doc.data).toEqual({ a: 1 });
    expect(doc.rangeOf([])).toEqual([1, 8]);
    expect(doc.rangeOf(["a"])).toEqual([6, 7]);
  });

  it("keeps a __proto__ key as an own property, as JSON.parse does", () => {
    const text = '{"__proto__": {"x": 1}, "y": 2}';
    const doc = parseOk(text);
    expect(Object.getPrototypeOf(doc.data)).toBe(Object.prototype);
    expect(Object.keys(doc.data as object)).toEqual(["__proto__", "y"]);
    expect(doc.data).toStrictEqual(JSON.parse(text));
    expect(text.slice(...doc.rangeOf(["__proto__", "x"]))).toBe("1");
    // ... and reports where it is: the compiler refuses such a key (PS147).
    expect(parseJsonSource("p.json", text).protoKeys).toEqual([{ start: 1, end: 12 }]);
  });

  it("exposes the file, the text and a line index", () => {
    const doc = parseOk("[1]");
    expect(doc.file).toBe("plan.plan.json");
    expect(doc.text).toBe("[1]");
    expect(doc.index).toBeInstanceOf(LineIndex);
    expect(doc.index).toBe(doc.index);
  });
});

describe("parseJsonSource: ranges", () => {
  it("maps every generated path to the source of its value and key", () => {
    fc.assert(
      fc.property(fc.jsonValue(), whitespace, (value, ws) => {
        const text = spaced(value, ws);
        const doc = parseOk(text);
        expect(JSON.parse(text.slice(...doc.rangeOf([])))).toStrictEqual(doc.data);
        for (const { path, value: v, key } of walk(doc.data)) {
          expect(JSON.parse(text.slice(...doc.rangeOf(path)))).toStrictEqual(v);
          const keyText = text.slice(...doc.rangeOf(path, "key"));
          expect(JSON.parse(keyText)).toStrictEqual(key ?? v);
        }
      }),
      { numRuns: 300 },
    );
  });

  const text = '{\n  "steps": {\n    "a": { "needs": ["x", "y"], "n": -1.5e2 },\n    "b\\u0020c": {}\n  },\n  "ok": true\n}\n';
  const slice = (doc: SourceDoc, path: DocPath, part?: "key" | "value"): string => text.slice(...doc.rangeOf(path, part));

  it("gives value and key ranges at several depths, strings with their quotes", () => {
    const doc = parseOk(text);
    expect(slice(doc, [])).toBe(text.trim());
    expect(slice(doc, ["steps", "a"])).toBe('{ "needs": ["x", "y"], "n": -1.5e2 }');
    expect(slice(doc, ["steps", "a"], "key")).toBe('"a"');
    expect(slice(doc, ["steps", "a", "needs", 1])).toBe('"y"');
    expect(slice(doc, ["steps", "a", "needs", 1], "key")).toBe('"y"');
    expect(slice(doc, ["steps", "a", "n"])).toBe("-1.5e2");
    expect(slice(doc, ["steps", "b c"], "key")).toBe('"b\\u0020c"');
    expect(slice(doc, ["ok"])).toBe("true");
  });

  it("keeps each document's ranges when many are parsed one after another (large, broken, small)", () => {
    const small = '{"a": [1, {"b": "c"}], "d": null}';
    const big = JSON.stringify({ steps: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`s${i}`, { n: i, x: [i, `${i}`] }])) });
    const first = parseOk(small);
    const before = [first.rangeOf(["a", 1, "b"]), first.rangeOf(["d"], "key")];
    const large = parseOk(big);
    expect(parseJsonSource("broken.json", '{"a": [1, 2').errors).not.toEqual([]);
    const again = parseOk(small);
    // The first document is read after the others were parsed: its positions are its own.
    expect([first.rangeOf(["a", 1, "b"]), first.rangeOf(["d"], "key")]).toEqual(before);
    expect(small.slice(...again.rangeOf(["a", 1, "b"]))).toBe('"c"');
    expect(big.slice(...large.rangeOf(["steps", "s4999", "x", 1]))).toBe('"4999"');
    expect(big.slice(...large.rangeOf(["steps", "s17"], "key"))).toBe('"s17"');
  });

  it("falls back to the deepest existing ancestor for a path that does not exist", () => {
    const doc = parseOk(text);
    const steps = doc.rangeOf(["steps"]);
    expect(doc.rangeOf(["steps", "zz"])).toEqual(steps);
    expect(doc.rangeOf(["steps", "zz", "deeper"], "key")).toEqual(steps);
    expect(slice(doc, ["steps", "a", "needs", 5])).toBe('["x", "y"]');
    expect(slice(doc, ["steps", "a", "needs", -1])).toBe('["x", "y"]');
    expect(slice(doc, ["steps", "a", "needs", "01"])).toBe('["x", "y"]');
    expect(slice(doc, ["steps", "a", "needs", "0"])).toBe('"x"');
    expect(slice(doc, ["ok", "not", "here"])).toBe("true");
    expect(slice(doc, ["missing"])).toBe(text.trim());
  });

  it("gives offsets that the line index turns into line and column", () => {
    const doc = parseOk(text);
    expect(doc.index.position(doc.rangeOf(["steps", "a", "needs", 1])[0])).toEqual({ line: 3, col: 27 });
    expect(doc.index.position(doc.rangeOf(["steps", "a"], "key")[0])).toEqual({ line: 3, col: 5 });
    expect(doc.index.position(doc.rangeOf(["ok"])[1])).toEqual({ line: 6, col: 13 });
  });
});

describe("parseJsonSource: duplicate keys", () => {
  it("keeps the last value, in the first key's place, and reports every repeat at its key", () => {
    const text = '{"a": 1, "b": {"x": 1, "x": 2, "x": 3}, "a": 4, "c": [{"k": 0, "k": 5}], "\\u0061": 6}';
    const { doc, errors, duplicateKeys } = parseJsonSource("p.json", text);
    expect(errors).toEqual([]);
    expect(doc!.data).toStrictEqual(JSON.parse(text));
    expect(Object.keys(doc!.data as object)).toEqual(["a", "b", "c"]);
    // The range of the key in the member `member` (which is unique in the text).
    const keyOf = (member: string): [number, number] => {
      const start = text.indexOf(member);
      return [start, start + member.indexOf(":")];
    };
    const x2 = keyOf('"x": 2');
    const x3 = keyOf('"x": 3');
    const a2 = keyOf('"a": 4');
    const k2 = keyOf('"k": 5');
    const a3 = keyOf('"\\u0061": 6');
    expect(duplicateKeys).toEqual([
      { key: "x", path: ["b", "x"], start: x2[0], end: x2[1] },
      { key: "x", path: ["b", "x"], start: x3[0], end: x3[1] },
      { key: "a", path: ["a"], start: a2[0], end: a2[1] },
      { key: "k", path: ["c", 0, "k"], start: k2[0], end: k2[1] },
      { key: "a", path: ["a"], start: a3[0], end: a3[1] },
    ]);
    // The ranges point at the occurrence whose value is in `data`: the last one.
    expect(doc!.rangeOf(["b", "x"], "key")).toEqual(x3);
    expect(text.slice(...doc!.rangeOf(["a"]))).toBe("6");
  });

  it("reports a repeat whose key holds escapes, and ranges around escaped quotes", () => {
    const text = '{"q\\"x": {"s": "a\\\\"}, "q\\"x": ["\\"", 2]}';
    const { doc, duplicateKeys } = parseJsonSource("p.json", text);
    expect(doc!.data).toStrictEqual(JSON.parse(text));
    expect(duplicateKeys.map((d) => d.key)).toEqual(['q"x']);
    expect(text.slice(...doc!.rangeOf(['q"x', 0]))).toBe('"\\""');
    const once = '{"q\\"x": {"s": "a\\\\"}, "t": ["\\"", 2]}';
    const single = parseJsonSource("p.json", once);
    expect(single.duplicateKeys).toEqual([]);
    expect(once.slice(...single.doc!.rangeOf(['q"x', "s"]))).toBe('"a\\\\"');
    expect(once.slice(...single.doc!.rangeOf(["t", 1]))).toBe("2");
  });

  it("reports nothing for a document without repeats", () => {
    expect(parseJsonSource("p.json", '{"a": {"a": 1}, "b": [{"a": 2}]}').duplicateKeys).toEqual([]);
  });
});

describe("parseJsonSource: syntax errors", () => {
  // [text, message, start, end]: the range is the offending character or token.
  const cases: Array<[string, string, number, number]> = [
    ["", "empty document: expected a JSON value", 0, 0],
    [" \n\t", "empty document: expected a JSON value", 0, 0],
    ["\uFEFF", "empty document: expected a JSON value", 0, 0],
    ['{"a": "b', "unterminated string", 6, 8],
    ['{"a": "b\n"}', "unterminated string", 6, 8],
    ['["ab\\', "unterminated string", 1, 5],
    ['["\\u12', "unterminated string", 1, 6],
    ['["a\\x"]', 'invalid escape "\\\\x"', 3, 5],
    ['["\\u12G4"]', 'invalid unicode escape "\\\\u12G": expected 4 hex digits', 2, 7],
    ['["a\tb"]', "control character U+0009 in a string must be escaped", 3, 4],
    ['["a\u0000"]', "control character U+0000 in a string must be escaped", 3, 4],
    ["[1,]", 'trailing comma before "]"', 2, 3],
    ['{"a": 1, }', 'trailing comma before "}"', 7, 8],
    ['{"a" 1}', 'unexpected "1": expected ":" after key "a"', 5, 6],
    ['{"a"}', 'unexpected "}": expected ":" after key "a"', 4, 5],
    ['{"a": 01}', "numbers cannot have leading zeros", 6, 8],
    ["-007", "numbers cannot have leading zeros", 0, 4],
    ["[-]", 'unexpected "]": expected a digit after "-"', 2, 3],
    ["[1.]", 'unexpected "]": expected a digit after "."', 3, 4],
    ["[1e+]", 'unexpected "]": expected a digit in the exponent', 4, 5],
    ["[.5]", 'unexpected ".": expected a value', 1, 2],
    ["[+1]", 'unexpected "+": expected a value', 1, 2],
    ["{} x", 'unexpected "x": expected the end of the document', 3, 4],
    ['{"a": 1}}', 'unexpected "}": expected the end of the document', 8, 9],
    ["[1] [2]", 'unexpected "[": expected the end of the document', 4, 5],
    ["[1 2]", 'unexpected "2": expected "," or "]"', 3, 4],
    ['{"a": 1 "b": 2}', 'unexpected "\\"": expected "," or "}"', 8, 9],
    ["{a: 1}", 'unexpected "a": expected a double-quoted key or "}"', 1, 2],
    ['{"a": 1, b_2: 1}', 'unexpected "b_2": expected a double-quoted key', 9, 12],
    ["{'a': 1}", "unexpected \"'\": expected a double-quoted key or \"}\"", 1, 2],
    ['{"a": tru}', 'unexpected "tru": expected a value', 6, 9],
    ["[nullx]", 'unexpected "nullx": expected a value', 1, 6],
    ["[NaN]", 'unexpected "NaN": expected a value', 1, 4],
    ["[\u{1F600}]", 'unexpected "\u{1F600}": expected a value', 1, 3],
    ["// note\n{}", "comments are not allowed in JSON", 0, 2],
    ['{"a": 1 /* x */}', "comments are not allowed in JSON", 8, 10],
    ['{"a":', "unexpected end of input: expected a value", 5, 5],
    ["[1,", "unexpected end of input: expected a value", 3, 3],
    ['{"a": 1,', "unexpected end of input: expected a double-quoted key", 8, 8],
    ["[1", 'unexpected end of input: expected "," or "]"', 2, 2],
  ];

  it.each(cases)("%j: %s at [%i, %i)", (text, message, start, end) => {
    const result = parseJsonSource("p.json", text);
    expect(result.doc).toBeUndefined();
    expect(result.errors).toEqual([{ message, start, end }]);
    expect(result.duplicateKeys).toEqual([]);
    if (!text.startsWith("\uFEFF")) expect(jsonParses(text)).toBe(false);
  });

  it("stops at the first error", () => {
    expect(parseJsonSource("p.json", "[01, 1.]").errors).toHaveLength(1);
  });

  it("locates an error by line and column", () => {
    const text = '{\n  "a": 1,\n}\n';
    const { errors } = parseJsonSource("p.json", text);
    expect(new LineIndex(text).position(errors[0]!.start)).toEqual({ line: 2, col: 9 });
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and reports one more at its bracket`, () => {
    const deep = (n: number): string => "[".repeat(n) + "]".repeat(n);
    expect(parseOk(deep(MAX_JSON_DEPTH)).data).toStrictEqual(JSON.parse(deep(MAX_JSON_DEPTH)));
    const tooDeep = `{"a": ${deep(MAX_JSON_DEPTH)}}`;
    expect(parseJsonSource("p.json", tooDeep).errors).toEqual([
      { message: `nesting deeper than ${MAX_JSON_DEPTH} levels`, start: 6 + MAX_JSON_DEPTH - 1, end: 6 + MAX_JSON_DEPTH },
    ]);
  });
});
