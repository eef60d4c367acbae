/**
 * Red team, LLM clients: a careless operator puts the gateway's credentials in the base
 * URL — a user and password (`https://user:pass@gw/v1`) or a key in the query
 * (`?key=…`). Neither may reach stderr or the trace. A real HTTP server on 127.0.0.1
 * that quotes the URL it was called with in its 400, like many gateways do.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GOAL, cliAsync, workspace } from "../planner/fixtures.js";
import { type ScriptServer, startServer } from "../planner/server.js";

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const planArgs = ["plan", GOAL, "--tools", "tools.catalog.yaml", "-o", "out", "--retries", "0"];

describe("red team: credentials in the base URL", () => {
  it("a key in the query string (?key=) is masked in the error line and the trace", async () => {
    const key = "QueryKey-5f0e11aa";
    // The server's answer quotes the request line, query and all.
    server = await startServer([], { check: (req) => ({ status: 400, body: { error: { message: `bad request for ${req.path}` } } }) });
    const dir = workspace();
    const r = await cliAsync([...planArgs, "--base-url", `${server.url}/v1?key=${key}`], dir, { OPENAI_API_KEY: "sk-unused-key-000000" });
    expect(r.status).toBe(2);
    expect(server.requests[0]!.path).toContain(key);
    expect(r.stderr).toContain("answered 400");
    const trace = readFileSync(join(dir, "out.trace.jsonl"), "utf8");
    expect(trace).toContain("[redacted]");
    expect(r.stderr + trace).not.toContain(key);
  });

  it("a user and password in the base URL are masked in the error line and the trace", async () => {
    const password = "Gw-Pass-9876543";
    server = await startServer([]);
    const dir = workspace();
    const base = server.url.replace("http://", `http://gateway:${password}@`);
    const r = await cliAsync([...planArgs, "--base-url", `${base}/v1`], dir, { OPENAI_API_KEY: "sk-unused-key-000000" });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    const trace = readFileSync(join(dir, "out.trace.jsonl"), "utf8");
    expect(r.stderr + trace).not.toContain(password);
  });
});
