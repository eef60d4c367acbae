/**
 * Red team, secrets: forms of a secret the scrubber missed on main, and a careless
 * operator's typo that printed one. Real CLI, real run directories; every file of the
 * run and all output are searched.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeUnexpected } from "../../src/cli/errors.js";
import { filesUnder, planspec, put, scratch } from "./helpers.js";

const KEY = "sk-Probe-Secret-77aa";
const PASS = "orchid-velvet-9931-kappa";

const PLAN = `planspec: 1
name: forms
goal: a tool and a shell that print secrets in forms people meet in logs
secrets: [MAILER_PASSPHRASE]
inputs:
  api_key: { type: string, secret: true }
tools: { forms: { risk: read }, exec: { risk: write } }
steps:
  forms:
    kind: analyze
    goal: print the key as a Basic header, in hex and upper-cased
    tool: forms
    with: { key: "\${{ inputs.api_key }}", pass: "\${{ secrets.MAILER_PASSPHRASE }}" }
  shell:
    kind: write
    goal: print a Basic authorization header like curl -v does
    tool: exec
    with:
      command: >-
        printf 'Authorization: Basic %s\\n' "$(printf 'u:%s' "$MAILER_PASSPHRASE" | base64 -w0)";
        printf '%s:rest' "\${{ inputs.api_key }}" | base64 -w0
`;

const TOOLS = `export default {
  forms: { risk: "read", run: (a) => ({
    basic: "Basic " + Buffer.from("user:" + a.key).toString("base64"),
    basic2: "Basic " + Buffer.from("ab:" + a.pass).toString("base64url"),
    hex: Buffer.from(a.key).toString("hex"),
    HEX: Buffer.from(a.pass).toString("hex").toUpperCase(),
    upper: a.key.toUpperCase(),
    lower: a.pass.toLowerCase(),
  }) },
};`;

/** Every rendering the tools above produce, computed here independently. */
function leakedForms(): string[] {
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  return [
    b64(`user:${KEY}`),
    Buffer.from(`ab:${PASS}`).toString("base64url"),
    b64(`u:${PASS}`),
    b64(`${KEY}:rest`),
    Buffer.from(KEY).toString("hex"),
    Buffer.from(PASS).toString("hex").toUpperCase(),
    KEY.toUpperCase(),
    PASS.toLowerCase(),
    KEY,
    PASS,
  ];
}

describe("red team: secret forms the scrubber must catch", () => {
  it("a secret inside a Basic header (base64 at any offset), in hex and in another case: zero hits", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    put(ws, "tools.mjs", TOOLS);
    const r = planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "run", "--no-lint-gate", "--input", `api_key=${KEY}`], { MAILER_PASSPHRASE: PASS });
    expect(r.code).toBe(0);
    const status = planspec(ws, ["status", "run", "--json"]);
    const text = [r.stdout, r.stderr, status.stdout, status.stderr, ...filesUnder(join(ws, "run")).map((f) => readFileSync(f, "latin1"))].join("\n");
    expect(text).toContain("[redacted]");
    const leaks = leakedForms().filter((form) => text.includes(form));
    expect(leaks).toEqual([]);
  });

  it("--input without '=' does not print the value (a typo for api_key=...)", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "run", "--no-lint-gate", "--input", `api_key:${KEY}`], { MAILER_PASSPHRASE: PASS });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("--input expects name=value");
    expect(r.stderr).not.toContain(KEY.slice(0, 8));
  });

  it("a tool module that fails to load quoting a plan secret: the one line names the module, not the secret (run and resume)", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    put(ws, "tools.mjs", TOOLS);
    put(ws, "bad.mjs", 'throw new Error("config check failed: passphrase " + process.env.MAILER_PASSPHRASE + " rejected");');
    const env = { MAILER_PASSPHRASE: PASS };
    const run = planspec(ws, ["run", "p.plan.yaml", "--tools", "bad.mjs", "--run-dir", "run", "--no-lint-gate", "--input", `api_key=${KEY}`], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot load tool module .*bad\.mjs: config check failed: passphrase \[redacted\] rejected/);
    expect(planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "run", "--no-lint-gate", "--input", `api_key=${KEY}`], env).code).toBe(0);
    // A changed input gives the finished run steps to re-run, so resume loads the tools (a run with nothing to run does not).
    const resume = planspec(ws, ["resume", "run", "--tools", "bad.mjs", "--input", `api_key=${KEY}-rotated`], env);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain("[redacted]");
    expect(run.stderr + resume.stderr).not.toContain(PASS);
  });

  it("an internal error's line is scrubbed before it is cut at 200 characters (no half secret)", () => {
    const token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
    const { line } = describeUnexpected(new TypeError(`${"x".repeat(180)} ${token} tail`), { GITHUB_TOKEN: token });
    expect(line).toContain("internal error: TypeError");
    expect(line).not.toContain(token.slice(0, 12));
  });

  it("a 60 KB secret (a CA bundle) runs and is scrubbed: no 'regular expression too large' quoting its hex", () => {
    const ws = scratch();
    put(
      ws,
      "p.plan.yaml",
      `planspec: 1
name: bundle
goal: send a large certificate bundle to a tool that echoes part of it
secrets: [CA_BUNDLE]
tools: { echo: { risk: read } }
steps:
  echo:
    kind: analyze
    goal: echo the bundle
    tool: echo
    with: { b: "\${{ secrets.CA_BUNDLE }}" }
`,
    );
    put(ws, "tools.mjs", 'export default { echo: { risk: "read", run: (a) => ({ said: "got " + a.b + " and " + Buffer.from(a.b).toString("hex").toUpperCase() }) } };');
    let bundle = "";
    for (let i = 0; bundle.length < 60_000; i++) bundle += `MIIC${i.toString(36)}Qx`;
    const hexStart = Buffer.from(bundle.slice(0, 24)).toString("hex");
    const r = planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "run", "--no-lint-gate"], { CA_BUNDLE: bundle });
    expect(r.stderr).not.toContain("internal error");
    expect(r.code).toBe(0);
    const text = [r.stdout, r.stderr, ...filesUnder(join(ws, "run")).map((f) => readFileSync(f, "utf8"))].join("\n");
    expect(text).toContain("got [redacted] and [redacted]");
    expect(text).not.toContain(bundle.slice(0, 24));
    expect(text.toLowerCase()).not.toContain(hexStart);
  });

  it("a secret input that is a JSON object: each of its strings is a secret, not only the whole JSON text", () => {
    const ws = scratch();
    put(
      ws,
      "p.plan.yaml",
      `planspec: 1
name: creds
goal: log in with a credentials object
inputs:
  creds: { type: object, secret: true }
tools: { login: { risk: read } }
steps:
  login:
    kind: analyze
    goal: log in
    tool: login
    with: { creds: "\${{ inputs.creds }}" }
`,
    );
    put(ws, "tools.mjs", 'export default { login: { risk: "read", run: (a) => ({ said: "logged in as " + a.creds.user + " with " + a.creds.password }) } };');
    const password = "Zebra-Tulip-4411";
    const r = planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "run", "--no-lint-gate", "--input", `creds={"user":"svc-reports","password":"${password}"}`]);
    expect(r.code).toBe(0);
    const text = [r.stdout, r.stderr, ...filesUnder(join(ws, "run")).map((f) => readFileSync(f, "utf8"))].join("\n");
    expect(text).toContain("logged in as [redacted] with [redacted]");
    expect(text).not.toContain(password);
  });
});
