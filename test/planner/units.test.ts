/** The planner's pure pieces: retry-after parsing, backoff caps, JSON extraction, the request schema, scoring. */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { backoffMs, DEFAULT_POLICY, retryAfterMs } from "../../src/planner/http.js";
import { extractJson } from "../../src/planner/extract.js";
import { planRequestSchema } from "../../src/planner/schema.js";
import { redactHeaders } from "../../src/planner/trace.js";
import { repoRoot } from "../helpers.js";

describe("retry-after", () => {
  it("reads delta-seconds and HTTP dates, and ignores junk", () => {
    expect(retryAfterMs("0")).toBe(0);
    expect(retryAfterMs("2")).toBe(2000);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs("Wed, 01 Jan 2025 00:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("Tue, 31 Dec 2024 23:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });

  it("caps the exponential backoff", () => {
    for (let i = 0; i < 20; i++) {
      const d = backoffMs(DEFAULT_POLICY, 2);
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(4000);
    }
    expect(backoffMs(DEFAULT_POLICY, 30)).toBe(DEFAULT_POLICY.maxDelayMs);
  });
});

describe("extractJson", () => {
  it("takes plain JSON, fenced JSON, and JSON with prose around it", () => {
    expect(extractJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('Sure:\n```json\n{"a":1}\n```')).toMatchObject({ ok: true, value: { a: 1 }, note: "the JSON was inside a code fence" });
    expect(extractJson('The plan is {"a":{"b":2}} as asked.')).toMatchObject({ ok: true, value: { a: { b: 2 } } });
  });

  it("says when the answer is cut off, not an object, or empty", () => {
    expect(extractJson('{"a": [1, 2')).toMatchObject({ ok: false, message: expect.stringMatching(/not complete JSON/) });
    expect(extractJson("[1,2]")).toMatchObject({ ok: false, message: expect.stringMatching(/not an object/) });
    expect(extractJson("   ")).toMatchObject({ ok: false, message: expect.stringMatching(/empty/) });
    expect(extractJson("I cannot plan that.")).toMatchObject({ ok: false, message: expect.stringMatching(/not valid JSON/) });
  });
});

describe("the request schema", () => {
  const schema = planRequestSchema();

  it("is self-contained and leaves out what the planner attaches", () => {
    const text = JSON.stringify(schema);
    expect(text).not.toContain("$ref");
    expect(text).not.toContain('"if"');
    expect((schema.properties as Record<string, unknown>).tools).toBeUndefined();
    expect((schema.properties as Record<string, unknown>).steps).toBeDefined();
  });

  it("accepts every example plan without its tools, as a model would write it", () => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const dir = join(repoRoot, "specs/examples");
    const plans = readdirSync(dir).filter((f) => f.endsWith(".plan.yaml"));
    expect(plans.length).toBeGreaterThan(2);
    for (const f of plans) {
      const doc = parse(readFileSync(join(dir, f), "utf8")) as Record<string, unknown>;
      delete doc.tools;
      delete doc.templates;
      expect({ f, ok: validate(doc), errors: validate.errors }).toMatchObject({ f, ok: true });
    }
  });

  it("rejects an unknown step key, as the compiler does", () => {
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate({ planspec: 1, name: "x", goal: "g", steps: { a: { kind: "read", goal: "g", tool_name: "t" } } })).toBe(false);
  });
});

describe("trace redaction", () => {
  it("replaces credential headers whatever their case", () => {
    expect(redactHeaders({ Authorization: "Bearer k", "X-Api-Key": "k", "content-type": "application/json" })).toEqual({
      Authorization: "[redacted]",
      "X-Api-Key": "[redacted]",
      "content-type": "application/json",
    });
  });
});
