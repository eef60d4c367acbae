/**
 * Where requests go: through HTTP(S)_PROXY (a counting proxy on 127.0.0.1) unless
 * NO_PROXY says otherwise, and to Azure OpenAI's deployment URLs with its `api-key`
 * header and `api-version` query.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GOAL, cliAsync, goodPlan, workspace } from "../planner/fixtures.js";
import { type Proxy, startProxy } from "../planner/proxy.js";
import { azureRules, openaiRules } from "../planner/providers.js";
import { type ScriptServer, openaiReply, startServer } from "../planner/server.js";

let server: ScriptServer | undefined;
let proxy: Proxy | undefined;
afterEach(async () => {
  await server?.close();
  await proxy?.close();
  server = proxy = undefined;
});

const PLAN = JSON.stringify(goodPlan());
const planArgs = ["plan", GOAL, "--tools", "tools.catalog.yaml", "-o", "out"];

describe("proxies", () => {
  it("goes through HTTP_PROXY for an http:// base URL", async () => {
    server = await startServer([openaiReply(PLAN)], { check: openaiRules("k") });
    proxy = await startProxy();
    const r = await cliAsync([...planArgs, "--base-url", `${server.url}/v1`], workspace(), { OPENAI_API_KEY: "k", HTTP_PROXY: proxy.url });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(proxy.seen).toEqual([`CONNECT ${server.url.replace("http://", "")}`]);
    expect(server.requests).toHaveLength(1);
  });

  it("goes direct for a host in NO_PROXY", async () => {
    server = await startServer([openaiReply(PLAN)], { check: openaiRules("k") });
    proxy = await startProxy();
    const r = await cliAsync([...planArgs, "--base-url", `${server.url}/v1`], workspace(), { OPENAI_API_KEY: "k", http_proxy: proxy.url, NO_PROXY: "localhost,127.0.0.1" });
    expect(r.status).toBe(0);
    expect(proxy.seen).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("tunnels an https:// base URL through HTTPS_PROXY, naming the proxy (without its password) when it refuses", async () => {
    proxy = await startProxy({ refuse: true });
    const withAuth = proxy.url.replace("http://", "http://user:hunter2-proxy-pass@");
    const dir = workspace();
    const r = await cliAsync([...planArgs, "--base-url", "https://api.example.invalid/v1", "--retries", "0"], dir, { OPENAI_API_KEY: "k", HTTPS_PROXY: withAuth });
    expect(r.status).toBe(2);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(proxy.seen).toEqual(["CONNECT api.example.invalid:443"]);
    expect(r.stderr).toContain(`cannot reach https://api.example.invalid/v1/chat/completions`);
    expect(r.stderr).toContain(`(proxy setting: HTTPS_PROXY ${proxy.url})`);
    expect(r.stderr).not.toContain("hunter2-proxy-pass");
    expect(readFileSync(join(dir, "out.trace.jsonl"), "utf8")).not.toContain("hunter2-proxy-pass");
  });
});

describe("Azure OpenAI", () => {
  const KEY = "0123456789abcdef0123456789abcdef";

  it("--provider azure: the deployment URL, api-version and the api-key header", async () => {
    server = await startServer([openaiReply(PLAN)], { check: azureRules(KEY, "plan-gpt41") });
    const dir = workspace();
    const r = await cliAsync([...planArgs, "--provider", "azure", "--base-url", server.url, "--model", "plan-gpt41", "--api-version", "2024-10-21"], dir, { AZURE_OPENAI_API_KEY: KEY });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const req = server.requests[0]!;
    expect(req.path).toBe("/openai/deployments/plan-gpt41/chat/completions?api-version=2024-10-21");
    expect(req.headers["api-key"]).toBe(KEY);
    expect(req.headers.authorization).toBeUndefined();
    const trace = readFileSync(join(dir, "out.trace.jsonl"), "utf8");
    expect(trace).not.toContain(KEY);
    expect(JSON.parse(trace.split("\n")[0]!).provider).toBe("azure");
  });

  it("takes AZURE_OPENAI_ENDPOINT and OPENAI_API_VERSION, and a 404 names the deployment", async () => {
    server = await startServer([], { check: azureRules(KEY, "other") });
    const r = await cliAsync([...planArgs, "--provider", "azure", "--model", "plan-gpt41"], workspace(), {
      AZURE_OPENAI_API_KEY: KEY,
      AZURE_OPENAI_ENDPOINT: server.url,
      OPENAI_API_VERSION: "2025-01-01-preview",
    });
    expect(r.status).toBe(2);
    expect(server.requests[0]!.path).toBe("/openai/deployments/plan-gpt41/chat/completions?api-version=2025-01-01-preview");
    expect(r.stderr).toMatch(/^planspec: deployment "plan-gpt41" not found at \S+ \(404\) — The API deployment for this resource does not exist/);
  });

  it("keeps a deployment URL's query string at the end with --provider openai and --header api-key", async () => {
    server = await startServer([openaiReply(PLAN)], { check: azureRules(KEY, "d1") });
    const base = `${server.url}/openai/deployments/d1?api-version=2024-10-21`;
    const r = await cliAsync([...planArgs, "--base-url", base, "--header", `api-key=${KEY}`], workspace(), { OPENAI_API_KEY: "unused" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(server.requests[0]!.path).toBe("/openai/deployments/d1/chat/completions?api-version=2024-10-21");
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("refuses --provider azure without an endpoint, in one line", async () => {
    const r = await cliAsync([...planArgs, "--provider", "azure", "--model", "d"], workspace(), { AZURE_OPENAI_API_KEY: KEY });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("planspec: --provider azure needs --base-url https://<resource>.openai.azure.com (or AZURE_OPENAI_ENDPOINT) and --model <deployment>\n");
  });
});
