/**
 * Red team, round 8: two of round 7's leftovers. Each case escaped on main at 0a4d1ea:
 * - an approved `exec kubectl apply -f app.yaml` resumed with `PATH=/tmp/evil:$PATH` ran
 *   `/tmp/evil/kubectl`: the approval was bound to the command's text, not to the program
 *   its words resolve to (nor to that program's content, nor to the interpreter `sh` of
 *   `sh ./deploy.sh`, nor to the files a named script sources);
 * - a secret cut by a truncation left its first characters in clear: `exec` kept its
 *   output in whole pipe chunks up to 1 MiB (the secret's first part in the last chunk
 *   kept), and two messages quote a cut value (`path "<60 characters>…"`, an input's
 *   `got "<40 characters>…"`), which the scrubber cannot recognise as a piece of a secret.
 * Real CLI, real shells and programs in directories outside the workspace.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { absent, events, everything, filesUnder, planspec, program, put, reviewedDeployPlan, scratch, secretPrintPlan, voided } from "./helpers.js";
import { cutClean, Scrubber, withSessionSecrets } from "../../src/runtime/redact.js";

const PLAN_SOURCE = reviewedDeployPlan("bash ./deploy.sh");

describe("red team 8: an approval is bound to the programs the command's words resolve to", () => {
  const plan = (command: string) => `planspec: 1
name: deploy
goal: apply the reviewed manifest
tools: { fs.read: { risk: read }, exec: { risk: external } }
limits: { max_tool_calls: 5 }
steps:
  read_manifest:
    kind: read
    goal: read the manifest for the reviewer
    tool: fs.read
    with: { path: app.yaml }
    output: manifest
  deploy:
    kind: external
    needs: [read_manifest]
    goal: apply the manifest that was read and reviewed
    tool: exec
    with: { command: ${JSON.stringify(command)}, env: { BYTES: "\${{ steps.read_manifest.output.bytes }}" } }
    idempotency_key: "deploy:\${{ run.id }}"
    approval: { required: true, approvers: [release-manager], timeout: 24h }
`;

  /** A workspace paused at the gate, with `kubectl` (and a good `sh`) in a directory of the operator's PATH outside it. */
  function paused(command = "kubectl apply -f app.yaml"): { ws: string; good: string; evil: string; path: string } {
    const ws = scratch();
    const good = scratch();
    const evil = scratch();
    put(ws, "p.plan.yaml", plan(command));
    put(ws, "app.yaml", "kind: Deployment\n");
    put(ws, "deploy.sh", "kubectl apply -f app.yaml\n");
    program(good, "kubectl", 'echo "applied $*" > applied.txt');
    program(evil, "kubectl", "echo evil > evil.txt");
    program(evil, "sh", "echo evil-sh > evil.txt");
    const path = `${good}:${process.env.PATH ?? "/usr/bin:/bin"}`;
    expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r"], { PATH: path }).code).toBe(3);
    return { ws, good, evil, path };
  }

  it("a resume whose PATH finds another kubectl voids it; nothing runs", () => {
    const { ws, evil, path } = paused();
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"], { PATH: path }).code).toBe(0);
    const r = planspec(ws, ["resume", "r"], { PATH: `${evil}:${path}` });
    // Before: exit 0, evil.txt written by /tmp/…/kubectl, a program nobody approved.
    expect(r.code, r.stderr).toBe(3);
    expect(existsSync(join(ws, "evil.txt"))).toBe(false);
    expect(existsSync(join(ws, "applied.txt"))).toBe(false);
    expect(voided(ws).map((e) => e.data.reason)).toEqual([expect.stringContaining("the programs they run")]);
  });

  it("the same PATH keeps it; approved again under the new PATH, that program runs", () => {
    const { ws, evil, path } = paused();
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"], { PATH: path }).code).toBe(0);
    expect(planspec(ws, ["resume", "r"], { PATH: path }).code).toBe(0);
    expect(readFileSync(join(ws, "applied.txt"), "utf8")).toBe("applied apply -f app.yaml\n");

    const two = paused();
    expect(planspec(two.ws, ["approve", "r", "deploy", "--by", "release-manager"], { PATH: `${two.evil}:${two.path}` }).code).toBe(0);
    expect(planspec(two.ws, ["resume", "r"], { PATH: `${two.evil}:${two.path}` }).code).toBe(0);
    expect(readFileSync(join(two.ws, "evil.txt"), "utf8")).toBe("evil\n");
  });

  it("the program rewritten in place (same path) voids it", () => {
    const { ws, good, path } = paused();
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"], { PATH: path }).code).toBe(0);
    program(good, "kubectl", "echo rewritten > evil.txt");
    expect(planspec(ws, ["resume", "r"], { PATH: path }).code).toBe(3);
    expect(existsSync(join(ws, "evil.txt"))).toBe(false);
    expect(voided(ws)).toHaveLength(1);
  });

  it("a large program (over the digest limit) is bound by size and modification time", () => {
    const { ws, good, path } = paused();
    // 6 MiB: a comment after the script's line; the rewrite below has the same size.
    const first = `#!/bin/sh\necho "applied $*" > applied.txt\nexit 0\n#`;
    const second = `#!/bin/sh\necho "evil $*" > evil.txt\nexit 0\n#`;
    writeFileSync(join(good, "kubectl"), `${first}${"x".repeat(6 << 20)}\n`);
    const t0 = Date.now();
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"], { PATH: path }).code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
    const before = statSync(join(good, "kubectl"));
    writeFileSync(join(good, "kubectl"), `${second}${"x".repeat((6 << 20) + first.length - second.length)}\n`);
    expect(statSync(join(good, "kubectl")).size).toBe(before.size);
    // Same size, another modification time.
    utimesSync(join(good, "kubectl"), before.atime, new Date(before.mtimeMs + 5000));
    expect(planspec(ws, ["resume", "r"], { PATH: path }).code).toBe(3);
    expect(existsSync(join(ws, "evil.txt"))).toBe(false);
    expect(voided(ws)).toHaveLength(1);
  });

  // Round 10: the owner may set a file's modification time (`touch -r`), not its change time.
  it.each([
    ["a program of 6 MiB", 6 << 20],
    ["a program of 40 MiB (kubectl's size)", 40 << 20],
  ])("%s rewritten with the same size and modification time voids it", (_name, pad) => {
    const { ws, good, path } = paused();
    const first = `#!/bin/sh\necho "applied $*" > applied.txt\nexit 0\n#`;
    const second = `#!/bin/sh\necho "evil $*" > evil.txt\nexit 0\n#`;
    writeFileSync(join(good, "kubectl"), `${first}${"x".repeat(pad)}\n`);
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"], { PATH: path }).code).toBe(0);
    const before = statSync(join(good, "kubectl"));
    expect(spawnSync("touch", ["-r", join(good, "kubectl"), join(good, "kubectl.time")]).status).toBe(0);
    writeFileSync(join(good, "kubectl"), `${second}${"x".repeat(pad + first.length - second.length)}\n`);
    expect(spawnSync("touch", ["-r", join(good, "kubectl.time"), join(good, "kubectl")]).status).toBe(0);
    expect(statSync(join(good, "kubectl"))).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs });
    // Before: exit 0, evil.txt written by the rewritten kubectl under the approval of the first.
    expect(planspec(ws, ["resume", "r"], { PATH: path }).code).toBe(3);
    expect(existsSync(join(ws, "evil.txt"))).toBe(false);
    expect(voided(ws)).toHaveLength(1);
  });

  it("the interpreter of `sh ./deploy.sh` and a program inside `sh -c '…'` count", () => {
    const a = paused("sh ./deploy.sh");
    expect(planspec(a.ws, ["approve", "r", "deploy", "--by", "release-manager"], { PATH: a.path }).code).toBe(0);
    // Before: evil/sh ran as the approved interpreter.
    expect(planspec(a.ws, ["resume", "r"], { PATH: `${a.evil}:${a.path}` }).code).toBe(3);
    expect(existsSync(join(a.ws, "evil.txt"))).toBe(false);

    const b = paused("sh -c 'kubectl apply -f app.yaml'");
    expect(planspec(b.ws, ["approve", "r", "deploy", "--by", "release-manager"], { PATH: b.path }).code).toBe(0);
    const evilKubectlOnly = scratch();
    program(evilKubectlOnly, "kubectl", "echo evil > evil.txt");
    expect(planspec(b.ws, ["resume", "r"], { PATH: `${evilKubectlOnly}:${b.path}` }).code).toBe(3);
    expect(existsSync(join(b.ws, "evil.txt"))).toBe(false);
  });

  it("a file the named script sources (`. ./lib.sh`), rewritten after the approval, voids it", () => {
    const { ws, path } = paused("sh ./deploy.sh");
    put(ws, "deploy.sh", ". ./lib.sh\necho \"deploying $TARGET\" > applied.txt\n");
    put(ws, "lib.sh", "TARGET=staging\n");
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"], { PATH: path }).code).toBe(0);
    put(ws, "lib.sh", "TARGET=production; echo evil > evil.txt\n");
    // Before: exit 0, evil.txt: the approved script ran what lib.sh says now.
    expect(planspec(ws, ["resume", "r"], { PATH: path }).code).toBe(3);
    expect(existsSync(join(ws, "evil.txt"))).toBe(false);
  });
});

