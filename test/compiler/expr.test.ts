import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { type Expr, FUNCTIONS, parseExpression, references, scanTemplate } from "../../src/compiler/expr/index.js";
import { parseWellFormed } from "../../src/compiler/expr/hand-parser.js";
import { parseWithGrammar } from "../../src/compiler/expr/parser.js";

/** Parses and fails the test on any error. */
function ok(src: string, base = 0): Expr {
  const { ast, errors } = parseExpression(src, base);
  expect(errors).toEqual([]);
  expect(ast).toBeDefined();
  return ast!;
}

/** The AST without offsets, for structure-only assertions. */
function shape(e: Expr): unknown {
  return JSON.parse(JSON.stringify(e, (k, v: unknown) => (k === "start" || k === "end" ? undefined : v)));
}

function firstError(src: string, base = 0) {
  const { ast, errors } = parseExpression(src, base);
  expect(errors.length).toBeGreaterThan(0);
  return { ast, error: errors[0]! };
}

describe("parseExpression: literals", () => {
  it("parses numbers, strings with escapes, booleans and null with offsets", () => {
    expect(ok("42")).toEqual({ type: "literal", value: 42, start: 0, end: 2 });
    expect(ok("3.25")).toEqual({ type: "literal", value: 3.25, start: 0, end: 4 });
    expect(ok("1e3")).toMatchObject({ value: 1000 });
    expect(ok("'it\\'s'")).toEqual({ type: "literal", value: "it's", start: 0, end: 7 });
    expect(ok('"a\\n\\tb\\u0041"')).toMatchObject({ value: "a\n\tbA" });
    expect(ok("  true ")).toEqual({ type: "literal", value: true, start: 2, end: 6 });
    expect(ok("false")).toMatchObject({ value: false });
    expect(ok("null")).toMatchObject({ value: null });
  });

  it("parses list literals, empty and nested", () => {
    expect(ok("[1, 'a', [true]]")).toEqual({
      type: "list",
      start: 0,
      end: 16,
      items: [
        { type: "literal", value: 1, start: 1, end: 2 },
        { type: "literal", value: "a", start: 4, end: 7 },
        { type: "list", start: 9, end: 15, items: [{ type: "literal", value: true, start: 10, end: 14 }] },
      ],
    });
    expect(ok("[]")).toEqual({ type: "list", items: [], start: 0, end: 2 });
  });
});

describe("parseExpression: references, access and calls", () => {
  it("parses member and index chains with offsets covering the chain", () => {
    const e = ok("steps.read_csv.output['rows'][0]");
    expect(e).toMatchObject({ type: "index", start: 0, end: 32, index: { type: "literal", value: 0, start: 30, end: 31 } });
    expect(shape(e)).toEqual({
      type: "index",
      index: { type: "literal", value: 0 },
      object: {
        type: "index",
        index: { type: "literal", value: "rows" },
        object: {
          type: "member",
          property: "output",
          object: { type: "member", property: "read_csv", object: { type: "ident", name: "steps" } },
        },
      },
    });
  });

  it("keeps hyphens in names after a dot but reads them as minus elsewhere", () => {
    expect(shape(ok("steps.read-csv.output"))).toEqual({
      type: "member",
      property: "output",
      object: { type: "member", property: "read-csv", object: { type: "ident", name: "steps" } },
    });
    expect(shape(ok("x-1"))).toEqual({
      type: "binary",
      op: "-",
      left: { type: "ident", name: "x" },
      right: { type: "literal", value: 1 },
    });
  });

  it("accepts keywords as property names", () => {
    expect(ok("output.null")).toMatchObject({ type: "member", property: "null" });
  });

  it("parses calls with their arguments", () => {
    expect(ok("join(inputs.tags, '-')")).toMatchObject({
      type: "call",
      callee: "join",
      start: 0,
      end: 22,
      args: [{ type: "member", start: 5, end: 16 }, { type: "literal", value: "-", start: 18, end: 21 }],
    });
    expect(ok("len([])")).toMatchObject({ type: "call", callee: "len", args: [{ type: "list" }] });
  });

  it("adds base to every offset", () => {
    expect(ok("a.b", 100)).toEqual({
      type: "member",
      property: "b",
      start: 100,
      end: 103,
      object: { type: "ident", name: "a", start: 100, end: 101 },
    });
  });

  it("includes parentheses in the node's range", () => {
    expect(ok("(a).b")).toMatchObject({ start: 0, end: 5, object: { type: "ident", start: 0, end: 3 } });
  });
});

