/**
 * Red team, round 7. Each case escaped on main at 5b8fda5:
 * - `exec` handed the operator's credentials whose names the guess missed (`MYSQL_PWD`,
 *   `DB_PASS`, `GPG_PASSPHRASE`, `CI_JOB_JWT`, `…_CONNECTION_STRING`, `…_WEBHOOK_URL`,
 *   `SENTRY_DSN`) to the repository's script, which wrote them to the workspace and echoed
 *   them into the run;
 * - `http.request` never sent the step's idempotency key: a keyed POST retried after its
 *   timeout (or re-run after a crash) was applied twice by an API that dedupes by key;
 * - an approval held when a resume gave the plan's `secrets:` other values (the approved
 *   announcement went to another webhook);
 * - an approved `exec sh ./deploy.sh` ran the script as rewritten after the approval (the
 *   binding covered the command's text, not the file it runs);
 * - a dying MCP server's stderr line that arrived in two chunks was quoted as two lines
 *   joined by " | ": the scrubber saw two halves of the password, not the password;
 * - `exec` decoded each chunk of a program's output alone: a secret's non-ASCII character
 *   cut between two chunks became two U+FFFDs, and the rest of the secret stayed in clear.
 * - a plan run with `--workspace W` from another directory (or a run made from a subdirectory
 *   of the workspace) read another run's salt under `W/.planspec/runs` and appended forged
 *   events to it: only the runs root of the current directory was guarded;
 * - an `exec` step past its timeout got a SIGTERM to its shell only: a script ignoring it, or
 *   the program it was running, did its effect after the step had failed as timed out and
 *   beside the retry (twice in all);
 * - a tool module that logs its arguments (`console.log("calling with", args)`, at import
 *   or in `run`) printed the plan's token on the terminal, a CI log;
 * - a tool that returned a Node Buffer (`execSync(…)`, `readFileSync(p)`) stored its bytes as
 *   JSON numbers (`{"type":"Buffer","data":[115,118,99,…]}`): a secret in them was in no form
 *   the scrubber knew;
 * - `planspec resolve --adopt RESULT.json` after a kill -9 mid-call stored the adopted result
 *   (a copy of the API's answer, quoting the webhook's signing secret) unscrubbed in the
 *   artifacts and the idempotency record;
 * - a run directory another local user had made (`--run-dir /tmp/nightly`, a shared
 *   place) was used: that user replaced config.json (the run's tool modules) and the
 *   operator's resume imported their module as root; or approved the gated step with
 *   `planspec approve` after copying the records to files of their own.
 * Real CLI, real shells and programs, a real second user (uid 65534), a real MCP server process, real HTTP servers on 127.0.0.1.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readOutput } from "../runtime/helpers.js";
import { killHard, startPlanspec, waitFor } from "../cli/run-helpers.js";
import { events, everything, filesUnder, json, planspec, planspecAsync, put, reviewedDeployPlan, scratch, secretPrintPlan } from "./helpers.js";

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An HTTP server on 127.0.0.1 recording each request; `delay` picks how long each answer waits. */
async function server(answer: (req: Seen, n: number) => { status: number; body: string; delay?: number }): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const s = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const r = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      seen.push(r);
      const a = answer(r, seen.length);
      setTimeout(() => {
        res.writeHead(a.status, { "content-type": "application/json" });
        res.end(a.body);
      }, a.delay ?? 0);
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return { origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen };
}

