/** The annotation -> risk table, and how drift is described (the first difference, by path). */
import { describe, expect, it } from "vitest";
import { riskFromAnnotations } from "../../src/annotations.js";
import { firstDifference, hintsOf } from "../../src/runtime/mcp/tools.js";

describe("riskFromAnnotations", () => {
  it.each([
    [{ readOnlyHint: true }, "read"],
    [{ readOnlyHint: true, destructiveHint: true, openWorldHint: true }, "read"],
    [{ readOnlyHint: false, openWorldHint: true }, "external"],
    [{ destructiveHint: true, openWorldHint: true }, "external"],
    [{ destructiveHint: true }, "write"],
    [{ readOnlyHint: false }, "write"],
    [{ idempotentHint: true }, "write"],
    [{ openWorldHint: false, destructiveHint: false }, "write"],
  ] as const)("%j -> %s", (a, risk) => {
    expect(riskFromAnnotations(a)).toBe(risk);
  });

  it("no hints at all is undefined: the caller decides", () => {
    expect(riskFromAnnotations(undefined)).toBeUndefined();
    expect(riskFromAnnotations({})).toBeUndefined();
  });
});

describe("drift descriptions", () => {
  it("names the first differing path with both values", () => {
    expect(firstDifference("input_schema", { type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { a: { type: "number" } } })).toBe(
      'input_schema.properties.a.type: catalogue "string", server "number"',
    );
    expect(firstDifference("input_schema", { required: ["a"] }, { required: ["a", "b"] })).toBe('input_schema.required[1]: catalogue nothing, server "b"');
    expect(firstDifference("output_schema", undefined, { type: "object" })).toBe('output_schema: catalogue nothing, server {"type":"object"}');
    expect(firstDifference("x", { a: 1, b: [1, { c: true }] }, { b: [1, { c: true }], a: 1 })).toBeUndefined();
  });

  it("keeps only the four MCP hints", () => {
    expect(hintsOf({ title: "Read", readOnlyHint: true, custom: 1 })).toEqual({ readOnlyHint: true });
    expect(hintsOf({ title: "Nothing" })).toBeUndefined();
  });
});
