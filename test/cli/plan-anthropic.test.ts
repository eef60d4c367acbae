/** `planspec plan --provider anthropic` through the real bin against a local server speaking the Messages API. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GOAL, blindWritePlan, cliAsync, goodPlan, workspace } from "../planner/fixtures.js";
import { anthropicRules } from "../planner/providers.js";
import { type ScriptServer, type Scripted, anthropicContent, anthropicReply, errorReply, startServer } from "../planner/server.js";

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = "sk-ant-test-456";

async function plan(script: Scripted[], extra: string[] = [], base = (url: string) => ["--base-url", `${url}/v1`], env: Record<string, string> = {}) {
  server = await startServer(script, { check: anthropicRules(KEY) });
  const dir = workspace();
  const r = await cliAsync(["plan", GOAL, "--provider", "anthropic", "--tools", "tools.catalog.yaml", "-o", "out", ...base(server.url), ...extra], dir, {
    ANTHROPIC_API_KEY: KEY,
    ...env,
  });
  const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), "utf8") : undefined);
  return { ...r, read, requests: server.requests };
}

describe("planspec plan --provider anthropic", () => {
  it("forces the plan tool whose input schema is the DSL plan schema", async () => {
    const r = await plan([anthropicReply(goodPlan())]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("900 tokens in, 250 out");
    const req = r.requests[0]!;
    expect(req.path).toBe("/v1/messages");
    expect(req.headers["x-api-key"]).toBe("sk-ant-test-456");
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req.body.tool_choice).toEqual({ type: "tool", name: "submit_plan" });
    expect(req.body.tools[0].input_schema.properties.steps.type).toBe("object");
    expect(typeof req.body.system).toBe("string");
    expect(r.read("out.trace.jsonl")).not.toContain("sk-ant-test-456");
    expect(JSON.parse(r.read("out.ir.json")!).name).toBe("fix-typo");
  });

  it("sends lint errors back as a user turn and accepts the repair", async () => {
    const r = await plan([anthropicReply(blindWritePlan()), anthropicReply(goodPlan())]);
    expect(r.status).toBe(0);
    const msgs = r.requests[1]!.body.messages as Array<{ role: string; content: string }>;
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(msgs[2]!.content).toContain("[write-without-evidence]");
  });

  it("retries a 529 overload with retry-after 0, then succeeds", async () => {
    const r = await plan([errorReply(529, "Overloaded", { "retry-after": "0" }), anthropicReply(goodPlan())]);
    expect(r.status).toBe(0);
    expect(r.requests).toHaveLength(2);
  });

  it("gives one line and exit 2 on 401", async () => {
    const r = await plan([errorReply(401, "invalid x-api-key")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^planspec: .*refused the API key \(401\): check ANTHROPIC_API_KEY/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("never sends an empty assistant turn after an empty answer (the API refuses one with 400)", async () => {
    const r = await plan([anthropicContent([]), anthropicReply(goodPlan())]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const msgs = r.requests[1]!.body.messages as Array<{ role: string; content: string }>;
    expect(msgs.map((m) => m.role)).toEqual(["user"]);
    expect(msgs[0]!.content).toContain(GOAL);
    expect(msgs[0]!.content).toMatch(/The answer could not be read: the answer was empty/);
  });

  it("tells the model it was cut off, and the user to raise --max-tokens, when stop_reason is max_tokens", async () => {
    const partial = { planspec: 1, name: "fix-typo", goal: GOAL };
    const r = await plan([anthropicReply(partial, "max_tokens"), anthropicReply(partial, "max_tokens")], ["--max-repairs", "1", "--max-tokens", "300"]);
    expect(r.status).toBe(1);
    expect(r.requests[0]!.body.max_tokens).toBe(300);
    const repair = r.requests[1]!.body.messages.at(-1).content as string;
    expect(repair).toMatch(/cut off at the output token limit/);
    expect(repair).not.toMatch(/steps/);
    expect(r.stdout).toContain("the answer was cut off at the output token limit: raise --max-tokens");
  });

  it("says thinking used up the tokens instead of calling the answer empty", async () => {
    const r = await plan([anthropicContent([{ type: "thinking", thinking: "The README...", signature: "sig" }], "max_tokens")], ["--max-repairs", "0"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/spent all its output tokens on reasoning and wrote no answer: raise --max-tokens/);
  });

  it("reports a refusal (stop_reason: refusal) as a refusal, without repairs", async () => {
    const r = await plan([anthropicContent([{ type: "text", text: "I won't help with that." }], "refusal")]);
    expect(r.status).toBe(1);
    expect(r.requests).toHaveLength(1);
    expect(r.stdout).toContain("the model refused: I won't help with that.");
  });

  it("takes a base URL without /v1, as the SDK does, also from ANTHROPIC_BASE_URL", async () => {
    const flag = await plan([anthropicReply(goodPlan())], [], (url) => ["--base-url", url]);
    expect(flag.stderr).toBe("");
    expect(flag.requests[0]!.path).toBe("/v1/messages");
    await server!.close();
    server = await startServer([anthropicReply(goodPlan())], { check: anthropicRules(KEY) });
    const r = await cliAsync(["plan", GOAL, "--provider", "anthropic", "--tools", "tools.catalog.yaml", "-o", "out"], workspace(), { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(server.requests[0]!.path).toBe("/v1/messages");
  });

  it("lowers a default max_tokens above the model's maximum to the maximum the API names", async () => {
    const tooMany = { status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "max_tokens: 8192 > 4096, which is the maximum allowed number of output tokens for claude-3-haiku-20240307" } } };
    const r = await plan([tooMany, anthropicReply(goodPlan())], ["--model", "claude-3-haiku-20240307"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.requests.map((q) => q.body.max_tokens)).toEqual([8192, 4096]);
  });
});