describe("red team 8: a file sourced by a bare name is looked up through PATH", () => {
  it("`source lib.sh` finding another lib.sh on the resume's PATH voids the approval", () => {
    const ws = scratch();
    const evil = scratch();
    put(ws, "p.plan.yaml", PLAN_SOURCE);
    put(ws, "deploy.sh", 'source lib.sh\necho "deploying $TARGET" > applied.txt\n');
    put(ws, "lib.sh", "TARGET=staging\n");
    // Not executable: bash's `source` reads the first lib.sh on PATH whatever its mode, then the start directory's.
    put(evil, "lib.sh", "TARGET=production; echo evil > evil.txt\n");
    expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r"]).code).toBe(3);
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"]).code).toBe(0);
    const r = planspec(ws, ["resume", "r"], { PATH: `${evil}:${process.env.PATH ?? "/usr/bin:/bin"}` });
    // Before: exit 0, evil.txt: bash sourced the lib.sh the resume's PATH found first.
    expect(r.code, r.stderr).toBe(3);
    expect(existsSync(join(ws, "evil.txt"))).toBe(false);
    expect(voided(ws)).toHaveLength(1);
    // The same PATH as the approval's: it holds, and the workspace's lib.sh is the one sourced.
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"]).code).toBe(0);
    expect(planspec(ws, ["resume", "r"]).code).toBe(0);
    expect(readFileSync(join(ws, "applied.txt"), "utf8")).toBe("deploying staging\n");
  });
});