describe("red team 7: exec's environment, credentials under names the guess missed", () => {
  const CREDS: Record<string, string> = {
    MYSQL_PWD: "hunter2-mysql-8812",
    DB_PASS: "Sup3r-db-pass-6630",
    SMTP_PASS: "smtp-relay-pass-1907",
    GPG_PASSPHRASE: "correct horse battery staple",
    CI_JOB_JWT: "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJqb2IifQ.c2lnbmF0dXJlLW9mLWpvYg",
    AZURE_STORAGE_CONNECTION_STRING: "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==;EndpointSuffix=core.windows.net",
    SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T0ACME/B0ACME/q8ZrW2mLxK4vT7nP3sYcJ9dF",
    SENTRY_DSN: "https://9f2c4e6a8b0d4f1e3a5c7e9b1d3f5a7c@o12345.ingest.sentry.io/67890",
  };
  const PLAIN: Record<string, string> = { PWD_HINT: "not-a-secret", BYPASS_CACHE: "1", PASSENGER_APP_ENV: "production-blue", COMPASS_MODE: "northbound" };

  const PLAN = `planspec: 1
name: build
goal: run the repository's build script
secrets: [SMTP_PASS]
tools: { fs.read: { risk: read }, exec: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  read_script:
    kind: read
    goal: read the build script of the checked-out repository
    tool: fs.read
    with: { path: build.sh }
    output: script
  build:
    kind: write
    needs: [read_script]
    goal: run the build script that was read
    tool: exec
    with: { command: "sh ./build.sh", env: { SCRIPT_BYTES: "\${{ steps.read_script.output.bytes }}" } }
    output: log
`;
  // The repository's script: what it was handed goes to a file of the workspace and into its output.
  const SCRIPT = `env > leaked-env.txt
for n in ${[...Object.keys(CREDS), ...Object.keys(PLAIN)].join(" ")}; do eval "echo $n=\\$$n"; done
`;

  it("holds them back unless the plan lists them, and scrubs a listed one; plain names still arrive", async () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    put(ws, "build.sh", SCRIPT);
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "run"], { ...CREDS, ...PLAIN });
    expect(r.code, r.stderr).toBe(0);
    const leaked = readFileSync(join(ws, "leaked-env.txt"), "utf8");
    // Before: all eight in leaked-env.txt, and seven verbatim in the step's output (SMTP_PASS, listed, was scrubbed).
    for (const [name, value] of Object.entries(CREDS)) {
      if (name === "SMTP_PASS") expect(leaked).toContain(`SMTP_PASS=${value}`);
      else expect(leaked, name).not.toContain(value);
    }
    const text = everything(ws, "run", [r.stdout, r.stderr]);
    for (const [name, value] of Object.entries(CREDS)) expect(text, name).not.toContain(value);
    // Not credentials: handed on, and not scrubbed from the output.
    for (const [name, value] of Object.entries(PLAIN)) expect(leaked).toContain(`${name}=${value}`);
    const log = (await readOutput(join(ws, "run"), json<{ nodes: { build: { outputRef: string } } }>(join(ws, "run/state.json")).nodes.build.outputRef)) as { stdout: string };
    expect(log.stdout).toContain("PASSENGER_APP_ENV=production-blue");
    expect(log.stdout).toContain("SMTP_PASS=[redacted]");
    expect(log.stdout).toContain("MYSQL_PWD=\n");
  });
});

describe("red team 7: http.request carries the step's idempotency key", () => {
  const plan = (url: string) => `planspec: 1
name: notes
goal: post the release note to the notes service once
tools: { fs.read: { risk: read }, http.request: { risk: external } }
limits: { max_tool_calls: 5 }
steps:
  read_note:
    kind: read
    goal: read the release note
    tool: fs.read
    with: { path: note.txt }
    output: note
  post_note:
    kind: external
    goal: post the release note to the notes service
    needs: [read_note]
    tool: http.request
    with:
      url: "${url}"
      method: POST
      body: { text: "\${{ steps.read_note.output.content }}" }
    idempotency_key: "note:\${{ run.id }}:v1.2"
    timeout: 1s
    retry: { max_attempts: 2, backoff: fixed, initial_delay: 50ms }
    approval: { required: true, approvers: [ops], timeout: 1h }
    output: posted
`;

  it("a POST retried after its timeout is applied once by an API that dedupes by Idempotency-Key", async () => {
    // Applies a note once per key (as Stripe does); the first answer comes after the step's timeout.
    const applied: string[] = [];
    const api = await server((req, n) => {
      const key = req.headers["idempotency-key"];
      if (typeof key !== "string" || !applied.includes(key)) applied.push(typeof key === "string" ? key : `no key ${n}`);
      return { status: 201, body: `{"id":"note_${applied.length}"}`, delay: n === 1 ? 2500 : 0 };
    });
    const ws = scratch();
    put(ws, "p.plan.yaml", plan(`${api.origin}/v1/notes`));
    put(ws, "note.txt", "v1.2 is out");
    expect((await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "r"])).code).toBe(3);
    expect((await planspecAsync(ws, ["approve", "r", "post_note", "--by", "ops"])).code).toBe(0);
    const resumed = await planspecAsync(ws, ["resume", "r"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(events(join(ws, "r")).filter((e) => e.type === "tool.call" && e.data.node === "post_note")).toHaveLength(2);
    expect(api.seen).toHaveLength(2);
    // Before: two POSTs without a key, two notes.
    const sent = createHash("sha256").update("note:r:v1.2").digest("hex");
    expect(api.seen.map((s) => s.headers["idempotency-key"])).toEqual([sent, sent]);
    expect(applied).toEqual([sent]);
  });

  it("a key the plan sets itself is kept; a key that is no header value (and says what it is made of) goes as its sha256", async () => {
    const api = await server(() => ({ status: 200, body: "{}" }));
    const ws = scratch();
    put(
      ws,
      "p.plan.yaml",
      plan(`${api.origin}/v1/notes`)
        .replace("      method: POST\n", "      method: POST\n      headers: { Idempotency-Key: mine-1 }\n")
        .replace("timeout: 1s", "timeout: 10s"),
    );
    put(ws, "note.txt", "v1.2 is out");
    await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "r"]);
    await planspecAsync(ws, ["approve", "r", "post_note", "--by", "ops"]);
    expect((await planspecAsync(ws, ["resume", "r"])).code).toBe(0);
    expect(api.seen.map((s) => s.headers["idempotency-key"])).toEqual(["mine-1"]);

    const ws2 = scratch();
    put(ws2, "p.plan.yaml", plan(`${api.origin}/v1/notes`).replace("note:${{ run.id }}:v1.2", "Notiz für Zoë").replace("timeout: 1s", "timeout: 10s"));
    put(ws2, "note.txt", "v1.2 is out");
    await planspecAsync(ws2, ["run", "p.plan.yaml", "--run-dir", "r"]);
    await planspecAsync(ws2, ["approve", "r", "post_note", "--by", "ops"]);
    const r2 = await planspecAsync(ws2, ["resume", "r"]);
    expect(r2.code, r2.stderr).toBe(0);
    expect(api.seen[1]!.headers["idempotency-key"]).toBe(createHash("sha256").update("Notiz für Zoë").digest("hex"));
  });
});

