/**
 * Red team, a secret in markup: a server that rejects a credential often says so in an
 * HTML page or an XML fault, quoting what it got with the markup escapes of its language
 * (Python's `html.escape`: `&amp; &lt; &gt; &quot; &#x27;`; Go's `html.EscapeString`:
 * `&#34; &#39;`; PHP's `htmlspecialchars`: `&#039;`; numeric references of any width).
 * A password with `&`, `<`, `"` or `'` is ordinary; the scrubber knew URL and JSON
 * escapes but not these. A real HTTP server; every file of the run, status --json, the
 * report and all output are searched.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder, planspecAsync, put, scratch } from "./helpers.js";

const PASSWORD = `Tr0ub4dor&3<x>"q'z`;

const STYLES: Record<string, (s: string) => string> = {
  python: (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;"),
  go: (s) => s.replace(/&/g, "&amp;").replace(/'/g, "&#39;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&#34;"),
  php: (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#039;").replace(/</g, "&lt;").replace(/>/g, "&gt;"),
  numeric: (s) => s.replace(/[^A-Za-z0-9]/g, (c) => `&#${c.charCodeAt(0)};`),
  hex: (s) => s.replace(/[^A-Za-z0-9]/g, (c) => `&#X${c.charCodeAt(0).toString(16).toUpperCase()};`),
};

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const pw = String(req.headers["x-password"] ?? "");
    res.writeHead(401, { "content-type": "text/html" });
    res.end(`<html><body><h1>Login failed</h1>\n${Object.entries(STYLES).map(([k, f]) => `<p class="${k}">password <code>${f(pw)}</code> rejected</p>`).join("\n")}\n</body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const plan = () => `planspec: 1
name: markup
goal: log in to the admin console and read its answer
secrets: [CONSOLE_PASSWORD]
tools: { http.request: { risk: external } }
limits: { max_tool_calls: 5 }
steps:
  login:
    kind: external
    goal: log in to the console
    tool: http.request
    with: { url: "http://127.0.0.1:${port}/login", headers: { X-Password: "\${{ secrets.CONSOLE_PASSWORD }}" } }
    output: answer
`;

describe("red team: a secret HTML- or XML-escaped is still a secret", () => {
  it("five escape styles of a password in an HTML page: zero hits in the run, status and report", async () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", plan());
    const env = { CONSOLE_PASSWORD: PASSWORD };
    const r = await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "run", "--no-lint-gate"], env);
    expect(r.stderr).toContain("login: running -> done");
    const status = await planspecAsync(ws, ["status", "run", "--json"], env);
    const report = await planspecAsync(ws, ["report", "run", "-o", "report.html"], env);
    expect(report.code).toBe(0);
    const files = filesUnder(join(ws, "run")).map((f) => readFileSync(f, "utf8"));
    const text = [r.stdout, r.stderr, status.stdout, status.stderr, readFileSync(join(ws, "report.html"), "utf8"), ...files].join("\n");
    // The page is in the run (JSON-escaped in the files), with the password taken out of every paragraph.
    expect(text).toContain("Login failed");
    // Before: all five forms verbatim in the artifact and the events.
    const needles = Object.entries(STYLES).map(([k, f]) => [k, f(PASSWORD)]);
    const found = needles.filter(([, n]) => text.includes(n!) || text.includes(JSON.stringify(n).slice(1, -1)));
    expect(found.map(([k]) => k)).toEqual([]);
    expect(text.match(/<code>\[redacted\]<\/code> rejected/g)?.length).toBeGreaterThanOrEqual(5);
  });
});
