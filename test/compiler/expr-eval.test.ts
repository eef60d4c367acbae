import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type EvalEnv,
  type Expr,
  ExprEvalError,
  evaluate,
  evaluateSource,
  evaluateValue,
  parseExpression,
  truthy,
} from "../../src/compiler/expr/index.js";

const env: EvalEnv = {
  inputs: { n: 3, name: "Ada", tags: ["a", "b"], csv_path: "/tmp/x.csv" },
  steps: {
    read_csv: { output: { rows: 12, header: ["id", "amount"], meta: { ok: true } }, status: "done" },
    "read-json": { output: '{"a":[1,2]}', status: "done" },
    skipped: { status: "skipped" },
  },
  output: { rows: 0, bad_rows: [], items: [{ id: 1 }, { id: 2 }] },
  run: { id: "run-42" },
  item: { name: "x" },
};

const ev = (src: string, e: EvalEnv = env) => evaluateSource(src, e);

function evalError(src: string, e: EvalEnv = env): ExprEvalError {
  try {
    evaluateSource(src, e);
  } catch (err) {
    expect(err).toBeInstanceOf(ExprEvalError);
    return err as ExprEvalError;
  }
  throw new Error(`expected ${src} to fail`);
}

describe("evaluate: references", () => {
  it("reads inputs, step outputs and status, output, run and item", () => {
    expect(ev("inputs.n")).toBe(3);
    expect(ev("steps.read_csv.output.rows")).toBe(12);
    expect(ev("steps.read_csv.output.header[1]")).toBe("amount");
    expect(ev("steps.read_csv.output['meta'].ok")).toBe(true);
    expect(ev("steps.read-json.status")).toBe("done");
    expect(ev("output.items[1].id")).toBe(2);
    expect(ev("run.id")).toBe("run-42");
    expect(ev("item.name")).toBe("x");
  });

  it("yields null for anything missing instead of throwing", () => {
    expect(ev("output.nope.deeper")).toBeNull();
    expect(ev("steps.skipped.output")).toBeNull();
    expect(ev("steps.unknown.output.x")).toBeNull();
    expect(ev("output.items[5]")).toBeNull();
    expect(ev("output.items[-1]")).toBeNull();
    expect(ev("output.items['0']")).toBeNull();
    expect(ev("inputs.name.length")).toBeNull();
    expect(ev("output.constructor")).toBeNull();
    expect(ev("item", {})).toBeNull();
  });

  it("rejects names that are not roots", () => {
    expect(evalError("foo.bar")).toMatchObject({ message: 'unknown name "foo"', start: 0, end: 3 });
  });
});

describe("evaluate: operators", () => {
  it("does arithmetic with precedence and unary minus", () => {
    expect(ev("1 + 2 * 3 - 4 / 2")).toBe(5);
    expect(ev("7 % 4")).toBe(3);
    expect(ev("-(inputs.n) + 1")).toBe(-2);
    expect(ev("0.5 + 0.25")).toBe(0.75);
  });

  it("concatenates when either side of + is a string", () => {
    expect(ev("'n=' + inputs.n")).toBe("n=3");
    expect(ev("inputs.tags + '!'")).toBe('["a","b"]!');
    expect(ev("'x' + null")).toBe("xnull");
  });

  it("throws on arithmetic with non-numbers, division by zero and overflow, pointing at the operator node", () => {
    expect(evalError("inputs.name - 1")).toMatchObject({ message: '"-" needs numbers, got string', start: 0, end: 15 });
    expect(evalError("1 + null").message).toBe('"+" needs numbers, got null');
    expect(evalError("-'a'").message).toBe('"-" needs numbers, got string');
    expect(evalError("1 / 0").message).toBe("division by zero");
    expect(evalError("1 % 0").message).toBe("division by zero");
    expect(evalError("1e308 * 10").message).toMatch(/too large/);
  });

  it("compares numbers and strings, and throws on mixed types", () => {
    expect(ev("steps.read_csv.output.rows > 10")).toBe(true);
    expect(ev("2 <= 2 && 3 >= 4 == false")).toBe(true);
    expect(ev("'apple' < 'banana'")).toBe(true);
    expect(evalError("output.missing > 0").message).toBe('">" compares two numbers or two strings, got null and number');
    expect(evalError("'1' < 2").message).toBe('"<" compares two numbers or two strings, got string and number');
  });

  it("uses deep equality for == and !=", () => {
    expect(ev("inputs.tags == ['a', 'b']")).toBe(true);
    expect(ev("steps.read_csv.output.meta == fromJSON('{\"ok\":true}')")).toBe(true);
    expect(ev("1 == 1.0")).toBe(true);
    expect(ev("1 == '1'")).toBe(false);
    expect(ev("output.missing == null")).toBe(true);
    expect(ev("[1, [2]] != [1, [3]]")).toBe(true);
  });

  it("short-circuits && and || and returns booleans", () => {
    expect(ev("false && 1 / 0")).toBe(false);
    expect(ev("true || 1 / 0")).toBe(true);
    expect(ev("'a' && 1")).toBe(true);
    expect(ev("0 || ''")).toBe(false);
    expect(ev("!output.rows")).toBe(true);
  });
});