describe("red team 7: an approval is bound to the values of the plan's secrets", () => {
  const PLAN = `planspec: 1
name: hook
goal: announce the release in the team channel
secrets: [CHAT_WEBHOOK]
tools: { fs.read: { risk: read }, http.request: { risk: external } }
limits: { max_tool_calls: 5 }
steps:
  read_note:
    kind: read
    goal: read the release note
    tool: fs.read
    with: { path: note.txt }
    output: note
  announce:
    kind: external
    goal: announce the release in the team channel
    needs: [read_note]
    tool: http.request
    with:
      url: "\${{ secrets.CHAT_WEBHOOK }}"
      method: POST
      body: { text: "\${{ steps.read_note.output.content }}" }
    idempotency_key: "announce:\${{ run.id }}"
    approval: { required: true, approvers: [ops], timeout: 1h }
    output: posted
`;

  async function approved(resumeWith: (origin: string) => string): Promise<{ team: Seen[]; customers: Seen[]; code: number | null; ws: string }> {
    const hooks = await server(() => ({ status: 200, body: "{}" }));
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    put(ws, "note.txt", "v1.2 is out");
    const team = `${hooks.origin}/hooks/team-channel`;
    expect((await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "r"], { CHAT_WEBHOOK: team })).code).toBe(3);
    expect((await planspecAsync(ws, ["approve", "r", "announce", "--by", "ops"])).code).toBe(0);
    const r = await planspecAsync(ws, ["resume", "r"], { CHAT_WEBHOOK: resumeWith(hooks.origin) });
    return { team: hooks.seen.filter((s) => s.url === "/hooks/team-channel"), customers: hooks.seen.filter((s) => s.url !== "/hooks/team-channel"), code: r.code, ws };
  }

  it("a resume with another value of a secret the call reads voids it: no call, the run asks again", async () => {
    const r = await approved((origin) => `${origin}/hooks/all-customers`);
    // Before: approval held, the announcement POSTed to /hooks/all-customers, the run done.
    expect(r.customers).toEqual([]);
    expect(r.code).toBe(3);
    const voided = events(join(r.ws, "r")).filter((e) => e.type === "approval.voided");
    expect(voided.map((e) => e.data.node)).toEqual(["announce"]);
    expect(JSON.stringify(events(join(r.ws, "r")))).not.toContain("all-customers");
  });

  it("a resume with the same values keeps it", async () => {
    const r = await approved((origin) => `${origin}/hooks/team-channel`);
    expect(r.code).toBe(0);
    expect(r.team).toHaveLength(1);
  });
});

describe("red team 7: an approval is bound to the workspace files the step's arguments name", () => {
  const PLAN = reviewedDeployPlan("sh ./deploy.sh");

  function paused(): string {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    put(ws, "deploy.sh", "echo deploying v1.2 > deployed.txt\n");
    expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r"]).code).toBe(3);
    return ws;
  }

  it("a script rewritten after the approval voids it; approved again as it is now, it runs", () => {
    const ws = paused();
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"]).code).toBe(0);
    put(ws, "deploy.sh", "echo something else entirely > deployed.txt\n");
    const r = planspec(ws, ["resume", "r"]);
    // Before: exit 0, deployed.txt "something else entirely": the approval held for a script nobody approved.
    expect(r.code).toBe(3);
    expect(existsSync(join(ws, "deployed.txt"))).toBe(false);
    expect(events(join(ws, "r")).filter((e) => e.type === "approval.voided").map((e) => e.data.reason)).toEqual([expect.stringContaining("the workspace files they name")]);
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"]).code).toBe(0);
    expect(planspec(ws, ["resume", "r"]).code).toBe(0);
    expect(readFileSync(join(ws, "deployed.txt"), "utf8")).toBe("something else entirely\n");
  });

  it("a script named relative to the program's cwd counts too", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN.replace('command: "sh ./deploy.sh"', 'command: "sh ./deploy.sh", cwd: ops').replace("path: deploy.sh", "path: ops/deploy.sh"));
    mkdirSync(join(ws, "ops"));
    put(ws, "ops/deploy.sh", "echo deploying v1.2 > deployed.txt\n");
    expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r"]).code).toBe(3);
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"]).code).toBe(0);
    put(ws, "ops/deploy.sh", "echo something else entirely > deployed.txt\n");
    expect(planspec(ws, ["resume", "r"]).code).toBe(3);
    expect(existsSync(join(ws, "ops/deployed.txt"))).toBe(false);
  });

  it("an unchanged script keeps it; an approver who cannot see the workspace (another machine) binds no files, and says so", () => {
    const ws = paused();
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"]).code).toBe(0);
    expect(planspec(ws, ["resume", "r"]).code).toBe(0);
    expect(readFileSync(join(ws, "deployed.txt"), "utf8")).toBe("deploying v1.2\n");

    const ws2 = paused();
    // The run directory moved to where the workspace is not (as approve on another machine sees a PostgreSQL store).
    const elsewhere = scratch();
    renameSync(join(ws2, "r"), join(elsewhere, "r"));
    renameSync(ws2, `${ws2}.away`);
    try {
      expect(planspec(elsewhere, ["approve", "r", "deploy", "--by", "release-manager"]).code).toBe(0);
    } finally {
      renameSync(`${ws2}.away`, ws2);
    }
    renameSync(join(elsewhere, "r"), join(ws2, "r"));
    expect(events(join(ws2, "r")).find((e) => e.type === "approval")?.data.files).toBe("unseen");
    expect(planspec(ws2, ["resume", "r"]).code).toBe(0);
    expect(readFileSync(join(ws2, "deployed.txt"), "utf8")).toBe("deploying v1.2\n");
  });
});