describe("parseExpression: operators", () => {
  const op = (src: string) => shape(ok(src));
  const id = (name: string) => ({ type: "ident", name });
  const bin = (o: string, left: unknown, right: unknown) => ({ type: "binary", op: o, left, right });

  it("binds * / % tighter than + - tighter than comparisons tighter than equality", () => {
    expect(op("a + b * c")).toEqual(bin("+", id("a"), bin("*", id("b"), id("c"))));
    expect(op("a - b % c / d")).toEqual(bin("-", id("a"), bin("/", bin("%", id("b"), id("c")), id("d"))));
    expect(op("a + b < c")).toEqual(bin("<", bin("+", id("a"), id("b")), id("c")));
    expect(op("a < b == c >= d")).toEqual(bin("==", bin("<", id("a"), id("b")), bin(">=", id("c"), id("d"))));
    expect(op("a != b <= c")).toEqual(bin("!=", id("a"), bin("<=", id("b"), id("c"))));
    expect(op("a > b")).toEqual(bin(">", id("a"), id("b")));
  });

  it("binds && tighter than ||, and both looser than equality", () => {
    expect(op("a || b && c == d")).toEqual(bin("||", id("a"), bin("&&", id("b"), bin("==", id("c"), id("d")))));
  });

  it("is left-associative", () => {
    expect(op("a - b - c")).toEqual(bin("-", bin("-", id("a"), id("b")), id("c")));
    expect(op("a || b || c")).toEqual(bin("||", bin("||", id("a"), id("b")), id("c")));
  });

  it("applies unary operators above binary ones and below postfix access", () => {
    expect(op("!a.b && -c")).toEqual(
      bin("&&", { type: "unary", op: "!", operand: { type: "member", property: "b", object: id("a") } }, { type: "unary", op: "-", operand: id("c") }),
    );
    expect(ok("- -x")).toMatchObject({ type: "unary", start: 0, end: 4, operand: { type: "unary", start: 2, end: 4 } });
  });

  it("lets parentheses override precedence", () => {
    expect(op("(a + b) * c")).toEqual(bin("*", bin("+", id("a"), id("b")), id("c")));
  });
});

