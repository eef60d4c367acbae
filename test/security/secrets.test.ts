/**
 * Secrets never reach a sink: a secret input (`secret: true`) and a plan secret
 * (`secrets: [NAME]`, from the environment) flow into tools that echo them, throw with
 * them and print them from a shell; then every file of the run directory, the HTML
 * report and every byte of stdout/stderr of run, resume, status and report are searched
 * for the values and their common encodings (URL, base64, JSON-escaped): zero hits.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "../runtime/pg-helpers.js";
import { filesUnder, json, planspec, put, scratch } from "./helpers.js";

const API_KEY = 'sk-live-4f9A/b+c="q"7Zx';
const PASSPHRASE = "orchid-velvet-9931-kappa"; // a name the env heuristics do not catch
const GH = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"; // caught by the existing env redaction

const forms = (s: string) => [s, encodeURIComponent(s), Buffer.from(s).toString("base64"), Buffer.from(s).toString("base64url"), JSON.stringify(s).slice(1, -1)];
const NEEDLES = [...new Set([API_KEY, PASSPHRASE, GH].flatMap(forms))];

const PLAN = `planspec: 1
name: leaky
goal: call a service with a key, a passphrase and a token
secrets: [MAILER_PASSPHRASE]
inputs:
  api_key: { type: string, secret: true, env: LEAKY_API_KEY }
  region: { type: string, default: eu }
tools: { echo: { risk: read }, boom: { risk: read }, exec: { risk: write } }
limits: { max_tool_calls: 20 }
steps:
  call:
    kind: analyze
    goal: echo the credentials back
    tool: echo
    output: echoed
    with: { key: "\${{ inputs.api_key }}", pass: "\${{ secrets.MAILER_PASSPHRASE }}", note: "k=\${{ inputs.api_key }} p=\${{ secrets.MAILER_PASSPHRASE }}" }
    idempotency_key: "call-\${{ inputs.api_key }}"
  shell:
    kind: write
    goal: print the credentials from a shell
    tool: exec
    output: printed
    with:
      command: >-
        echo "$MAILER_PASSPHRASE $GITHUB_TOKEN"; echo "key=\${{ inputs.api_key }}" >&2;
        printf %s "\${{ inputs.api_key }}" | base64; node -e 'console.log(encodeURIComponent(process.argv[1]))' "\${{ inputs.api_key }}"
  fail:
    kind: analyze
    goal: fail with the credentials in the message
    needs: [call, shell]
    tool: boom
    with: { key: "\${{ inputs.api_key }}", pass: "\${{ secrets.MAILER_PASSPHRASE }}" }
`;

const TOOLS = `export default {
  echo: { risk: "read", run: (a) => a },
  boom: { risk: "read", run: (a) => { throw new Error("auth failed for " + a.key + " with " + a.pass + " and " + process.env.GITHUB_TOKEN + " " + encodeURIComponent(a.key)); } },
};`;

function hits(text: string): string[] {
  return NEEDLES.filter((n) => text.includes(n));
}

describe("secrets are scrubbed at the one boundary every sink goes through", () => {
  it("run, resume, status, status --json, report: zero hits in every file and all output", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    put(ws, "tools.mjs", TOOLS);
    const env = { MAILER_PASSPHRASE: PASSPHRASE, GITHUB_TOKEN: GH };
    const outputs: Array<{ cmd: string; text: string }> = [];
    const cli = (args: string[], extra: Record<string, string> = {}) => {
      const r = planspec(ws, args, { ...env, ...extra });
      outputs.push({ cmd: args.join(" "), text: r.stdout + r.stderr });
      return r;
    };

    const first = cli(["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "run", "--no-lint-gate", "--input", `api_key=${API_KEY}`]);
    expect(first.code).toBe(1);
    const run = join(ws, "run");
    const state = json<{ inputs: Record<string, unknown>; reason: string; nodes: Record<string, { status: string; lastError?: string }> }>(join(run, "state.json"));
    // The tools did see the real values: the failure names them, scrubbed.
    expect(state.nodes.fail!.lastError).toBe("auth failed for [redacted] with [redacted] and [redacted] [redacted]");
    expect(state.nodes.call!.status).toBe("done");
    expect(state.nodes.shell!.status).toBe("done");
    expect(state.inputs.api_key).toMatch(/^\[secret scrypt:[0-9a-f]{16}\]$/);
    expect(state.inputs.region).toBe("eu");

    // resume without the secret input: refused in one line.
    const without = cli(["resume", "run", "--no-lint-gate"]);
    expect(without.stderr.trim()).toBe('planspec: resume needs the secret input "api_key" again: pass --input api_key=... or set LEAKY_API_KEY');
    expect(without.code).toBe(2);
    // ... and without the plan secret.
    const noPlanSecret = planspec(ws, ["resume", "run", "--no-lint-gate", "--input", `api_key=${API_KEY}`], { GITHUB_TOKEN: GH, MAILER_PASSPHRASE: "" });
    outputs.push({ cmd: "resume without MAILER_PASSPHRASE", text: noPlanSecret.stdout + noPlanSecret.stderr });
    expect(noPlanSecret.stderr.trim()).toBe("planspec: the plan reads the secret MAILER_PASSPHRASE: set the environment variable MAILER_PASSPHRASE");
    expect(noPlanSecret.code).toBe(2);
    // With it again (here from the environment variable the plan names), the run continues.
    const again = cli(["resume", "run", "--no-lint-gate"], { LEAKY_API_KEY: API_KEY });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("fail: pending -> running");

    cli(["status", "run"]);
    cli(["status", "run", "--json"]);
    expect(cli(["report", "run", "-o", "report.html"]).code).toBe(0);

    const leaks: string[] = [];
    for (const file of [...filesUnder(run), join(ws, "report.html")]) {
      for (const h of hits(readFileSync(file, "latin1"))) leaks.push(`${file}: ${h}`);
    }
    for (const o of outputs) for (const h of hits(o.text)) leaks.push(`output of ${o.cmd}: ${h}`);
    expect(leaks).toEqual([]);
    expect(filesUnder(run).length).toBeGreaterThan(5);
  });

  it("a changed secret input on resume re-runs the steps that read it; the same one does not", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    put(ws, "tools.mjs", TOOLS);
    const env = { MAILER_PASSPHRASE: PASSPHRASE, GITHUB_TOKEN: GH };
    planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "run", "--no-lint-gate", "--input", `api_key=${API_KEY}`], env);
    const same = planspec(ws, ["resume", "run", "--no-lint-gate", "--input", `api_key=${API_KEY}`], env);
    expect(same.stderr).not.toContain("reset to pending (an input it reads changed)");
    const changed = planspec(ws, ["resume", "run", "--no-lint-gate", "--input", "api_key=sk-other-value-123"], env);
    expect(changed.stderr).toContain("call: reset to pending (an input it reads changed)");
  });
});

describe("the same boundary in the PostgreSQL store", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("run and resume --store, status --store (--json): zero hits in any row of any table and in all output", async () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    put(ws, "tools.mjs", TOOLS);
    const env = { MAILER_PASSPHRASE: PASSPHRASE, GITHUB_TOKEN: GH, LEAKY_API_KEY: API_KEY };
    expect(planspec(ws, ["store", "migrate", "--store", db.url]).code).toBe(0);
    let output = "";
    for (const args of [
      ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", "leaky-1", "--no-lint-gate", "--store", db.url],
      ["resume", "leaky-1", "--store", db.url],
      ["status", "leaky-1", "--store", db.url],
      ["status", "leaky-1", "--json", "--store", db.url],
    ]) {
      const r = planspec(ws, args, env);
      output += r.stdout + r.stderr;
    }
    expect(output).toContain("auth failed for [redacted]");
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    let rows = "";
    try {
      const tables = await c.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'planspec'");
      for (const { table_name } of tables.rows) {
        const r = await c.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM planspec.${table_name} t`);
        rows += r.rows.map((x) => x.row).join("\n");
      }
    } finally {
      await c.end();
    }
    expect(rows).toContain("[secret scrypt:");
    expect(hits(rows)).toEqual([]);
    expect(hits(output)).toEqual([]);
  });
});
