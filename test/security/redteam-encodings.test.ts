/**
 * Red team, secret forms a scrubber of fixed forms misses: a URL encodes only some
 * characters of a query value (WHATWG: space, `"`, `<`, `>`; not `/` or `=`), and servers
 * written in Go or Python escape `<`, `>`, `&` and every non-ASCII character as `\uXXXX`
 * in JSON they send as text. A real HTTP server echoes what it was sent the way such
 * servers do; every file of the run, the report and all output are searched.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder, planspecAsync, put, scratch } from "./helpers.js";

const KEY = 'sk-live 4f9A/b="q"<7Zx>';
const SIG = "pässwörd<Go>2fa9-kappa";

/** JSON text as Go (`<`, `>`, `&`) and Python (`ensure_ascii`: non-ASCII) escape it. */
const asciiJson = (v: unknown) => JSON.stringify(v).replace(/[<>&'\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** The text of a file and, where it is JSON (or JSON lines), every string in it decoded: a stored `\\u003c` is the `\u003c` a reader sees. */
function readable(file: string): string {
  const text = readFileSync(file, "utf8");
  const out = [text];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(walk);
  };
  for (const chunk of [text, ...text.split("\n")]) {
    try {
      walk(JSON.parse(chunk));
    } catch {
      // Not JSON.
    }
  }
  return out.join("\n");
}

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const q = new URL(req.url!, "http://x").searchParams;
    res.writeHead(401, { "content-type": "text/plain" });
    res.end(`GET ${req.url} rejected\n${asciiJson({ key: q.get("key"), sig: q.get("sig") })}\n`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const plan = () => `planspec: 1
name: encodings
goal: call an API with a key in the query and read its answer
secrets: [SIGNING_SECRET]
inputs:
  api_key: { type: string, secret: true }
tools: { http.request: { risk: external } }
limits: { max_tool_calls: 5 }
steps:
  call:
    kind: external
    goal: call the API
    tool: http.request
    with: { url: "http://127.0.0.1:${port}/v1/check?key=\${{ inputs.api_key }}&sig=\${{ secrets.SIGNING_SECRET }}" }
    output: answer
`;

describe("red team: a secret partly percent-encoded or \\u-escaped is still a secret", () => {
  it("a URL's own encoding of a query value and Go/Python JSON escapes: zero hits in the run, status and report", async () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", plan());
    const env = { SIGNING_SECRET: SIG };
    const r = await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "run", "--no-lint-gate", "--input", `api_key=${KEY}`], env);
    expect(r.stderr).toContain("call: running -> done");
    const status = await planspecAsync(ws, ["status", "run", "--json"], env);
    const report = await planspecAsync(ws, ["report", "run", "-o", "report.html"], env);
    expect(report.code).toBe(0);
    const files = [...filesUnder(join(ws, "run")), join(ws, "report.html")];
    const text = [r.stdout, r.stderr, status.stdout, status.stderr, ...files.map(readable)].join("\n");
    // The server's answer is in the run, with the secrets taken out.
    expect(text).toContain("rejected");
    expect(text).toContain("[redacted]");
    const urlForm = new URL(`http://x/?key=${KEY}`).search.slice("?key=".length);
    const needles = [urlForm, asciiJson(KEY).slice(1, -1), asciiJson(SIG).slice(1, -1)];
    expect(needles.filter((n) => text.includes(n))).toEqual([]);
  });
});