describe("parseExpression: errors", () => {
  it("points at the offending token with a human message", () => {
    const { ast, error } = firstError("a + }");
    expect(ast).toBeUndefined();
    expect(error).toEqual({ kind: "syntax", message: 'unexpected "}" : expected an operand', start: 4, end: 5 });
  });

  it("adds base to error offsets", () => {
    expect(firstError("output.rows >", 40).error).toMatchObject({
      kind: "syntax",
      message: "unexpected end of expression : expected an operand",
      start: 53,
      end: 53,
    });
    expect(firstError("a b", 10).error).toMatchObject({ message: 'unexpected "b" : expected an operator or the end of the expression', start: 12, end: 13 });
  });

  it("says what was expected inside brackets, lists and calls", () => {
    expect(firstError("(a b").error.message).toBe('unexpected "b" : expected an operator or ")"');
    expect(firstError("a[1 2]").error).toMatchObject({ message: 'unexpected "2" : expected an operator or "]"', start: 4 });
    expect(firstError("[1 2]").error.message).toBe('unexpected "2" : expected an operator, "," or "]"');
    expect(firstError("len(").error.message).toBe('unexpected end of expression : expected an argument or ")"');
    expect(firstError("len(a b)").error.message).toBe('unexpected "b" : expected an operator, "," or ")"');
    expect(firstError("a.").error.message).toBe('unexpected end of expression : expected a property name after "."');
  });

  it("hints at the operator a user probably meant", () => {
    expect(firstError("a = b").error).toMatchObject({ start: 2, end: 3, hint: 'use "==" to compare' });
    expect(firstError("a and b").error).toMatchObject({ start: 2, end: 5, hint: 'use "&&" for "and"' });
  });

  it("reports unterminated strings, bad escapes, stray characters and empty input", () => {
    expect(firstError("x == 'abc", 5).error).toMatchObject({ message: "unterminated string", start: 10, end: 11 });
    expect(firstError("'a\\qb'", 5).error).toMatchObject({ message: 'invalid escape sequence "\\q" in string', start: 7, end: 9 });
    expect(firstError("a @ b").error).toMatchObject({ message: 'unexpected "@" : expected an operator or the end of the expression', start: 2, end: 3 });
    expect(firstError("a + é").error).toMatchObject({ message: 'unexpected character "é"', start: 4, end: 5 });
    expect(firstError("   ", 7).error).toMatchObject({ message: "empty expression", start: 7, end: 10 });
  });

  it("reports unknown functions with a did-you-mean hint and still returns the tree", () => {
    const { ast, errors } = parseExpression("1 + length(x)", 3);
    expect(ast).toMatchObject({ type: "binary" });
    expect(errors).toEqual([{ kind: "unknown-function", message: 'unknown function "length"', start: 7, end: 13, hint: 'did you mean "len"?' }]);
    expect(parseExpression("startswith(a, 'b')").errors[0]?.hint).toBe('did you mean "startsWith"?');
    expect(parseExpression("lenn(a)").errors[0]?.hint).toBe('did you mean "len"?');
    expect(parseExpression("includes(a, 1)").errors[0]?.hint).toBe('did you mean "contains"?');
    expect(parseExpression("frobnicate(a)").errors[0]?.hint).toMatch(/^functions are len, exists/);
  });

  it("checks arity against the function table", () => {
    expect(parseExpression("len(a, b)", 2).errors).toEqual([
      { kind: "arity", message: "len() takes 1 argument, got 2", start: 2, end: 11, hint: FUNCTIONS.len!.doc },
    ]);
    expect(parseExpression("join()").errors[0]).toMatchObject({ kind: "arity", message: "join() takes 1 to 2 arguments, got 0" });
    expect(parseExpression("contains(a)").errors[0]?.message).toBe("contains() takes 2 arguments, got 1");
    expect(parseExpression("join(a, ',')").errors).toEqual([]);
  });

  it("lists exactly the documented functions", () => {
    expect(Object.keys(FUNCTIONS).sort()).toEqual(
      ["contains", "endsWith", "exists", "fromJSON", "join", "keys", "len", "lower", "startsWith", "toJSON", "upper"].sort(),
    );
  });
});

describe("scanTemplate", () => {
  it("returns a plain string as one text part", () => {
    expect(scanTemplate("hello")).toEqual({ parts: [{ kind: "text", text: "hello" }] });
    expect(scanTemplate("")).toEqual({ parts: [] });
  });

  it("splits text and expressions, with the inner source and its offsets into the string", () => {
    const s = "${{ run.id }}:send:${{inputs.recipient}}!";
    const { parts, unterminated } = scanTemplate(s);
    expect(unterminated).toBeUndefined();
    expect(parts).toEqual([
      { kind: "expr", src: " run.id ", start: 3, end: 11 },
      { kind: "text", text: ":send:" },
      { kind: "expr", src: "inputs.recipient", start: 22, end: 38 },
      { kind: "text", text: "!" },
    ]);
    for (const p of parts) if (p.kind === "expr") expect(s.slice(p.start, p.end)).toBe(p.src);
  });

  it("gives offsets that let the parser point into the original string", () => {
    const s = "id: ${{ inputs.x + }}";
    const part = scanTemplate(s).parts[1]!;
    if (part.kind !== "expr") throw new Error("expected an expression part");
    const error = parseExpression(part.src, part.start).errors[0]!;
    expect(error.start).toBe(s.length - 2);
    expect(s.slice(error.start - 2, error.start)).toBe("+ ");
  });

  it("keeps text before a whole-string expression and handles adjacent expressions", () => {
    expect(scanTemplate("a ${{ x }}${{ y }}").parts).toEqual([
      { kind: "text", text: "a " },
      { kind: "expr", src: " x ", start: 5, end: 8 },
      { kind: "expr", src: " y ", start: 13, end: 16 },
    ]);
  });

  it("reports an unterminated ${{ from its start to the end", () => {
    expect(scanTemplate("path/${{ inputs.x")).toEqual({
      parts: [{ kind: "text", text: "path/${{ inputs.x" }],
      unterminated: { start: 5, end: 17 },
    });
    expect(scanTemplate("${{ a }} and ${{ b").unterminated).toEqual({ start: 13, end: 18 });
  });

  it("does not end an expression at }} inside a string literal", () => {
    expect(scanTemplate("${{ x == '}}' }}").parts).toEqual([{ kind: "expr", src: " x == '}}' ", start: 3, end: 14 }]);
  });

  it("lets the parser report an unclosed quote instead of an unterminated ${{", () => {
    const { parts, unterminated } = scanTemplate("${{ 'abc }}");
    expect(unterminated).toBeUndefined();
    const part = parts[0]!;
    expect(part).toMatchObject({ kind: "expr", src: " 'abc ", start: 3 });
    if (part.kind !== "expr") throw new Error("expected an expression part");
    expect(parseExpression(part.src, part.start).errors[0]).toMatchObject({ message: "unterminated string", start: 4 });
  });

  it("yields an empty source for ${{ }}, which the parser rejects", () => {
    expect(scanTemplate("${{  }}").parts).toEqual([{ kind: "expr", src: "  ", start: 3, end: 5 }]);
    expect(parseExpression("  ", 3).errors[0]).toMatchObject({ message: "empty expression", start: 3, end: 5 });
  });
});

