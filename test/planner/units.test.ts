/** The planner's pure pieces: retry-after parsing, backoff caps, JSON extraction, the request schema, scoring. */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { backoffMs, DEFAULT_POLICY, type HttpReply, retryAfterMs, retryDecision } from "../../src/llm/http.js";
import { extractJson, readAnswer } from "../../src/planner/extract.js";
import { needsCompletionTokens } from "../../src/llm/openai.js";
import { endpoint, wireMessages } from "../../src/llm/provider.js";
import { planRequestSchema } from "../../src/planner/schema.js";
import { isSecretHeader, redactHeaders, scrubValue } from "../../src/llm/trace.js";
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

describe("retry decisions", () => {
  const reply = (status: number, body: unknown = {}): HttpReply => ({ status, body, text: JSON.stringify(body), contentType: "application/json" });
  const h = (o: Record<string, string>) => new Headers(o);

  it("honours retry-after up to 60 s and stops above it", () => {
    expect(retryDecision(reply(429), h({ "retry-after": "60" }), DEFAULT_POLICY, 0)).toEqual({ waitMs: 60_000 });
    expect(retryDecision(reply(429), h({ "retry-after": "61" }), DEFAULT_POLICY, 0)).toMatchObject({ stop: expect.stringMatching(/asks to wait 61 s/) });
  });

  it("prefers retry-after-ms, and follows x-should-retry either way", () => {
    expect(retryDecision(reply(503), h({ "retry-after-ms": "250", "retry-after": "9" }), DEFAULT_POLICY, 0)).toEqual({ waitMs: 250 });
    expect(retryDecision(reply(503), h({ "x-should-retry": "false" }), DEFAULT_POLICY, 0)).toMatchObject({ stop: expect.stringMatching(/x-should-retry/) });
    expect(retryDecision(reply(400), h({ "x-should-retry": "true", "retry-after": "0" }), DEFAULT_POLICY, 0)).toEqual({ waitMs: 0 });
    expect(retryDecision(reply(400), h({}), DEFAULT_POLICY, 0)).toBeUndefined();
  });

  it("does not retry a 429 out of quota", () => {
    const quota = reply(429, { error: { code: "insufficient_quota", message: "You exceeded your current quota" } });
    expect(retryDecision(quota, h({ "retry-after": "1" }), DEFAULT_POLICY, 0)).toMatchObject({ stop: expect.any(String) });
  });
});

describe("wire details", () => {
  it("joins paths before a base URL's query string", () => {
    expect(endpoint("https://r.openai.azure.com/openai/deployments/d?api-version=2024-10-21", "chat/completions")).toBe(
      "https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21",
    );
    expect(endpoint("http://localhost:11434/v1/", "/chat/completions")).toBe("http://localhost:11434/v1/chat/completions");
  });

  it("drops empty assistant turns and merges the turns that then meet", () => {
    expect(wireMessages([{ role: "user", content: "goal" }, { role: "assistant", content: "  " }, { role: "user", content: "fix" }])).toEqual([{ role: "user", content: "goal\n\nfix" }]);
  });

  it("knows which models take max_completion_tokens", () => {
    for (const m of ["o1", "o3-mini", "o4-mini-2025-04-16", "gpt-5", "gpt-5-nano", "openai/o3"]) expect(needsCompletionTokens(m)).toBe(true);
    for (const m of ["gpt-4.1-mini", "gpt-4o", "qwen2.5", "llama3.1:8b", "openai/gpt-4.1"]) expect(needsCompletionTokens(m)).toBe(false);
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

  it("drops <think> blocks, and tries brace spans until one parses, preferring one with steps", () => {
    expect(extractJson('<think>maybe {"steps":1}?</think>\n{"steps":{}}')).toMatchObject({ ok: true, value: { steps: {} }, note: expect.stringMatching(/<think>/) });
    expect(extractJson('Use {goal} and {"x": 1} then: {"steps": {"a": {}}} done {')).toMatchObject({ ok: true, value: { steps: { a: {} } } });
    expect(extractJson('Options {a, b}. {"name": "only"}')).toMatchObject({ ok: true, value: { name: "only" } });
    expect(extractJson("<think>still thinking about {it}")).toMatchObject({ ok: false, message: expect.stringMatching(/all reasoning/) });
    // However many braces the prose holds: the work is bounded by the answer's length, not a count of spans.
    expect(extractJson(`${"Fill in {placeholder}. ".repeat(2000)}{"steps": {}}`)).toMatchObject({ ok: true, value: { steps: {} } });
  });

  it("does not take a piece of a cut-off document for the answer", () => {
    const cut = 'Here: {"planspec": 1, "limits": {"run_timeout": "10m"}, "steps": {"a": {"kind": "read"';
    expect(extractJson(cut)).toMatchObject({ ok: false, message: expect.stringMatching(/not complete JSON/) });
  });

  it("reads a refusal, a cut-off and a reasoning-only completion for the model and the user", () => {
    const base = { text: "", usage: { inputTokens: 0, outputTokens: 0 }, truncated: false, mode: "x" };
    expect(readAnswer({ ...base, refusal: "no" })).toMatchObject({ ok: false, final: true, user: "the model refused: no" });
    expect(readAnswer({ ...base, text: '{"steps":{}}', truncated: true })).toMatchObject({ ok: false, final: false, model: expect.stringMatching(/cut off/), user: expect.stringMatching(/raise --max-tokens/) });
    expect(readAnswer({ ...base, text: "<think>long", truncated: true })).toMatchObject({ ok: false, user: expect.stringMatching(/reasoning.*raise --max-tokens/) });
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

  it("redacts custom headers that look like credentials, and keeps the others", () => {
    expect(isSecretHeader("X-Gateway-Token", "abc")).toBe(true);
    expect(isSecretHeader("X-Custom", "Bearer abc")).toBe(true);
    expect(isSecretHeader("X-Custom", "sk-or-v1-0123")).toBe(true);
    expect(isSecretHeader("X-Custom", "a8f5f167f44f4964e6c998dee827110c")).toBe(true);
    expect(isSecretHeader("HTTP-Referer", "https://example.org/app/very/long/path/1234567890")).toBe(false);
    expect(isSecretHeader("X-Title", "planspec tests")).toBe(false);
    expect(isSecretHeader("OpenAI-Organization", "org-abc")).toBe(false);
  });

  it("scrubs secrets from keys and values of a JSON value", () => {
    expect(scrubValue({ "k-SECRET-KEY-0001": ["x SECRET-KEY-0001 y", 1, "ollama"] }, ["SECRET-KEY-0001", "ollama"])).toEqual({ "k-[redacted]": ["x [redacted] y", 1, "ollama"] });
  });
});
