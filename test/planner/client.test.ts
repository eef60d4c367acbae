/**
 * The provider client used from outside the planner (a runtime built-in, an eval):
 * makeProvider with settings, a free-text completion without a schema, and errors and
 * in-memory traces that never hold the key. In-process against a real local server.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeProvider } from "../../src/llm/provider.js";
import { PlannerError } from "../../src/llm/errors.js";
import { MemoryTrace } from "../../src/llm/trace.js";
import { anthropicRules, openaiRules } from "./providers.js";
import { type ScriptServer, anthropicContent, openaiReply, startServer } from "./server.js";

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = { system: "Be brief.", messages: [{ role: "user" as const, content: "Say hi" }] };

describe("makeProvider from outside the planner", () => {
  it("completes free text over chat completions, with headers and a token limit", async () => {
    server = await startServer([openaiReply("hi")], { check: openaiRules("sk-k1-0000000000") });
    const { provider } = await makeProvider({
      provider: "openai",
      model: "gpt-5-mini",
      baseUrl: `${server.url}/v1`,
      headers: { "X-Title": "runtime" },
      maxTokens: 50,
      env: { OPENAI_API_KEY: "sk-k1-0000000000" },
    });
    const c = await provider.complete(ask, new MemoryTrace());
    expect(c.text).toBe("hi");
    const body = server.requests[0]!.body;
    expect(body.response_format).toBeUndefined();
    expect(body.max_completion_tokens).toBe(50);
    expect(server.requests[0]!.headers["x-title"]).toBe("runtime");
  });

  it("completes free text over the Messages API without the plan tool", async () => {
    server = await startServer([anthropicContent([{ type: "text", text: "hi" }])], { check: anthropicRules("ak") });
    const { provider } = await makeProvider({ provider: "anthropic", baseUrl: server.url, env: { ANTHROPIC_API_KEY: "ak" } });
    const c = await provider.complete(ask, new MemoryTrace());
    expect(c.text).toBe("hi");
    expect(server.requests[0]!.body.tools).toBeUndefined();
    expect(server.requests[0]!.body.max_tokens).toBe(8192);
  });

  it("keeps an echoed key out of the error and of an in-memory trace", async () => {
    server = await startServer([], { check: openaiRules("sk-right-0000000000") });
    const key = "sk-wrong-4c1d2e3f4a5b6c7d";
    const { provider } = await makeProvider({ provider: "openai", baseUrl: `${server.url}/v1`, env: { OPENAI_API_KEY: key } });
    const trace = new MemoryTrace();
    const err = await provider.complete(ask, trace).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlannerError);
    expect((err as PlannerError).message).toMatch(/refused the API key \(401\)/);
    expect((err as PlannerError).message).not.toContain(key);
    expect(JSON.stringify(trace.events)).toContain("Incorrect API key provided");
    expect(JSON.stringify(trace.events)).not.toContain(key);
  });
});