describe("evaluate: functions", () => {
  it("len counts characters, items and keys, and treats null as empty", () => {
    expect(ev("len('héllo')")).toBe(5);
    expect(ev("len(inputs.tags)")).toBe(2);
    expect(ev("len(steps.read_csv.output)")).toBe(3);
    expect(ev("len(output.missing)")).toBe(0);
    expect(evalError("len(3)").message).toBe("len() needs a string, list or object, got number");
  });

  it("exists is false only for null and missing values", () => {
    expect(ev("exists(output.bad_rows)")).toBe(true);
    expect(ev("exists(output.rows)")).toBe(true);
    expect(ev("exists(output.nope)")).toBe(false);
  });

  it("contains searches lists by deep equality and strings by substring", () => {
    expect(ev("contains(inputs.tags, 'b')")).toBe(true);
    expect(ev("contains(output.items, fromJSON('{\"id\":2}'))")).toBe(true);
    expect(ev("contains(inputs.csv_path, '.csv')")).toBe(true);
    expect(ev("contains(output.missing, 1)")).toBe(false);
    expect(evalError("contains(1, 1)").message).toBe("contains() needs a list or a string, got number");
  });

  it("startsWith, endsWith, lower and upper work on strings", () => {
    expect(ev("startsWith(inputs.csv_path, '/tmp')")).toBe(true);
    expect(ev("endsWith(inputs.csv_path, '.json')")).toBe(false);
    expect(ev("startsWith(output.missing, 'x')")).toBe(false);
    expect(ev("lower(inputs.name) + upper('b')")).toBe("adaB");
    expect(evalError("upper(1)")).toMatchObject({ message: "upper() needs a string, got number", start: 0, end: 8 });
  });

  it("join, keys, toJSON and fromJSON", () => {
    expect(ev("join(inputs.tags)")).toBe("a,b");
    expect(ev("join([1, 'x', null], ' | ')")).toBe("1 | x | null");
    expect(ev("keys(steps.read_csv.output)")).toEqual(["rows", "header", "meta"]);
    expect(ev("keys(output.missing)")).toEqual([]);
    expect(ev("toJSON(output.items[0])")).toBe('{"id":1}');
    expect(ev("fromJSON(steps.read-json.output).a[1]")).toBe(2);
    expect(evalError("fromJSON('{oops')").message).toMatch(/^fromJSON\(\): invalid JSON/);
    expect(evalError("keys([1])").message).toBe("keys() needs an object, got list");
    expect(evalError("join('a')").message).toBe("join() needs a list, got string");
  });
});

describe("evaluateSource and evaluateValue", () => {
  it("throws parse errors as ExprEvalError with offsets", () => {
    expect(evalError("a +")).toMatchObject({ message: "unexpected end of expression : expected an operand", start: 3 });
    expect(evalError("nope(1)").message).toBe('unknown function "nope"');
  });

  it("returns the same result when the source is evaluated again", () => {
    expect(ev("inputs.n * 2")).toBe(6);
    expect(ev("inputs.n * 2", { inputs: { n: 5 } })).toBe(10);
  });

  it("evaluates expressions, templates and containers recursively", () => {
    expect(
      evaluateValue(
        {
          path: { $expr: "inputs.csv_path" },
          key: { $template: [{ $expr: "run.id" }, ":send:", { $expr: "inputs.n" }, { $expr: "inputs.tags" }] },
          list: [1, { $expr: "output.rows + 1" }, "plain ${{ not parsed }}"],
          nested: { ok: true, n: null },
        },
        env,
      ),
    ).toEqual({
      path: "/tmp/x.csv",
      key: 'run-42:send:3["a","b"]',
      list: [1, 1, "plain ${{ not parsed }}"],
      nested: { ok: true, n: null },
    });
    expect(evaluateValue({ $expr: "inputs.tags" }, env)).toEqual(["a", "b"]);
  });
});