describe("references", () => {
  const refs = (src: string) => references(ok(src));

  it("returns each maximal static chain with its range", () => {
    expect(refs("steps.read_csv.output.rows > 0")).toEqual([
      { root: "steps", path: ["read_csv", "output", "rows"], start: 0, end: 26 },
    ]);
  });

  it("turns literal indexes into segments and stops at a dynamic index", () => {
    expect(refs("steps['b-c'].output[0].x")).toEqual([{ root: "steps", path: ["b-c", "output", 0, "x"], start: 0, end: 24 }]);
    expect(refs("steps.a.output[inputs.i].x")).toEqual([
      { root: "steps", path: ["a", "output"], start: 0, end: 14 },
      { root: "inputs", path: ["i"], start: 15, end: 23 },
    ]);
  });

  it("finds bare names and references inside calls, lists and operators, in source order", () => {
    expect(refs("len(item) + [run.id, !output.ok][0]")).toEqual([
      { root: "item", path: [], start: 4, end: 8 },
      { root: "run", path: ["id"], start: 13, end: 19 },
      { root: "output", path: ["ok"], start: 22, end: 31 },
    ]);
  });

  it("ignores literals and access on call results", () => {
    expect(refs("fromJSON('{}').a == null")).toEqual([]);
    expect(refs("fromJSON(inputs.raw).a")).toEqual([{ root: "inputs", path: ["raw"], start: 9, end: 19 }]);
  });
});

