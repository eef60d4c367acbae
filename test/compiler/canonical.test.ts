/** Canonical JSON (the plan hash's input) and the lazy hash properties of an IR. */
import { describe, expect, it } from "vitest";
import { canonicalJson, lazyProperty } from "../../src/compiler/canonical.js";

describe("canonicalJson", () => {
  it("sorts keys at every depth, drops undefined and skipped keys, keeps array order", () => {
    const v = { b: [3, { z: 1, a: undefined, span: 9 }, null], a: "x\n", c: { span: 1, y: true } };
    expect(canonicalJson(v, new Set(["span"]))).toBe('{"a":"x\\n","b":[3,{"z":1},null],"c":{"y":true}}');
    expect(canonicalJson(v)).toBe('{"a":"x\\n","b":[3,{"span":9,"z":1},null],"c":{"span":1,"y":true}}');
  });

  it("writes what JSON.stringify writes for scalars, undefined in arrays and holes", () => {
    expect(canonicalJson([undefined, 1.5, "é", -0])).toBe(JSON.stringify([undefined, 1.5, "é", -0]));
    expect(canonicalJson([1, , 3])).toBe("[1,,3]");
    expect(canonicalJson(undefined)).toBe("null");
  });
});

describe("lazyProperty", () => {
  it("computes each object's own value once, on first read, as an enumerable property", () => {
    let calls = 0;
    const a: Record<string, unknown> = { name: "a" };
    const b: Record<string, unknown> = { name: "b" };
    lazyProperty(a, "hash", () => `h-${++calls}-a`);
    lazyProperty(b, "hash", () => `h-${++calls}-b`);
    expect(calls).toBe(0);
    expect(JSON.stringify(b)).toBe('{"name":"b","hash":"h-1-b"}');
    expect(a.hash).toBe("h-2-a");
    expect(a.hash).toBe("h-2-a");
    expect(b.hash).toBe("h-1-b");
    expect(calls).toBe(2);
    expect(Object.keys(a)).toEqual(["name", "hash"]);
  });
});