describe("truthy", () => {
  it("is false for false, null, 0, NaN and the empty string only", () => {
    for (const v of [false, null, undefined, 0, -0, NaN, ""]) expect(truthy(v)).toBe(false);
    for (const v of [true, 1, -1, "0", "false", [], {}]) expect(truthy(v)).toBe(true);
  });
});

// Property: printing a random arithmetic/boolean AST with minimal parentheses and parsing it
// back gives the same tree, and the same value (or the same kind of failure).
type Node = { k: "lit"; v: number | boolean | string | null } | { k: "un"; op: "!" | "-"; e: Node } | { k: "bin"; op: string; l: Node; r: Node };

const PREC: Record<string, number> = { "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, "<=": 4, ">": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6 };

const nodeArb: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(
      fc.integer({ min: 0, max: 20 }).map((v): Node => ({ k: "lit", v })),
      fc.integer({ min: 0, max: 40 }).map((v): Node => ({ k: "lit", v: v / 4 })),
      fc.boolean().map((v): Node => ({ k: "lit", v })),
      fc.constantFrom("", "a", "b'c").map((v): Node => ({ k: "lit", v })),
      fc.constant<Node>({ k: "lit", v: null }),
    ),
    fc.record({ k: fc.constant("un" as const), op: fc.constantFrom("!" as const, "-" as const), e: tie("node") }),
    fc.record({ k: fc.constant("bin" as const), op: fc.constantFrom(...Object.keys(PREC)), l: tie("node"), r: tie("node") }),
  ),
})).node;

function print(n: Node): string {
  if (n.k === "lit") return typeof n.v === "string" ? `'${n.v.replace(/'/g, "\\'")}'` : String(n.v);
  if (n.k === "un") return n.op + (n.e.k === "bin" ? `(${print(n.e)})` : print(n.e));
  const p = PREC[n.op]!;
  const left = n.l.k === "bin" && PREC[n.l.op]! < p ? `(${print(n.l)})` : print(n.l);
  const right = n.r.k === "bin" && PREC[n.r.op]! <= p ? `(${print(n.r)})` : print(n.r);
  return `${left} ${n.op} ${right}`;
}

function toExpr(n: Node): unknown {
  if (n.k === "lit") return { type: "literal", value: n.v };
  if (n.k === "un") return { type: "unary", op: n.op, operand: toExpr(n.e) };
  return { type: "binary", op: n.op, left: toExpr(n.l), right: toExpr(n.r) };
}

function withOffsets(e: unknown): Expr {
  return JSON.parse(JSON.stringify(e), (_k, v: unknown) => (v && typeof v === "object" && "type" in v ? { ...v, start: 0, end: 0 } : v)) as Expr;
}

function stripOffsets(e: unknown): unknown {
  return JSON.parse(JSON.stringify(e, (k, v: unknown) => (k === "start" || k === "end" ? undefined : v)));
}

function outcome(f: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: f() };
  } catch (err) {
    if (!(err instanceof ExprEvalError)) throw err;
    return { error: err.message };
  }
}

describe("print/parse round trip", () => {
  it("parse(print(ast)) has the same shape and evaluates like the ast", () => {
    fc.assert(
      fc.property(nodeArb, (n) => {
        const src = print(n);
        const { ast, errors } = parseExpression(src);
        expect(errors).toEqual([]);
        expect(stripOffsets(ast)).toEqual(toExpr(n));
        expect(outcome(() => evaluate(ast!, {}))).toEqual(outcome(() => evaluate(withOffsets(toExpr(n)), {})));
      }),
      { numRuns: 500 },
    );
  });
});