describe("parseExpression: the hand-written reader for well-formed expressions", () => {
  it("reads reference chains, with offsets, as the grammar does", () => {
    const src = "  steps.read-csv.output.rows ";
    const fast = parseWellFormed(src, 10);
    expect(fast).toEqual({
      type: "member",
      object: {
        type: "member",
        object: { type: "member", object: { type: "ident", name: "steps", start: 12, end: 17 }, property: "read-csv", start: 12, end: 26 },
        property: "output",
        start: 12,
        end: 33,
      },
      property: "rows",
      start: 12,
      end: 38,
    });
    expect(parseWithGrammar(src, 10)).toEqual({ ast: fast, errors: [] });
    expect(parseWellFormed("inputs")).toEqual({ type: "ident", name: "inputs", start: 0, end: 6 });
  });

  it("reads operators, calls, lists, indexes, strings and parentheses as the grammar does", () => {
    const cases = [
      "len(output.records) > 0",
      "exists(output.count) && output.count >= 0",
      "a || b && !c == -d < e + f * g % h / i - j",
      "(a).b[0]['x y'].c-d",
      "[1, 2.5e-3, 'it\\'s', \"\\u0041\", true, false, null][inputs.i]",
      "join([], ',') != ''",
      "\u00a0a\u2028.b",
      "1.x",
      "!!-(-1)",
    ];
    for (const src of cases) {
      const fast = parseWellFormed(src, 7);
      expect(fast, src).toBeDefined();
      expect(parseWithGrammar(src, 7), src).toEqual({ ast: fast, errors: [] });
    }
  });

  it("gives every expression with an error, or deep nesting, to the grammar", () => {
    const errors = ["a-b.", "len(a", "a[0", "a.0", "a..b", "", " ", "a.b c", "a = b", "a & b", "'s", "'\\q'", "lenn(a)", "len(a, b)", "f()", "[1,]", "a ? b : c", "{a}", "'a\nb'", "'a\\\nb'", "'a\\"];
    for (const src of errors) expect(parseWellFormed(src), JSON.stringify(src)).toBeUndefined();
    const deep = "(".repeat(300) + "a" + ")".repeat(300);
    expect(parseWellFormed(deep)).toBeUndefined();
    expect(parseWellFormed("(".repeat(50) + "a" + ")".repeat(50))).toEqual({ type: "ident", name: "a", start: 0, end: 101 });
  });

  const piece = fc.constantFrom(
    "steps", "inputs", "a", "_x", "true", "null", "read-csv", "len", "exists", "join", ".", "-", "!", "0", "1.5", "2e3", "1x", " ", "\t", "\n",
    "\u00a0", "\u2028", "(", ")", "[", "]", ",", "'s'", '"t"', "'\\n'", "'\\q'", "'", "+", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||",
    "=", "&", "|", "{", "?", "output",
  );

  it("agrees with the grammar on generated token soup (fast result = grammar result, else the grammar's answer)", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.nat(50), (pieces, base) => {
        const src = pieces.join("");
        const fast = parseWellFormed(src, base);
        const grammar = parseWithGrammar(src, base);
        // Whenever the grammar accepts without any error, the fast reader must accept too, and agree.
        if (grammar.ast && grammar.errors.length === 0 && src.length < 200) expect(fast, JSON.stringify(src)).toEqual(grammar.ast);
        if (fast) expect(grammar, JSON.stringify(src)).toEqual({ ast: fast, errors: [] });
        expect(parseExpression(src, base)).toEqual(fast ? { ast: fast, errors: [] } : grammar);
      }),
      { numRuns: 5000 },
    );
  });

  // Well-formed expressions built from the grammar, printed with random spacing and parentheses.
  const space = fc.constantFrom("", " ", "  ", "\n");
  const exprArb: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
    e: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom("steps.a.output", "inputs.x", "item", "output.rows", "1", "2.5", "'q'", '"d\\"q"', "true", "null", "run.id"),
      fc.tuple(tie("e"), fc.constantFrom(...Object.keys({ "||": 1, "&&": 1, "==": 1, "!=": 1, "<": 1, "<=": 1, ">": 1, ">=": 1, "+": 1, "-": 1, "*": 1, "/": 1, "%": 1 })), tie("e"), space, space).map(
        // `a.b-c` is the name `b-c` after a dot, so a minus there needs a space before it.
        ([l, op, r, s1, s2]) => `${l}${op === "-" && !s1 ? " " : s1}${op}${s2}${r}`,
      ),
      fc.tuple(fc.constantFrom("!", "-"), tie("e")).map(([op, e]) => `${op}${e}`),
      fc.tuple(tie("e"), space).map(([e, s]) => `(${s}${e}${s})`),
      fc.tuple(tie("e"), fc.constantFrom("b", "read-csv", "c_1")).map(([e, p]) => `(${e}).${p}`),
      fc.tuple(tie("e"), tie("e")).map(([e, i]) => `(${e})[${i}]`),
      fc.array(tie("e"), { maxLength: 3 }).map((xs) => `[${xs.join(", ")}]`),
      fc.tuple(fc.constantFrom("len", "exists", "lower"), tie("e")).map(([f, a]) => `${f}(${a})`),
      fc.tuple(tie("e"), tie("e")).map(([a, b]) => `contains(${a},${b})`),
    ),
  })).e;

  it("reads every generated well-formed expression itself, building the grammar's AST", () => {
    fc.assert(
      fc.property(exprArb, fc.nat(100), (src, base) => {
        const grammar = parseWithGrammar(src, base);
        expect(grammar.errors, src).toEqual([]);
        expect(parseWellFormed(src, base), src).toEqual(grammar.ast);
      }),
      { numRuns: 3000 },
    );
  });
});
