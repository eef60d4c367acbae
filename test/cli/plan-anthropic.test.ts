/** `planspec plan --provider anthropic` through the real bin against a local server speaking the Messages API. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GOAL, blindWritePlan, cliAsync, goodPlan, workspace } from "../planner/fixtures.js";
import { type ScriptServer, type Scripted, anthropicReply, errorReply, startServer } from "../planner/server.js";

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function plan(script: Scripted[], extra: string[] = []) {
  server = await startServer(script);
  const dir = workspace();
  const r = await cliAsync(
    ["plan", GOAL, "--provider", "anthropic", "--tools", "tools.catalog.yaml", "-o", "out", "--base-url", `${server.url}/v1`, ...extra],
    dir,
    { ANTHROPIC_API_KEY: "sk-ant-test-456" },
  );
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
});
