/**
 * `planspec plan` against a local server that behaves like OpenAI (and the compatible
 * servers and gateways in front of it): what real providers refuse, what they answer
 * that is not plain `message.content`, and how their errors and retry hints are read.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GOAL, cliAsync, goodPlan, workspace } from "../planner/fixtures.js";
import { legacyServerRules, openaiError, openaiRules } from "../planner/providers.js";
import { type Received, type ScriptServer, type Scripted, errorReply, openaiMessage, openaiReply, startServer } from "../planner/server.js";

const KEY = "sk-test-Zq8vR2xL9mK4pT7wY1nB";

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface PlanArgs {
  extra?: string[];
  env?: Record<string, string | undefined>;
  check?: (req: Received) => Scripted | undefined;
  base?: (url: string) => string;
}

async function plan(script: Scripted[], a: PlanArgs = {}) {
  server = await startServer(script, { check: a.check ?? openaiRules(KEY) });
  const dir = workspace();
  const base = a.base ? a.base(server.url) : `${server.url}/v1`;
  const baseArgs = base ? ["--base-url", base] : [];
  const r = await cliAsync(["plan", GOAL, "--tools", "tools.catalog.yaml", "-o", "out", ...baseArgs, ...(a.extra ?? [])], dir, { OPENAI_API_KEY: KEY, ...a.env });
  const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), "utf8") : undefined);
  const trace = () => (read("out.trace.jsonl") ?? "").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
  return { ...r, dir, read, trace, requests: server.requests };
}

const PLAN = JSON.stringify(goodPlan());
const oneLine = (s: string) => expect(s.trimEnd().split("\n")).toHaveLength(1);

describe("output token limits", () => {
  it("sends no token limit unless --max-tokens is given", async () => {
    const r = await plan([openaiReply(PLAN)]);
    expect(r.status).toBe(0);
    expect(r.requests[0]!.body.max_tokens).toBeUndefined();
    expect(r.requests[0]!.body.max_completion_tokens).toBeUndefined();
  });

  it("sends max_completion_tokens to an o-series or GPT-5 model, which refuses max_tokens", async () => {
    for (const model of ["o3-mini", "gpt-5-mini"]) {
      const r = await plan([openaiReply(PLAN)], { extra: ["--model", model, "--max-tokens", "4000"] });
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.requests).toHaveLength(1);
      expect(r.requests[0]!.body.max_completion_tokens).toBe(4000);
      expect(r.requests[0]!.body.max_tokens).toBeUndefined();
      await server!.close();
      server = undefined;
    }
  });

  it("sends max_tokens to other models, and switches once on an unsupported_parameter 400 naming it", async () => {
    // A deployment or gateway alias whose name does not say it is a reasoning model.
    const check = (req: Received) =>
      "max_tokens" in req.body
        ? openaiError(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "unsupported_parameter", "max_tokens")
        : openaiRules(KEY)(req);
    const bad = openaiReply(JSON.stringify({ ...goodPlan(), steps: { ...goodPlan().steps, read_readme: { ...goodPlan().steps.read_readme, tool_name: "x" } } }));
    const r = await plan([bad, openaiReply(PLAN)], { check, extra: ["--model", "team-reasoner", "--max-tokens", "2048"] });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.requests.map((q) => ("max_tokens" in q.body ? "max_tokens" : "max_completion_tokens"))).toEqual(["max_tokens", "max_completion_tokens", "max_completion_tokens"]);
    expect(r.requests[2]!.body.max_completion_tokens).toBe(2048);
  });

  it("switches back to max_tokens on a server that only knows that", async () => {
    const r = await plan([openaiReply(PLAN)], { check: legacyServerRules, extra: ["--model", "o4-mini", "--max-tokens", "1000"] });
    expect(r.status).toBe(0);
    expect(r.requests.map((q) => Object.keys(q.body).filter((k) => k.startsWith("max_")))).toEqual([["max_completion_tokens"], ["max_tokens"]]);
  });

  it("rejects a --max-tokens that is not a positive integer", async () => {
    const r = await cliAsync(["plan", GOAL, "--tools", "tools.catalog.yaml", "--max-tokens", "lots"], workspace(), { OPENAI_API_KEY: "k" });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('planspec: --max-tokens must be an integer >= 1, got "lots"\n');
  });
});

describe("answers that are not plain message.content", () => {
  it("reads the plan from tool_calls arguments when content is null", async () => {
    const msg = { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "submit_plan", arguments: PLAN } }] };
    const r = await plan([openaiMessage(msg, "tool_calls")]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("reads content given as an array of text parts", async () => {
    const half = Math.floor(PLAN.length / 2);
    const msg = { role: "assistant", content: [{ type: "text", text: PLAN.slice(0, half) }, { type: "text", text: PLAN.slice(half) }] };
    const r = await plan([openaiMessage(msg)]);
    expect(r.status).toBe(0);
  });

  it("takes the JSON after a <think> block, and after prose that contains braces", async () => {
    const think = `<think>The user wants {a plan}. Maybe {"steps": {}} would do? No.</think>\n${PLAN}`;
    const prose = `Here is the plan. Steps use \${{ steps.x.output }} and {placeholders}; the JSON:\n\n${PLAN}\n\nHope it helps {:}`;
    for (const answer of [think, prose]) {
      const r = await plan([openaiReply(answer)], { extra: ["--max-repairs", "0"] });
      expect(r.stdout).toMatch(/compiles and lints clean/);
      expect(r.status).toBe(0);
      await server!.close();
      server = undefined;
    }
  });

  it("reports a refusal as a refusal, without spending repairs on it", async () => {
    const msg = { role: "assistant", content: null, refusal: "I can't help with planning that." };
    const r = await plan([openaiMessage(msg)]);
    expect(r.status).toBe(1);
    expect(r.requests).toHaveLength(1);
    expect(r.stdout).toContain("the model refused: I can't help with planning that.");
  });

  it("says reasoning used up the output tokens instead of calling the answer empty", async () => {
    const msg = { role: "assistant", content: "", reasoning_content: "Let me think about the README..." };
    const r = await plan([openaiMessage(msg, "length", { completion_tokens: 1000, completion_tokens_details: { reasoning_tokens: 1000 } })], {
      extra: ["--max-repairs", "0", "--max-tokens", "1000"],
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/spent all its output tokens on reasoning.*raise --max-tokens/);
    expect(r.stdout).not.toMatch(/empty/);
  });

  it("sends no empty assistant turn after an empty answer", async () => {
    const r = await plan([openaiReply(""), openaiReply(PLAN)]);
    expect(r.status).toBe(0);
    const msgs = r.requests[1]!.body.messages as Array<{ role: string; content: string }>;
    expect(msgs.map((m) => m.role)).toEqual(["system", "user"]);
    expect(msgs[1]!.content).toContain(GOAL);
    expect(msgs[1]!.content).toMatch(/empty/);
  });
});

describe("errors the provider hides in or around a 200", () => {
  it("surfaces an {error} body sent with status 200 (OpenRouter style) in one line", async () => {
    const r = await plan([{ status: 200, body: { error: { code: 402, message: "Insufficient credits. Add more using https://openrouter.ai/credits" } } }]);
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/^planspec: .*answered 200 with an error: Insufficient credits\. Add more using https:\/\/openrouter\.ai\/credits \(code 402\)\n$/);
  });

  it("surfaces an error inside choices[0] (OpenRouter, mid-generation) in one line", async () => {
    const body = { id: "gen-1", choices: [{ index: 0, finish_reason: "error", error: { code: 502, message: "Upstream provider returned an error" }, message: { role: "assistant", content: "" } }] };
    const r = await plan([{ status: 200, body }]);
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/answered 200 with an error in choices\[0\]: Upstream provider returned an error \(code 502\)/);
  });

  it("surfaces an HTML page with status 200 in one line that points at --base-url", async () => {
    const r = await plan([{ status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: "<!doctype html><html><head><title>Open WebUI</title></head><body>app</body></html>" }]);
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/answered with an HTML page, not the API's JSON: --base-url must be the API root/);
  });

  it("surfaces a server-sent event stream with status 200 in one line", async () => {
    const sse = 'data: {"choices":[{"delta":{"content":"{"}}]}\n\ndata: [DONE]\n\n';
    const r = await plan([{ status: 200, headers: { "content-type": "text/event-stream" }, body: sse }]);
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/answered with an event stream \(SSE\), not one JSON reply/);
  });

  it("never prints the key a 401 echoes, and names the request id", async () => {
    const r = await plan([], { env: { OPENAI_API_KEY: "sk-wrong-key-9f8e7d6c5b4a" } });
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/refused the API key \(401\): check OPENAI_API_KEY/);
    expect(r.stderr).not.toContain("sk-wrong-key-9f8e7d6c5b4a");
    expect(r.stderr).toContain("request id req_err_1");
    expect(r.read("out.trace.jsonl")).not.toContain("sk-wrong-key-9f8e7d6c5b4a");
  });

  it("leaves a short local-server key that also occurs in the plan alone, but masks it in an error line", async () => {
    const ok = await plan([openaiReply(PLAN)], { check: () => undefined, env: { OPENAI_API_KEY: "fix_typo" } });
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.read("out.ir.json")!).nodes.map((n: { id: string }) => n.id)).toEqual(["read_readme", "fix_typo"]);
    await server!.close();
    const denied = await plan([], { env: { OPENAI_API_KEY: "fix_typo" } });
    expect(denied.status).toBe(2);
    expect(denied.stderr).toMatch(/Incorrect API key provided: \[redacted\]/);
  });

  it("gives a 404 from a base URL without /v1 a hint that does not blame the model", async () => {
    const r = await plan([], { base: (u) => u, extra: ["--retries", "0"] });
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.requests[0]!.path).toBe("/chat/completions");
    expect(r.stderr).not.toMatch(/model/);
    expect(r.stderr).toContain(`the base URL probably needs /v1: --base-url ${server!.url}/v1`);
  });
});

describe("retries", () => {
  it("falls back to JSON mode on a 5xx that names response_format (llama.cpp), without retrying it", async () => {
    const r = await plan([errorReply(500, "Either \"json_schema\" or \"grammar\" can be specified, but not both (response_format)"), openaiReply(PLAN)]);
    expect(r.status).toBe(0);
    expect(r.requests.map((q) => q.body.response_format?.type ?? "none")).toEqual(["json_schema", "json_object"]);
  });

  it("does not retry when the server says x-should-retry: false", async () => {
    const r = await plan([errorReply(503, "busy", { "x-should-retry": "false", "retry-after": "0" })]);
    expect(r.status).toBe(2);
    expect(r.requests).toHaveLength(1);
    expect(r.stderr).toMatch(/503.*busy/);
  });

  it("retries a 4xx when the server says x-should-retry: true", async () => {
    const r = await plan([errorReply(409, "conflict", { "x-should-retry": "true", "retry-after-ms": "10" }), openaiReply(PLAN)]);
    expect(r.status).toBe(0);
    expect(r.requests).toHaveLength(2);
  });

  it("does not retry a 429 insufficient_quota, and says what it means", async () => {
    const r = await plan([openaiError(429, "You exceeded your current quota, please check your plan and billing details.", "insufficient_quota", null, "insufficient_quota")]);
    expect(r.status).toBe(2);
    expect(r.requests).toHaveLength(1);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/out of quota \(429 insufficient_quota\).*not retried/);
  });

  it("waits as long as retry-after-ms asks, before retry-after", async () => {
    const r = await plan([errorReply(429, "slow down", { "retry-after-ms": "400", "retry-after": "0" }), openaiReply(PLAN)]);
    expect(r.status).toBe(0);
    const gap = r.requests[1]!.at - r.requests[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(400);
    expect(gap).toBeLessThan(50_000);
  });

  it("gives up at once when retry-after asks for more than 60 s", async () => {
    const r = await plan([errorReply(429, "rate limited", { "retry-after": "3600" })]);
    expect(r.status).toBe(2);
    expect(r.requests).toHaveLength(1);
    expect(r.stderr).toMatch(/asks to wait 3600 s before a retry \(more than 60 s\)/);
  });

  it("stops retrying when the --deadline for the call runs out", async () => {
    const busy = errorReply(503, "overloaded", { "retry-after": "1" });
    const r = await plan([busy, busy, busy, busy, busy], { extra: ["--retries", "10", "--deadline", "1.5"] });
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.requests).toHaveLength(2);
    expect(r.stderr).toMatch(/503: overloaded; still failing after 2 attempts; the --deadline of 1\.5 s leaves no time for another/);
  });

  it("does not retry a timeout: a slow model would time out again", async () => {
    const r = await plan([{ status: 200, body: {}, hang: true }], { extra: ["--timeout", "1", "--retries", "3"] });
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.requests).toHaveLength(1);
    expect(r.stderr).toMatch(/no answer from .* within 1 s: a slow \(local\) model needs a longer --timeout/);
  });
});

describe("headers and environment", () => {
  it("sends --header values and OPENAI_ORG_ID / OPENAI_PROJECT_ID, keeping secret-looking values out of the trace", async () => {
    const r = await plan([openaiReply(PLAN)], {
      extra: ["--header", "HTTP-Referer=https://example.org/app", "--header", "X-Title=planspec tests", "--header", "X-Gateway-Token=gw_live_5Yt2Lk9Qa7Xw3Re8"],
      env: { OPENAI_ORG_ID: "org-abc", OPENAI_PROJECT_ID: "proj_xyz" },
    });
    expect(r.status).toBe(0);
    const h = r.requests[0]!.headers;
    expect(h["http-referer"]).toBe("https://example.org/app");
    expect(h["x-title"]).toBe("planspec tests");
    expect(h["x-gateway-token"]).toBe("gw_live_5Yt2Lk9Qa7Xw3Re8");
    expect(h["openai-organization"]).toBe("org-abc");
    expect(h["openai-project"]).toBe("proj_xyz");
    const trace = r.read("out.trace.jsonl")!;
    expect(trace).not.toContain("gw_live_5Yt2Lk9Qa7Xw3Re8");
    expect(trace).not.toContain(KEY);
    const sent = r.trace().find((e) => e.type === "request")!.headers;
    expect(sent["HTTP-Referer"]).toBe("https://example.org/app");
    expect(sent["X-Gateway-Token"]).toBe("[redacted]");
  });

  it("lets a --header replace a provider header whatever its case, without sending both", async () => {
    const r = await plan([openaiReply(PLAN)], { check: () => undefined, extra: ["--header", "Authorization=Bearer gateway-issued-token-0001"] });
    expect(r.status).toBe(0);
    expect(r.requests[0]!.headers.authorization).toBe("Bearer gateway-issued-token-0001");
    expect(r.read("out.trace.jsonl")).not.toContain("gateway-issued-token-0001");
  });

  it("rejects a --header that is not K=V", async () => {
    const r = await cliAsync(["plan", GOAL, "--tools", "tools.catalog.yaml", "--header", "novalue"], workspace(), { OPENAI_API_KEY: "k" });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('planspec: --header must be NAME=VALUE (e.g. --header "HTTP-Referer=https://example.org"), got "novalue"\n');
  });

  it("takes the base URL from OPENAI_BASE_URL", async () => {
    server = await startServer([openaiReply(PLAN)], { check: openaiRules(KEY) });
    const r = await cliAsync(["plan", GOAL, "--tools", "tools.catalog.yaml", "-o", "out"], workspace(), { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${server.url}/v1` });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(server.requests).toHaveLength(1);
  });
});
