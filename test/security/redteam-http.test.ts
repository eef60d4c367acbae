/**
 * Red team, `http.request` and redirects: what a person approves is the step's evaluated
 * arguments, its URL's host among them. fetch follows redirects to any host: it drops
 * `Authorization` and `Cookie` on the way to another origin, but re-sends every other
 * header (an `X-Api-Key` from `secrets:`) and, for 307/308, the body. A payments API that
 * answers 307 (or an open redirect on it) sent the key and the order to a host nobody
 * approved, and a feed redirecting to a link-local address (a cloud metadata service)
 * had its answer stored as the step's output. Real CLI, real HTTP servers on 127.0.0.1
 * (two ports: two origins).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readOutput } from "../runtime/helpers.js";
import { planspecAsync, put, scratch } from "./helpers.js";

const KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c";

interface Seen {
  url: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A server on 127.0.0.1 that records what it gets; `answer` picks the reply. */
type Answer = { status: number; headers?: Record<string, string>; body?: string };
async function server(answer: (req: Seen, origin: string) => Answer): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  let origin = "";
  const s = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const r = { url: req.url ?? "", method: req.method ?? "", headers: req.headers, body };
      seen.push(r);
      const a = answer(r, origin);
      res.writeHead(a.status, a.headers ?? {});
      res.end(a.body ?? "");
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { origin, seen };
}

const plan = (url: string, method: string) => `planspec: 1
name: pay
goal: send the order to the payments API
secrets: [PAY_API_KEY]
tools: { fs.read: { risk: read }, http.request: { risk: external } }
limits: { max_tool_calls: 5 }
steps:
  read_order:
    kind: read
    goal: read the order
    tool: fs.read
    with: { path: order.json }
    output: order
  submit:
    kind: external
    goal: submit the order to the payments API
    needs: [read_order]
    tool: http.request
    with:
      url: "${url}"
      method: ${method}
      headers: { X-Api-Key: "\${{ secrets.PAY_API_KEY }}" }
${method === "GET" ? "" : '      body: "\${{ steps.read_order.output.content }}"\n'}    idempotency_key: "\${{ run.id }}:submit"
    timeout: 10s
    approval: { required: true, approvers: [ops], timeout: 1h }
    output: answer
`;

/** Runs the plan through the gate, approves the call, resumes; returns the step's stored output. */
async function approvedRun(url: string, method = "POST"): Promise<{ code: number | null; output: { status: number; headers: Record<string, string>; body: unknown }; ws: string }> {
  const ws = scratch();
  put(ws, "p.plan.yaml", plan(url, method));
  put(ws, "order.json", '{"card":"4242"}');
  const env = { PAY_API_KEY: KEY };
  const run = await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "r"], env);
  expect(run.code, run.stderr).toBe(3);
  expect((await planspecAsync(ws, ["approve", "r", "submit", "--by", "ops"])).code).toBe(0);
  const resumed = await planspecAsync(ws, ["resume", "r"], env);
  const status = await planspecAsync(ws, ["status", "r", "--json"]);
  const ref = (JSON.parse(status.stdout) as { nodes: Record<string, { outputRef?: string }> }).nodes.submit?.outputRef;
  const output = (ref === undefined ? undefined : await readOutput(join(ws, "r"), ref)) as never;
  return { code: resumed.code, output, ws };
}

describe("red team: http.request redirects to a host nobody approved", () => {
  it("a 307 to another origin is not followed: the key and the order stay home, the step sees the 307", async () => {
    const thief = await server(() => ({ status: 200, body: "thanks" }));
    const api = await server(() => ({ status: 307, headers: { location: `${thief.origin}/collect` } }));
    const r = await approvedRun(`${api.origin}/v1/orders`);
    expect(api.seen).toHaveLength(1);
    expect(api.seen[0]!.headers["x-api-key"]).toBe(KEY);
    // Before: the thief got the POST with x-api-key: sk-live-… and the order as its body.
    expect(thief.seen).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.output.status).toBe(307);
    expect(r.output.headers.location).toBe(`${thief.origin}/collect`);
  });

  it("a GET redirected to another address (a metadata service) is not followed", async () => {
    const metadata = await server(() => ({ status: 200, headers: { "content-type": "application/json" }, body: '{"AccessKeyId":"ASIAFAKE","SecretAccessKey":"metadata-secret"}' }));
    const feed = await server(() => ({ status: 302, headers: { location: `${metadata.origin}/latest/meta-data/iam/security-credentials/role` } }));
    const r = await approvedRun(`${feed.origin}/feed.json?order=\${{ steps.read_order.output.bytes }}`, "GET");
    // Before: the metadata answer was the step's output (and the key went there too).
    expect(metadata.seen).toEqual([]);
    expect(r.output.status).toBe(302);
    expect(JSON.stringify(r.output)).not.toContain("metadata-secret");
  });

  it("a redirect within the origin is still followed, with its headers and (307) its body", async () => {
    const api = await server((req) => (req.url === "/v1/orders" ? ({ status: 307, headers: { location: "/v2/orders" } } as Answer) : { status: 201, headers: { "content-type": "application/json" }, body: '{"id":"ord_1"}' }));
    const r = await approvedRun(`${api.origin}/v1/orders`);
    expect(r.code).toBe(0);
    expect(api.seen.map((s) => [s.method, s.url, s.headers["x-api-key"], s.body])).toEqual([
      ["POST", "/v1/orders", KEY, '{"card":"4242"}'],
      ["POST", "/v2/orders", KEY, '{"card":"4242"}'],
    ]);
    expect(r.output).toMatchObject({ status: 201, body: { id: "ord_1" } });
  });
});