describe("red team 8: the interpreter a script's #! line names", () => {
  it("`#!/usr/bin/env bash` finding another bash on the resume's PATH voids the approval of `./deploy.sh`", () => {
    const ws = scratch();
    const evil = scratch();
    put(ws, "p.plan.yaml", PLAN_SOURCE.replace('command: "bash ./deploy.sh"', 'command: "./deploy.sh"'));
    put(ws, "deploy.sh", "#!/usr/bin/env bash\necho ok > applied.txt\n");
    chmodSync(join(ws, "deploy.sh"), 0o755);
    program(evil, "bash", "echo evil > evil.txt");
    expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r"]).code).toBe(3);
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"]).code).toBe(0);
    const r = planspec(ws, ["resume", "r"], { PATH: `${evil}:${process.env.PATH ?? "/usr/bin:/bin"}` });
    // Before: exit 0, evil.txt: env found the resume's bash first.
    expect(r.code, r.stderr).toBe(3);
    expect(existsSync(join(ws, "evil.txt"))).toBe(false);
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"]).code).toBe(0);
    expect(planspec(ws, ["resume", "r"]).code).toBe(0);
    expect(readFileSync(join(ws, "applied.txt"), "utf8")).toBe("ok\n");
  });
});

describe("red team 8: a secret cut in two by a truncation", () => {
  const MAX = 1 << 20;
  const SECRET = "Zq7-hunter2-Vx9-platypus-41";

  /** The exec step's output as its artifact keeps it. */
  const stored = (ws: string) => JSON.parse(readFileSync(filesUnder(join(ws, "r/artifacts")).find((f) => readFileSync(f, "utf8").includes('"stdout"'))!, "utf8")) as { stdout: string };
  /** Asserts the kept output is a run of "a" of `min`–`max` characters; a failure shows its length and end, not 1 MiB. */
  const onlyA = (stdout: string, min: number, max: number) =>
    expect(/^a+$/.test(stdout) && stdout.length >= min && stdout.length <= max, `${stdout.length} characters, ending ${JSON.stringify(stdout.slice(-40))}`).toBe(true);

  it("exec: a secret written across the 1 MiB capture leaves none of its characters", () => {
    const ws = scratch();
    // The first write ends 10 characters into the secret, exactly at the cap; the rest comes 150 ms later.
    put(ws, "print.mjs", `const s = process.env.APP_PASSWORD; process.stdout.write("a".repeat(${MAX - 10}) + s.slice(0, 10)); setTimeout(() => process.stdout.write(s.slice(10) + "\\n" + "b".repeat(100000)), 150);`);
    put(ws, "p.plan.yaml", secretPrintPlan("print.mjs"));
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r"], { APP_PASSWORD: SECRET });
    expect(r.code, `${r.signal ?? ""} ${r.stderr}`).toBe(0);
    const text = everything(ws, "r", [r.stdout, r.stderr]);
    // Before: "…aaaaZq7-hunter" at the end of the kept output.
    absent(text, SECRET.slice(0, 4));
    onlyA(stored(ws).stdout, MAX - 63, MAX - 10);
  });

  // One test per offset, each with its own 60 s: the four runs in one test took up to 29 s of them
  // beside two busy loops on a 2-core machine at a load of 7–40 (30 runs).
  it.each([1, 4, 13, 26])("exec: in one write, at offsets around the cap, none of the secret's characters are kept (%i before the cap)", (back) => {
    // The workspace's name holds "aZ", the needle below for back 1 (the output's "a", the secret's "Z"),
    // and the records quote that name: mkdtemp's 6 random characters alone held it once in 769 runs.
    const ws = scratch("planspec-sec-aZ-");
    put(ws, "print.mjs", `process.stdout.write("a".repeat(${MAX - back}) + process.env.APP_PASSWORD + "\\n" + "b".repeat(200000));`);
    put(ws, "p.plan.yaml", secretPrintPlan("print.mjs"));
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r"], { APP_PASSWORD: SECRET });
    expect(r.code, `${r.signal ?? ""} ${r.stderr}`).toBe(0);
    const text = everything(ws, "r", [r.stdout, r.stderr]).replaceAll(ws, "<workspace>");
    // The output's run of "a" followed by the secret's first characters (any of them).
    absent(text, `a${SECRET.slice(0, Math.min(back, 4))}`);
    onlyA(stored(ws).stdout, MAX - back - 63, MAX - back);
  });

  it("the path message quotes no piece of a secret", () => {
    const ws = scratch();
    // The secret starts 50 characters into a path over 4 KiB: the message's 60 characters end 10 characters into it.
    put(
      ws,
      "p.plan.yaml",
      `planspec: 1
name: read
goal: read the report of the account
secrets: [APP_PASSWORD]
tools: { fs.read: { risk: read } }
limits: { max_tool_calls: 5 }
steps:
  read_report:
    kind: read
    goal: read the report of the account
    tool: fs.read
    with: { path: "${"r".repeat(50)}\${{ secrets.APP_PASSWORD }}/${"y".repeat(4200)}" }
    output: report
`,
    );
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r"], { APP_PASSWORD: SECRET });
    expect(r.code).toBe(1);
    const text = everything(ws, "r", [r.stdout, r.stderr]);
    expect(text).toContain("is longer than 4096 bytes");
    // Before: `path "rrrr…rZq7-hunter…"` in lastError, the events and the terminal.
    expect(text).not.toContain(SECRET.slice(0, 4));
  });

  it("an input error quotes no piece of a secret of the environment", () => {
    const ws = scratch();
    put(
      ws,
      "p.plan.yaml",
      `planspec: 1
name: count
goal: count the rows
inputs: { limit: { type: integer } }
tools: { fs.read: { risk: read } }
limits: { max_tool_calls: 5 }
steps:
  read_rows:
    kind: read
    goal: read the rows
    tool: fs.read
    with: { path: "rows-\${{ inputs.limit }}.csv" }
    output: rows
`,
    );
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r", "--input", `limit=${"1".repeat(30)}${SECRET}`], { DEPLOY_TOKEN: SECRET });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("must be an integer");
    // Before: got "111…1Zq7-hunter…".
    expect(r.stdout + r.stderr).not.toContain(SECRET.slice(0, 4));
  });
});