describe("red team 7: secrets cut between two chunks of a pipe", () => {
  it("a dying MCP server's stderr line written in two pieces is quoted whole, and scrubbed", () => {
    const ws = scratch();
    // Answers initialize and tools/list; on a call writes its configuration to stderr in two writes, then dies.
    put(
      ws,
      "srv.mjs",
      String.raw`
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
let buf = "";
process.stdin.on("data", (d) => {
  buf += d;
  for (let i; (i = buf.indexOf("\n")) >= 0; ) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    if (m.method === "initialize") send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "db", version: "1" } } });
    else if (m.method === "tools/list") send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "rows", description: "count rows", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } }] } });
    else if (m.method === "tools/call") {
      const dsn = process.env.DSN;
      process.stderr.write("fatal: cannot connect to " + dsn.slice(0, 22));
      setTimeout(() => { process.stderr.write(dsn.slice(22) + " (timeout)\n"); setTimeout(() => process.exit(1), 100); }, 150);
    } else if (m.id !== undefined) send({ jsonrpc: "2.0", id: m.id, result: {} });
  }
});
`,
    );
    expect(planspec(ws, ["import", "mcp", "db", "-o", "db.catalog.yaml", "--", process.execPath, "srv.mjs"]).code).toBe(0);
    put(
      ws,
      "p.plan.yaml",
      `planspec: 1
name: count
goal: count the rows of the orders table
secrets: [DB_DSN]
mcp:
  db: { command: ${process.execPath}, args: [srv.mjs], env: { DSN: "\${DB_DSN}" } }
tools:
  import: ./db.catalog.yaml
steps:
  count:
    kind: analyze
    goal: count the rows of the orders table
    tool: db.rows
`,
    );
    const dsn = "postgres://app:Hunter2-xyzzy-42@db.internal/prod";
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "run", "--no-lint-gate"], { DB_DSN: dsn });
    expect(r.code).toBe(1);
    const state = json<{ nodes: { count: { lastError: string } } }>(join(ws, "run/state.json"));
    expect(state.nodes.count.lastError).toContain("(stderr: fatal: cannot connect to [redacted] (timeout))");
    // Before: "fatal: cannot connect to postgres://app:Hun | ter2-xyzzy-42@db.internal/prod (timeout)".
    const text = everything(ws, "run", [r.stdout, r.stderr]);
    expect(text).not.toContain("xyzzy-42");
    expect(text).not.toContain("app:Hun");
  });

  it("exec: a secret's character cut between two chunks of the program's output is still the secret", () => {
    const ws = scratch();
    const secret = "pässwort-Geheim-4711-örtlich";
    // 'p' is byte 65,534 and 'ä' bytes 65,535–65,536: a pipe read of 64 KiB ends inside 'ä'. Other offsets too.
    const program = `const s = Buffer.from(process.env.APP_PASSWORD); for (const n of [65534, 65533, 65535]) process.stdout.write(Buffer.concat([Buffer.alloc(n, 97), s, Buffer.from("\\n")]));`;
    put(ws, "print.mjs", program);
    put(ws, "p.plan.yaml", secretPrintPlan("print.mjs"));
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "run"], { APP_PASSWORD: secret });
    expect(r.code, r.stderr).toBe(0);
    const text = everything(ws, "run", [r.stdout, r.stderr]);
    // Before: "p\uFFFD\uFFFDsswort-Geheim-4711-örtlich" in the artifact.
    expect(text).not.toContain("Geheim-4711");
    expect(text.match(/\[redacted\]/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
  });
});

