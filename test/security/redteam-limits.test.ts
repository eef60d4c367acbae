/**
 * Red team, limits: the per-step output limit must stop a tool while it reads, not after
 * it has read everything into memory — a server that streams a body without end, a
 * (sparse) file far larger than the limit. A real HTTP server on 127.0.0.1, a real file,
 * the real CLI.
 */
import { openSync, closeSync, ftruncateSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliAsync } from "../planner/fixtures.js";
import { json, planspec, put, scratch } from "./helpers.js";

type State = { nodes: Record<string, { status: string; lastError?: string }> };

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

describe("red team: the output limit applies while a tool reads", () => {
  it("http.request of a body that never ends fails at the limit, and the connection is dropped", async () => {
    let sent = 0;
    let closed = false;
    server = createServer((req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(256 * 1024, "x");
      // 12.5 MB/s, without end: only the client can stop it.
      const t = setInterval(() => {
        sent += chunk.length;
        res.write(chunk);
      }, 20);
      res.on("close", () => {
        closed = true;
        clearInterval(t);
      });
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed`;
    const dir = scratch();
    put(
      dir,
      "p.plan.yaml",
      `planspec: 1
name: feed
goal: fetch a feed
tools: { http.request: { risk: external } }
steps:
  fetch:
    kind: analyze
    goal: fetch the feed
    risk: external
    tool: http.request
    timeout: 8s
    with: { url: "${url}" }
`,
    );
    const r = await cliAsync(["run", "p.plan.yaml", "--run-dir", "run", "--no-lint-gate", "--max-output-size", "1MB"], dir);
    expect(r.status).toBe(1);
    const state = json<State>(join(dir, "run/state.json"));
    expect(state.nodes.fetch!.lastError).toBe(`the response body of ${url} is more than 1 MiB (the per-step output limit; raise it with --max-output-size)`);
    expect(closed).toBe(true);
    // Stopped near the limit, not at the step timeout.
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  it("fs.read of a file larger than the limit is refused before it is read", () => {
    const dir = scratch();
    mkdirSync(join(dir, "ws"));
    const fd = openSync(join(dir, "ws/huge.log"), "w");
    ftruncateSync(fd, 1024 ** 3); // 1 GiB, sparse
    closeSync(fd);
    put(
      dir,
      "p.plan.yaml",
      `planspec: 1
name: huge
goal: read a log
tools: { fs.read: { risk: read } }
steps:
  read:
    kind: analyze
    goal: read the log
    tool: fs.read
    with: { path: huge.log }
`,
    );
    const r = planspec(dir, ["run", "p.plan.yaml", "--workspace", "ws", "--run-dir", "run", "--no-lint-gate"]);
    expect(r.code).toBe(1);
    const state = json<State>(join(dir, "run/state.json"));
    expect(state.nodes.read!.lastError).toBe('path "huge.log" is more than 16 MiB (the per-step output limit; raise it with --max-output-size)');
  });
});
