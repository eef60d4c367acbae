/**
 * The `llm.complete` built-in (SPEC §5) over the planner's provider settings: a real
 * `planspec run` process talks to a real HTTP server on 127.0.0.1 speaking the
 * OpenAI-compatible and the Anthropic wire protocols (build first).
 */
import { afterEach, describe, expect, it } from "vitest";
import { cliAsync } from "../planner/fixtures.js";
import { anthropicReply, openaiReply, startServer, type ScriptServer } from "../planner/server.js";
import { readState, tempDir, writeFile } from "./helpers.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const PLAN = (withArgs: string) => `planspec: 1
name: ask
goal: Ask a model to name the anomaly
inputs: { q: { type: string } }
tools: { llm.complete: { risk: read } }
limits: { max_tool_calls: 5 }
steps:
  ask:
    kind: analyze
    goal: ask the model which order looks wrong
    tool: llm.complete
    with: ${withArgs}
    output: answer
`;

function run(cwd: string, args: string[], env: Record<string, string>) {
  return cliAsync(args, cwd, env).then((r) => ({ code: r.status, stdout: r.stdout, stderr: r.stderr }));
}

function output(ws: string, runId: string): unknown {
  const st = readState(join(ws, ".planspec/runs", runId));
  return JSON.parse(readFileSync(join(ws, ".planspec/runs", runId, st.nodes.ask!.outputRef!), "utf8"));
}

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = "sk-test-0123456789abcdef";

describe("llm.complete", () => {
  it("speaks chat completions to an OpenAI-compatible server named by PLANSPEC_LLM_BASE_URL", async () => {
    server = await startServer([openaiReply("order 1002: negative amount")]);
    const ws = tempDir("planspec-llm-");
    writeFile(ws, "ask.plan.yaml", PLAN(`{ prompt: "\${{ inputs.q }}", system: "Answer in one line.", max_tokens: 64 }`));
    const r = await run(ws, ["run", "ask.plan.yaml", "--run-id", "o1", "--input", "q=Which order is wrong?", "--no-lint-gate"], {
      OPENAI_API_KEY: KEY,
      PLANSPEC_LLM_BASE_URL: `${server.url}/v1`,
      PLANSPEC_LLM_MODEL: "local-model",
    });
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body).toEqual({
      model: "local-model",
      max_tokens: 64,
      messages: [
        { role: "system", content: "Answer in one line." },
        { role: "user", content: "Which order is wrong?" },
      ],
    });
    expect(output(ws, "o1")).toEqual({ text: "order 1002: negative amount", provider: "openai", model: "local-model", usage: { input_tokens: 1200, output_tokens: 300 }, truncated: false });
    // The key is in no file of the run.
    const events = readFileSync(join(ws, ".planspec/runs/o1/events.jsonl"), "utf8");
    expect(events).not.toContain(KEY);
  });

  it("speaks the Messages API with provider anthropic; the model may come from the step", async () => {
    const reply = anthropicReply({});
    (reply.body as { content: unknown[] }).content = [{ type: "text", text: "order 1002" }];
    (reply.body as { stop_reason: string }).stop_reason = "max_tokens";
    server = await startServer([reply]);
    const ws = tempDir("planspec-llm-");
    writeFile(ws, "ask.plan.yaml", PLAN(`{ prompt: "\${{ inputs.q }}", model: claude-test }`));
    const r = await run(ws, ["run", "ask.plan.yaml", "--run-id", "a1", "--input", "q=Which one?", "--no-lint-gate"], {
      ANTHROPIC_API_KEY: KEY,
      PLANSPEC_LLM_PROVIDER: "anthropic",
      PLANSPEC_LLM_BASE_URL: `${server.url}/v1`,
    });
    expect(r.code, r.stderr).toBe(0);
    const req = server.requests[0]!;
    expect(req.path).toBe("/v1/messages");
    expect(req.headers["x-api-key"]).toBe(KEY);
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req.body).toEqual({ model: "claude-test", max_tokens: 1024, messages: [{ role: "user", content: "Which one?" }] });
    expect(output(ws, "a1")).toEqual({ text: "order 1002", provider: "anthropic", model: "claude-test", usage: { input_tokens: 900, output_tokens: 250 }, truncated: true });
  });

  it("ends a call that never answers at the step's timeout, not the client's 120 s", async () => {
    server = await startServer([{ ...openaiReply("never sent"), hang: true }]);
    const ws = tempDir("planspec-llm-");
    writeFile(ws, "ask.plan.yaml", PLAN(`{ prompt: x }\n    timeout: 1s`));
    const started = Date.now();
    const r = await run(ws, ["run", "ask.plan.yaml", "--run-id", "t1", "--input", "q=x", "--no-lint-gate"], { OPENAI_API_KEY: KEY, PLANSPEC_LLM_BASE_URL: `${server.url}/v1` });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/step "ask" failed: .*(timed out|timeout)/i);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(server.requests).toHaveLength(1);
  });

  it("fails the step in one line: no key, a refused key, a base URL the plan tries to set", async () => {
    server = await startServer([{ status: 401, body: { error: { message: "invalid api key" } } }]);
    const ws = tempDir("planspec-llm-");
    writeFile(ws, "ask.plan.yaml", PLAN(`{ prompt: "\${{ inputs.q }}" }`));
    const noKey = await run(ws, ["run", "ask.plan.yaml", "--run-id", "k0", "--input", "q=x", "--no-lint-gate"], { PLANSPEC_LLM_BASE_URL: `${server.url}/v1` });
    expect(noKey.code).toBe(1);
    expect(noKey.stdout).toMatch(/step "ask" failed: llm.complete: OPENAI_API_KEY is not set/);
    expect(server.requests).toHaveLength(0);

    const refused = await run(ws, ["run", "ask.plan.yaml", "--run-id", "k1", "--input", "q=x", "--no-lint-gate"], { OPENAI_API_KEY: KEY, PLANSPEC_LLM_BASE_URL: `${server.url}/v1` });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/step "ask" failed: llm.complete: .*refused the API key \(401\): check OPENAI_API_KEY/);
    expect(refused.stdout + refused.stderr).not.toContain(KEY);

    // The endpoint is the operator's choice: a plan must not send the key elsewhere.
    writeFile(ws, "leak.plan.yaml", PLAN(`{ prompt: x, base_url: "http://127.0.0.1:9/v1" }`));
    const leak = await run(ws, ["run", "leak.plan.yaml", "--run-id", "k2", "--input", "q=x", "--no-lint-gate"], { OPENAI_API_KEY: KEY, PLANSPEC_LLM_BASE_URL: `${server.url}/v1` });
    expect(leak.code).toBe(1);
    expect(leak.stdout).toMatch(/llm.complete: unknown argument "base_url"/);
    expect(server.requests).toHaveLength(1);
  });
});
