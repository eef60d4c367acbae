/**
 * `planspec plan` through the real bin against a real local HTTP server speaking the
 * OpenAI chat-completions protocol: what the user sees, what was written, and what
 * the server received.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GOAL, blindWritePlan, cliAsync, goodPlan, schemaBadPlan, workspace } from "../planner/fixtures.js";
import { type ScriptServer, type Scripted, errorReply, openaiReply, startServer } from "../planner/server.js";

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function plan(script: Scripted[], extra: string[] = [], env: Record<string, string | undefined> = { OPENAI_API_KEY: "sk-test-secret-123" }) {
  server = await startServer(script);
  const dir = workspace();
  const r = await cliAsync(["plan", GOAL, "--tools", "tools.catalog.yaml", "-o", "out", "--base-url", `${server.url}/v1`, ...extra], dir, env);
  const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), "utf8") : undefined);
  return { ...r, dir, read, requests: server.requests };
}

describe("planspec plan (OpenAI-compatible)", () => {
  it("writes the plan, its IR and the trace for a valid answer, and sends the DSL schema", async () => {
    const r = await plan([openaiReply(JSON.stringify(goodPlan()))]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/out\.plan\.yaml: compiles and lints clean/);
    expect(r.stdout).toContain("1 model call, 1200 tokens in, 300 out");
    const yaml = r.read("out.plan.yaml")!;
    expect(yaml).toContain("fix_typo:");
    // The catalogue is attached by the planner, not by the model.
    expect(yaml).toContain("code.edit:");
    const ir = JSON.parse(r.read("out.ir.json")!);
    expect(ir.nodes.map((n: { id: string }) => n.id)).toEqual(["read_readme", "fix_typo"]);
    expect(ir.tools["code.edit"].risk).toBe("write");

    expect(r.requests).toHaveLength(1);
    const req = r.requests[0]!;
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-test-secret-123");
    const format = req.body.response_format;
    expect(format.type).toBe("json_schema");
    expect(format.json_schema.schema.required).toEqual(["planspec", "name", "goal", "steps"]);
    expect(JSON.stringify(format.json_schema.schema)).not.toContain("$ref");
    expect(format.json_schema.schema.properties.tools).toBeUndefined();
    const system = req.body.messages[0].content as string;
    expect(system).toContain("code.edit (risk: write)");
    expect(system).toContain("write-without-evidence");
    expect(req.body.messages[1].content).toContain(GOAL);

    const trace = r.read("out.trace.jsonl")!;
    expect(trace).not.toContain("sk-test-secret-123");
    const events = trace.trim().split("\n").map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toEqual(["start", "request", "response", "response", "diagnostics", "result"]);
    expect(events[1].headers.authorization).toBe("[redacted]");
    expect(events[3].usage).toEqual({ inputTokens: 1200, outputTokens: 300 });
  });

  it("accepts JSON inside a code fence", async () => {
    const r = await plan([openaiReply("Here is the plan:\n```json\n" + JSON.stringify(goodPlan(), null, 2) + "\n```\n")]);
    expect(r.status).toBe(0);
    expect(r.requests).toHaveLength(1);
  });

  it("asks again after a truncated answer, saying it was cut off", async () => {
    const text = JSON.stringify(goodPlan());
    const r = await plan([openaiReply(text.slice(0, 200), "length"), openaiReply(text)]);
    expect(r.status).toBe(0);
    expect(r.requests).toHaveLength(2);
    const repair = r.requests[1]!.body.messages.at(-1).content as string;
    expect(repair).toMatch(/not complete JSON/);
    expect(r.requests[1]!.body.messages.at(-2)).toEqual({ role: "assistant", content: text.slice(0, 200) });
  });

  it("feeds a schema violation back with its code and source line, then accepts the fix", async () => {
    const r = await plan([openaiReply(JSON.stringify(schemaBadPlan())), openaiReply(JSON.stringify(goodPlan()))]);
    expect(r.status).toBe(0);
    const repair = r.requests[1]!.body.messages.at(-1).content as string;
    expect(repair).toContain("[PS104]");
    expect(repair).toContain("tool_name");
    expect(repair).toMatch(/out\.plan\.yaml:\d+:\d+:/);
    expect(r.stdout).toContain("2 model calls");
  });

  it("feeds write-without-evidence back and accepts the repaired plan", async () => {
    const r = await plan([openaiReply(JSON.stringify(blindWritePlan())), openaiReply(JSON.stringify(goodPlan()))]);
    expect(r.status).toBe(0);
    const repair = r.requests[1]!.body.messages.at(-1).content as string;
    expect(repair).toContain("[write-without-evidence]");
    expect(repair).toContain("fix_typo:");
    const trace = r.read("out.trace.jsonl")!.trim().split("\n").map((l) => JSON.parse(l));
    const rounds = trace.filter((e) => e.type === "diagnostics");
    expect(rounds[0].ok).toBe(false);
    expect(rounds[0].diagnostics.map((d: { code: string }) => d.code)).toContain("write-without-evidence");
    expect(rounds[1].ok).toBe(true);
  });

  it("exits 1 with the last diagnostics when repairs run out", async () => {
    const bad = openaiReply(JSON.stringify(blindWritePlan()));
    const r = await plan([bad, bad], ["--max-repairs", "1"]);
    expect(r.status).toBe(1);
    expect(r.requests).toHaveLength(2);
    expect(r.stdout).toContain("[write-without-evidence]");
    expect(r.stdout).toMatch(/error left after 1 repair/);
    // The plan is kept for review, but no IR claims it is usable.
    expect(r.read("out.plan.yaml")).toBeDefined();
    expect(r.read("out.ir.json")).toBeUndefined();
  });

  it("retries a 429 honouring retry-after, then succeeds", async () => {
    const r = await plan([errorReply(429, "rate limited", { "retry-after": "0" }), openaiReply(JSON.stringify(goodPlan()))]);
    expect(r.status).toBe(0);
    expect(r.requests).toHaveLength(2);
    const trace = r.read("out.trace.jsonl")!;
    expect(trace).toContain('"status":429');
  });

  it("gives one line and exit 2 on 401, with no retry", async () => {
    const r = await plan([errorReply(401, "Incorrect API key provided")]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/refused the API key \(401\): check OPENAI_API_KEY/);
    expect(r.stderr).not.toContain("sk-test-secret-123");
    expect(r.requests).toHaveLength(1);
  });

  it("gives one line and exit 2 on an unknown model (404)", async () => {
    const r = await plan([errorReply(404, "The model `nope` does not exist")], ["--model", "nope"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/model "nope" not found at .*The model `nope` does not exist/);
    expect(r.requests[0]!.body.model).toBe("nope");
  });

  it("falls back to JSON mode, then plain text, on a server without json_schema support", async () => {
    const reject = errorReply(400, "Invalid parameter: response_format of type 'json_schema' is not supported");
    const r = await plan([reject, errorReply(400, "response_format json_object is not supported"), openaiReply(JSON.stringify(goodPlan()))]);
    expect(r.status).toBe(0);
    expect(r.requests.map((q) => q.body.response_format?.type ?? "none")).toEqual(["json_schema", "json_object", "none"]);
    // Without structured output the schema travels in the prompt.
    expect(r.requests[2]!.body.messages[0].content).toContain('"required":["planspec","name","goal","steps"]');
  });

  it("refuses to start without a key, and names the variable", async () => {
    const dir = workspace();
    const r = await cliAsync(["plan", GOAL, "--tools", "tools.catalog.yaml"], dir, {});
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^planspec: OPENAI_API_KEY is not set/);
  });

  it("reports an unreachable server in one line, exit 2", async () => {
    const dir = workspace();
    // A port that was just free: nothing listens there, so the connection is refused.
    const closed = await startServer([]);
    const url = closed.url;
    await closed.close();
    const r = await cliAsync(["plan", GOAL, "--tools", "tools.catalog.yaml", "--base-url", `${url}/v1`, "--retries", "0"], dir, { OPENAI_API_KEY: "k" });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`cannot reach ${url}/v1/chat/completions: ECONNREFUSED`);
  });
});