describe("red team 8: cutClean, in the forms the scrubber searches", () => {
  const secret = "pä'ss wört-Geheim-4711";
  const cut = (text: string, max: number) => withSessionSecrets(new Scrubber([secret], { salt: null }), async () => cutClean(text, max, true));

  it("drops a trailing beginning of the secret as it is, URL-encoded, escaped in mixed ways, base64, in any case", async () => {
    const lead = "report: ";
    const forms = [secret, encodeURIComponent(secret), "p\\u00e4&#39;ss+w%C3%B6rt", Buffer.from(secret).toString("base64"), secret.toUpperCase()];
    for (const form of forms) {
      for (const n of [1, 2, 5, 9]) expect(await cut(lead + form.slice(0, n) + "|rest", lead.length + n)).toBe(lead);
    }
  });

  it("finds the longest trailing beginning inside a repetition (aXaXaXa ends with aXaXa of aXaXaY…)", async () => {
    const got = await withSessionSecrets(new Scrubber(["aXaXaY-77"], { salt: null }), async () => cutClean("zzaXaXaXa|rest", 9, true));
    expect(got).toBe("zzaX");
  });

  it("keeps text that does not begin the secret, cut exactly, and never half a surrogate pair", async () => {
    // "." begins no base64, hex or URL-encoded form, and not the secret.
    expect(await cut("report: plain text.|rest", 19)).toBe("report: plain text.");
    expect(await cut("ab\u{1F600}cd", 3)).toBe("ab");
    // Without a session: the environment's secret-looking variables only; this text is none of them.
    expect(cutClean("report: plain text. and more", 19)).toBe("report: plain text.");
  });
});
