/**
 * MCP over Streamable HTTP: a server built with the official SDK in this test, on
 * 127.0.0.1, behind a bearer token. `import mcp --url` catalogues it, a plan calls it,
 * and a server whose tools changed since the import is refused as drift.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../runtime/helpers.js";
import { BIN } from "../cli/run-helpers.js";
// @ts-expect-error the fixture is plain JavaScript
import { buildServer } from "./fixtures/tools.mjs";

const TOKEN = "s3cret-token";
const serverEnv: Record<string, string | undefined> = {};
let http: Server;
let url: string;
const seen: { auth: string[]; keys: unknown[] } = { auth: [], keys: [] };
/** When set, the next tools/call of `crash` drops the connection instead of answering. */
let dropNextCrashCall = false;

/** The CLI without blocking this process's event loop (it serves the MCP server). */
function planspec(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: "1", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  http = createServer(async (req, res) => {
    seen.auth.push(String(req.headers.authorization));
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "unauthorized" }));
      return;
    }
    let body = "";
    for await (const chunk of req) body += chunk;
    const message = body ? (JSON.parse(body) as { method?: string; params?: { name?: string } }) : {};
    if (dropNextCrashCall && message.method === "tools/call" && message.params?.name === "crash") {
      dropNextCrashCall = false;
      req.socket.destroy();
      return;
    }
    // Stateless: a fresh server and transport per request, as the SDK documents.
    const server = buildServer(serverEnv, (r: { params: { _meta?: Record<string, unknown> } }) => seen.keys.push(r.params._meta?.["io.planspec/idempotency-key"]));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body ? message : undefined);
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await new Promise((r) => http?.close(r));
});

function plan(dir: string): void {
  writeFileSync(
    join(dir, "p.plan.yaml"),
    `planspec: 1
name: over-http
goal: Echo a word and post a note through an HTTP MCP server
limits: { max_tool_calls: 10 }
secrets: [MCP_TEST_TOKEN]
mcp:
  remote:
    url: ${url}
    headers: { Authorization: "Bearer \${MCP_TEST_TOKEN}" }
tools:
  import: ./remote.catalog.yaml
steps:
  say:
    kind: read
    goal: Echo the word hello
    tool: remote.echo
    with: { text: hello }
    output: said
    success:
      - check: \${{ output.echo == "hello" }}
  post:
    kind: external
    needs: say
    goal: Post a note about the word
    tool: remote.web
    with: { text: "\${{ steps.say.output.echo }}" }
    idempotency_key: note-\${{ run.id }}
    output: posted
`,
  );
}

describe("MCP over Streamable HTTP", () => {
  it("imports with --url and --header, and runs a plan against the server", async () => {
    const dir = tempDir("planspec-mcp-http-");
    const imp = await planspec(dir, ["import", "mcp", "remote", "--url", url, "--header", `Authorization: Bearer ${TOKEN}`, "-o", "remote.catalog.yaml"]);
    expect(imp.stderr).toBe(`wrote 6 tools of MCP server "remote" to remote.catalog.yaml\n`);
    expect(imp.code).toBe(0);
    expect(readFileSync(join(dir, "remote.catalog.yaml"), "utf8")).toMatch(/remote\.web:\n\s+risk: external/);
    plan(dir);
    const r = await planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate", "--run-dir", "run"], { MCP_TEST_TOKEN: TOKEN });
    expect(r.stdout, r.stderr).toMatch(/: done\n/);
    // The plan names the token; neither it nor the run directory holds it.
    for (const f of ["p.plan.yaml", "run/plan.ir.json", "run/events.jsonl", "run/config.json"]) expect(readFileSync(join(dir, f), "utf8")).not.toContain(TOKEN);
    const unset = await planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate"]);
    expect(unset.stderr).toBe("planspec: the plan reads the secret MCP_TEST_TOKEN: set the environment variable MCP_TEST_TOKEN\n");
    expect(seen.keys.filter((k) => typeof k === "string" && k.startsWith("note-"))).toHaveLength(1);
  });

  it("a server that refuses the credentials is one line, exit 2", async () => {
    const dir = tempDir("planspec-mcp-http-");
    const r = await planspec(dir, ["import", "mcp", "remote", "--url", url]);
    expect(r.stderr).toMatch(/^planspec: cannot start MCP server "remote" \(http:\/\/127\.0\.0\.1:\d+\/mcp\): .*\(HTTP 401\)\n$/);
    expect(r.code).toBe(2);
  });

  it("refuses a tool whose live schema drifted since the import", async () => {
    const dir = tempDir("planspec-mcp-http-");
    expect((await planspec(dir, ["import", "mcp", "remote", "--url", url, "--header", `Authorization: Bearer ${TOKEN}`, "-o", "remote.catalog.yaml"])).code).toBe(0);
    plan(dir);
    serverEnv.FIXTURE_DRIFT = "1";
    try {
      const r = await planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate"], { MCP_TEST_TOKEN: TOKEN });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('step "say" failed: MCP tool "remote.echo" drifted from the catalogue: input_schema.properties.text.type: catalogue "string", server "number"');
    } finally {
      delete serverEnv.FIXTURE_DRIFT;
    }
  });

  it("a connection dropped during a call is a failed attempt, retried on a new connection", async () => {
    const dir = tempDir("planspec-mcp-http-");
    expect((await planspec(dir, ["import", "mcp", "remote", "--url", url, "--header", `Authorization: Bearer ${TOKEN}`, "-o", "remote.catalog.yaml"])).code).toBe(0);
    writeFileSync(
      join(dir, "p.plan.yaml"),
      `planspec: 1\nname: dropped\ngoal: Survive a dropped connection\nlimits: { max_tool_calls: 5 }\nmcp:\n  remote: { url: "${url}", headers: { Authorization: "Bearer ${TOKEN}" } }\ntools:\n  import: ./remote.catalog.yaml\nsteps:\n  call:\n    kind: write\n    goal: Call the tool whose connection drops once\n    tool: remote.crash\n    retry: { max_attempts: 2, backoff: none }\n    idempotency_key: call-1\n`,
    );
    dropNextCrashCall = true;
    const r = await planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate"]);
    expect(dropNextCrashCall).toBe(false);
    expect(r.stderr).toMatch(/call: retry in 0ms \(attempt 2\)/);
    expect(r.stdout, r.stderr).toMatch(/: done\n/);
  });
});