const root = process.getuid?.() === 0;

/** Runs `cmd` as uid/gid 65534 (another local user). */
function asOther(cmd: string, args: string[], cwd = "/"): { status: number | null; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, uid: 65534, gid: 65534, encoding: "utf8", env: { ...process.env, HOME: "/tmp", NO_COLOR: "1" } });
  return { status: r.status, stderr: r.stderr };
}

/** A plan that reads a key and rewrites it behind an approval: what a run directory's records let someone else approve. */
const rotatePlan = (name: string, goal: string): string => `planspec: 1
name: ${name}
goal: ${goal}
tools: { fs.read: { risk: read }, fs.write: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  read_key:
    kind: read
    goal: read the current key id
    tool: fs.read
    with: { path: key.txt }
    output: key
  rotate:
    kind: write
    goal: write the new key id
    needs: [read_key]
    tool: fs.write
    with: { path: rotated.txt, content: "rotated \${{ steps.read_key.output.content }}" }
    approval: { required: true, approvers: [security-lead], timeout: 24h }
`;

describe("red team 7: a run directory another user can change", () => {
  const PLAN = rotatePlan("rotate", "rotate the signing key after review");

  function shared(): { ws: string; place: string } {
    const ws = scratch();
    chmodSync(ws, 0o755);
    put(ws, "p.plan.yaml", PLAN);
    put(ws, "key.txt", "k1");
    // A shared place everyone may write, with the sticky bit (as /tmp).
    const place = join(ws, "tmp");
    mkdirSync(place);
    chmodSync(place, 0o1777);
    return { ws, place };
  }

  it.runIf(root)("one the other user made is refused before anything runs: their module is never loaded, their approval never read", () => {
    const { ws, place } = shared();
    const dir = join(place, "nightly");
    expect(asOther("mkdir", ["-m", "0777", dir]).status).toBe(0);
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", dir]);
    // Before: the run paused there (exit 3); the other user then pointed config.json's toolModules at
    // their own module, and the operator's resume imported it (a marker written as uid 0), or ran
    // the gated step on an approval they recorded themselves.
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`run directory ${dir} can be changed by another user: it is owned by uid 65534`);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(existsSync(join(dir, "config.json"))).toBe(false);
    expect(existsSync(join(ws, "rotated.txt"))).toBe(false);

    // A run directory of the operator's own below a directory the other user owns: they may rename it away.
    const theirs = join(place, "theirs");
    expect(asOther("mkdir", ["-m", "0755", theirs]).status).toBe(0);
    const below = planspec(ws, ["run", "p.plan.yaml", "--run-dir", join(theirs, "run")]);
    expect(below.code).toBe(2);
    expect(below.stderr).toContain(`(at ${theirs}): it is owned by uid 65534`);
  });

  it.runIf(root)("one made world-writable after the run started is refused on resume and approve", () => {
    const { ws, place } = shared();
    const dir = join(place, "nightly");
    expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", dir]).code).toBe(3);
    chmodSync(dir, 0o777);
    // What the other user does: their own copies of the records, their module in config.json.
    const evil = join(dir, ".evil.mjs");
    const marker = join(ws, "pwned");
    writeFileSync(evil, `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(marker)}, String(process.getuid())); export default {};`);
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as { toolModules: string[] };
    config.toolModules = [evil];
    writeFileSync(join(dir, ".c"), JSON.stringify(config));
    renameSync(join(dir, ".c"), join(dir, "config.json"));
    const approve = planspec(ws, ["approve", dir, "rotate", "--by", "security-lead"]);
    expect(approve.code).toBe(2);
    expect(approve.stderr).toContain("every user may write it");
    const resumed = planspec(ws, ["resume", dir]);
    expect(resumed.code).toBe(2);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(ws, "rotated.txt"))).toBe(false);
    // Made private again, the same run goes on (the rewritten config is the owner's business now).
    chmodSync(dir, 0o700);
    config.toolModules = [];
    writeFileSync(join(dir, "config.json"), JSON.stringify(config));
    expect(planspec(ws, ["approve", dir, "rotate", "--by", "security-lead"]).code).toBe(0);
    expect(planspec(ws, ["resume", dir]).code).toBe(0);
    expect(readFileSync(join(ws, "rotated.txt"), "utf8")).toBe("rotated k1");
  });

  it.runIf(root)("an operator who trusts the other owner says so in PLANSPEC_SAFE_RUN_DIRS (a container run as root on a checkout another uid owns)", () => {
    const { ws, place } = shared();
    const theirs = join(place, "checkout");
    expect(asOther("mkdir", ["-m", "0755", theirs]).status).toBe(0);
    const dir = join(theirs, "run");
    // Refused without it, and the message says how to trust the owner.
    const refused = planspec(ws, ["run", "p.plan.yaml", "--run-dir", dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("PLANSPEC_SAFE_RUN_DIRS");
    // A sibling listed trusts nothing here; a prefix of the name that is not a parent neither.
    for (const other of [join(place, "elsewhere"), `${theirs}-x`, theirs.slice(0, -1)]) {
      mkdirSync(other);
      expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", dir], { PLANSPEC_SAFE_RUN_DIRS: other }).code, other).toBe(2);
    }
    // The directory itself or one above it, among others in the list; `*` trusts every directory.
    expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", dir], { PLANSPEC_SAFE_RUN_DIRS: `/nowhere:${theirs}` }).code).toBe(3);
    expect(planspec(ws, ["approve", dir, "rotate", "--by", "security-lead"], { PLANSPEC_SAFE_RUN_DIRS: place }).code).toBe(0);
    expect(planspec(ws, ["resume", dir], { PLANSPEC_SAFE_RUN_DIRS: "*" }).code).toBe(0);
    expect(readFileSync(join(ws, "rotated.txt"), "utf8")).toBe("rotated k1");
  });

  it("made under umask 000, the run directory and its artifacts/ are still writable by no one else", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    // More than 64 bytes: the output is stored in artifacts/, not inline.
    put(ws, "key.txt", "k1-".repeat(40));
    const r = spawnSync("sh", ["-c", `umask 000 && exec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(import.meta.dirname, "../../bin/planspec"))} run p.plan.yaml --run-dir runs/r`], { cwd: ws, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    // Before the mode: planspec made runs/ and runs/r 0777 itself, so another user could replace its records.
    expect(r.status, r.stderr).toBe(3);
    for (const d of ["runs", "runs/r", "runs/r/artifacts"]) expect(statSync(join(ws, d)).mode & 0o022, d).toBe(0);
  });

  it("a private run directory below a sticky shared one (/tmp) and the default .planspec/runs still work", () => {
    const { ws, place } = shared();
    expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", join(place, "mine")]).code).toBe(3);
    expect(planspec(ws, ["run", "p.plan.yaml"]).code).toBe(3);
  });
});

describe("red team 7: what a careless tool module prints", () => {
  it("console.log/error/warn/dir/info of a token, at import and in run, reach the terminal scrubbed", () => {
    const token = "xoxb-5812734690-Qm7vT2kLp9Wz";
    const ws = scratch();
    put(
      ws,
      "tools.mjs",
      `console.log("notify module loaded with", process.env.CHAT_TOKEN);
export default {
  notify: { risk: "external", run: (args) => {
    console.log("notify: calling with", JSON.stringify(args));
    console.error("debug token %s", args.token);
    console.warn({ auth: "Bearer " + args.token });
    console.dir({ nested: { t: args.token } }, { depth: 5 });
    console.info(Buffer.from(args.token).toString("base64"));
    return { ok: true };
  } },
};
`,
    );
    put(
      ws,
      "p.plan.yaml",
      `planspec: 1
name: notify
goal: notify the team of the note
secrets: [CHAT_TOKEN]
tools: { fs.read: { risk: read }, notify: { risk: external } }
limits: { max_tool_calls: 5 }
steps:
  read_note:
    kind: read
    goal: read the note
    tool: fs.read
    with: { path: p.plan.yaml }
    output: note
  send:
    kind: external
    goal: notify the team of the note
    needs: [read_note]
    tool: notify
    with: { token: "\${{ secrets.CHAT_TOKEN }}", text: "\${{ steps.read_note.output.bytes }}" }
    idempotency_key: "notify:\${{ run.id }}"
    approval: { required: true, approvers: [ops], timeout: 1h }
`,
    );
    const env = { CHAT_TOKEN: token };
    const run = planspec(ws, ["run", "p.plan.yaml", "--tools", "./tools.mjs", "--run-dir", "r"], env);
    expect(run.code, run.stderr).toBe(3);
    expect(planspec(ws, ["approve", "r", "send", "--by", "ops"]).code).toBe(0);
    const resumed = planspec(ws, ["resume", "r"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const terminal = [run.stdout, run.stderr, resumed.stdout, resumed.stderr].join("\n");
    // Before: the token verbatim on stdout and stderr, from the import (both sessions) and from each call.
    expect(terminal).toContain("notify module loaded with [redacted]");
    expect(terminal).toContain('notify: calling with {"token":"[redacted]"');
    expect(terminal).toContain("debug token [redacted]");
    expect(terminal).not.toContain(token);
    expect(terminal).not.toContain(Buffer.from(token).toString("base64"));
    expect(terminal).not.toContain("5812734690");
  });
});

describe("red team 7: the records of other runs kept in the workspace", () => {
  const VICTIM = rotatePlan("victim", "wait for a decision");
  const attacker = (runs: string) => `planspec: 1
name: notes
goal: tidy the notes of the shared data directory
tools: { fs.read: { risk: read }, fs.write: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  read_index:
    kind: read
    goal: read the notes index
    tool: fs.read
    with: { path: ${runs}/victim/config.json }
    output: index
  note:
    kind: write
    needs: [read_index]
    goal: append to the notes log
    tool: fs.write
    with: { path: ${runs}/victim/events.jsonl, content: "forged\\n", append: true }
`;

  function victim(cwd: string): string {
    put(cwd, "victim.plan.yaml", VICTIM);
    put(cwd, "key.txt", "k1");
    expect(planspec(cwd, ["run", "victim.plan.yaml", "--run-id", "victim"]).code).toBe(3);
    return join(cwd, ".planspec/runs/victim");
  }

  it("a run with --workspace W from another directory cannot read or append to W/.planspec/runs", () => {
    const shared = scratch();
    const run = victim(shared);
    const before = readFileSync(join(run, "events.jsonl"), "utf8");
    const salt = json<{ secretSalt: string }>(join(run, "config.json")).secretSalt;
    const project = scratch();
    put(project, "a.plan.yaml", attacker(".planspec/runs"));
    const r = planspec(project, ["run", "a.plan.yaml", "--workspace", shared, "--run-dir", "r"]);
    // Before: exit 0, the victim's salt in the artifacts, "forged" appended to its events.
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('path ".planspec/runs/victim/config.json" is inside the run directory or the runs root');
    expect(filesUnder(join(project, "r")).map((f) => readFileSync(f, "utf8")).join("\n")).not.toContain(salt);
    expect(readFileSync(join(run, "events.jsonl"), "utf8")).toBe(before);
  });

  it("nor those of yesterday's run kept at a --run-dir of its own in the workspace", () => {
    const ws = scratch();
    put(ws, "victim.plan.yaml", VICTIM);
    put(ws, "key.txt", "k1");
    expect(planspec(ws, ["run", "victim.plan.yaml", "--run-dir", "runs/2026-12-06"]).code).toBe(3);
    const before = readFileSync(join(ws, "runs/2026-12-06/events.jsonl"), "utf8");
    put(ws, "a.plan.yaml", attacker("runs").replaceAll("runs/victim", "runs/2026-12-06"));
    const r = planspec(ws, ["run", "a.plan.yaml", "--run-dir", "runs/2026-12-07"]);
    // Before: exit 0, "forged" appended to the paused run's events.
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('path "runs/2026-12-06/config.json" is inside the run directory or the runs root');
    expect(readFileSync(join(ws, "runs/2026-12-06/events.jsonl"), "utf8")).toBe(before);
  });

  it("nor can a run read the records of a run made from a subdirectory of its workspace", () => {
    const ws = scratch();
    mkdirSync(join(ws, "team"));
    const run = victim(join(ws, "team"));
    const before = readFileSync(join(run, "events.jsonl"), "utf8");
    put(ws, "a.plan.yaml", attacker("team/.planspec/runs"));
    const r = planspec(ws, ["run", "a.plan.yaml", "--run-dir", "r"]);
    expect(r.code).toBe(1);
    expect(readFileSync(join(run, "events.jsonl"), "utf8")).toBe(before);
    // Other dot-directories are the workspace's as before.
    put(ws, "b.plan.yaml", attacker("team/.planspec/cache").replace("/victim/config.json", "/notes.txt").replace("/victim/events.jsonl", "/notes.txt"));
    mkdirSync(join(ws, "team/.planspec/cache"));
    put(ws, "team/.planspec/cache/notes.txt", "n1\n");
    expect(planspec(ws, ["run", "b.plan.yaml", "--run-dir", "r2"]).code).toBe(0);
    expect(readFileSync(join(ws, "team/.planspec/cache/notes.txt"), "utf8")).toBe("n1\nforged\n");
  });
});

describe("red team 7: an exec step past its timeout", () => {
  it("is killed with everything it started: no effect after the step failed, none beside the retry", async () => {
    const ws = scratch();
    // A sync script that ignores SIGTERM, and a program it runs that ignores it too; each does its effect after 2 s.
    put(ws, "sync.sh", `trap '' TERM\n${process.execPath} slow.mjs &\nsleep 2\necho "script $1" >> effects.txt\nwait\n`);
    put(ws, "slow.mjs", `import { appendFileSync } from "node:fs"; process.on("SIGTERM", () => {}); setTimeout(() => appendFileSync("effects.txt", "program\\n"), 2000);`);
    put(
      ws,
      "p.plan.yaml",
      `planspec: 1
name: sync
goal: run the sync script
tools: { fs.read: { risk: read }, exec: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  read_script:
    kind: read
    goal: read the sync script
    tool: fs.read
    with: { path: sync.sh }
    output: script
  sync:
    kind: write
    needs: [read_script]
    goal: run the sync script that was read
    tool: exec
    with: { command: sh, args: [./sync.sh, "\${{ steps.read_script.output.bytes }}"] }
    timeout: 1s
    retry: { max_attempts: 2, backoff: fixed, initial_delay: 10ms }
`,
    );
    const r = await planspecAsync(ws, ["run", "p.plan.yaml", "--run-dir", "r", "--no-lint-gate"]);
    expect(r.stdout + r.stderr).toContain('step "sync" timed out after 1000ms');
    expect(json<{ nodes: { sync: { status: string; attempts: number } } }>(join(ws, "r/state.json")).nodes.sync).toMatchObject({ status: "failed", attempts: 2 });
    await new Promise((res) => setTimeout(res, 3000));
    // Before: "program" and "script N" twice each, written after the run had ended with the step failed.
    expect(existsSync(join(ws, "effects.txt")) ? readFileSync(join(ws, "effects.txt"), "utf8") : "").toBe("");
  });
});

describe("red team 7: a secret in the bytes of a Buffer a tool returns", () => {
  it("is scrubbed from the artifact, the idempotency record and status --json; other bytes are kept", () => {
    const token = "svc-7f3a9c2e1b4d6f80";
    const ws = scratch();
    put(
      ws,
      "tools.mjs",
      `import { execSync } from "node:child_process";
export default {
  whoami: { risk: "read", run: (args) => ({ stdout: execSync("echo connected as $SVC_TOKEN", { env: { SVC_TOKEN: args.token } }), plain: Buffer.from("no secret here") }) },
};
`,
    );
    put(
      ws,
      "p.plan.yaml",
      `planspec: 1
name: whoami
goal: check which account the service token is for
secrets: [SVC_TOKEN]
tools: { whoami: { risk: read } }
limits: { max_tool_calls: 2 }
steps:
  check:
    kind: read
    goal: check which account the token is for
    tool: whoami
    with: { token: "\${{ secrets.SVC_TOKEN }}" }
    idempotency_key: "whoami:\${{ run.id }}"
`,
    );
    const r = planspec(ws, ["run", "p.plan.yaml", "--tools", "./tools.mjs", "--run-dir", "r"], { SVC_TOKEN: token });
    expect(r.code, r.stderr).toBe(0);
    const decoded = (text: string) => text.replace(/\{"type":"Buffer","data":\[([\d,]*)\]\}/g, (_, d: string) => JSON.stringify(Buffer.from(d === "" ? [] : d.split(",").map(Number)).toString("utf8")));
    const text = decoded(everything(ws, "r", [r.stdout, r.stderr]));
    // Before: "connected as svc-7f3a9c2e1b4d6f80" once the artifact's bytes are read as text.
    expect(text).toContain("connected as [redacted]");
    expect(text).not.toContain(token);
    expect(text).toContain("no secret here");
  });
});

describe("red team 7: a result adopted with planspec resolve", () => {
  it("is scrubbed of the plan's secrets as a call's result is", async () => {
    const secret = "whsec_9f8e7d6c5b4a39281706";
    const ws = scratch();
    put(
      ws,
      "tools.mjs",
      `import { writeFileSync } from "node:fs";
import { join } from "node:path";
export default {
  hook: { risk: "external", run: async (args, ctx) => { writeFileSync(join(ctx.workspace, "calling"), ""); await new Promise((r) => setTimeout(r, 60000)); return { ok: true }; } },
};
`,
    );
    put(
      ws,
      "p.plan.yaml",
      `planspec: 1
name: register
goal: register the webhook
secrets: [HOOK_SECRET]
tools: { fs.read: { risk: read }, hook: { risk: external } }
limits: { max_tool_calls: 5 }
steps:
  read:
    kind: read
    goal: read the webhook settings
    tool: fs.read
    with: { path: p.plan.yaml }
    output: cfg
  register:
    kind: external
    needs: [read]
    goal: register the webhook with its signing secret
    tool: hook
    with: { secret: "\${{ secrets.HOOK_SECRET }}", size: "\${{ steps.read.output.bytes }}" }
    idempotency_key: "register:\${{ run.id }}"
`,
    );
    const env = { HOOK_SECRET: secret };
    const child = startPlanspec(ws, ["run", "p.plan.yaml", "--tools", "./tools.mjs", "--run-dir", "r", "--no-lint-gate"], env);
    await waitFor(() => existsSync(join(ws, "calling")));
    await killHard(child);
    // The keyed external call was cut: resume holds it for a person.
    expect((await planspecAsync(ws, ["resume", "r", "--tools", "./tools.mjs"], env)).code).toBe(3);
    // The operator pastes what the API's dashboard shows: the webhook, with its signing secret.
    put(ws, "result.json", JSON.stringify({ id: "we_123", secret, status: "enabled" }));
    const resolved = await planspecAsync(ws, ["resolve", "r", "register", "--adopt", "result.json"], env);
    expect(resolved.code, resolved.stderr).toBe(0);
    // Before: the secret verbatim in artifacts/ (or inline in the state) and in idempotency.json.
    const text = everything(ws, "r", [resolved.stdout, resolved.stderr]);
    expect(text).not.toContain(secret);
    expect(text).toContain('"secret":"[redacted]"');
    const done = await planspecAsync(ws, ["resume", "r", "--tools", "./tools.mjs"], env);
    expect(done.code, done.stderr).toBe(0);
  });
});
