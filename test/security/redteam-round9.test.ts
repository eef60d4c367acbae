/**
 * Red team, round 9: the environment an approval covers. On main at eea4376 an approved
 * step ran under whatever environment the resume had: `BASH_ENV=/tmp/evil/rc planspec resume
 * r` ran the evil file before an approved `bash ./deploy.sh`, `NODE_OPTIONS=--require …`
 * loaded an evil module into an approved `node ./deploy.mjs`, and an exported bash function
 * (`BASH_FUNC_kubectl%%`) replaced the `kubectl` the approved script calls. Real CLI, real
 * bash and node, the evil files in directories outside the workspace.
 */
import { createHash } from "node:crypto";
import { chmodSync, existsSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { events, everything, filesUnder, planspec, program, put, reviewedDeployPlan, scratch, secretPrintPlan, voided } from "./helpers.js";
import { actionBinding, boundVariables, execShell } from "../../src/runtime/binding.js";
import type { EvalEnv } from "../../src/compiler/expr/index.js";
import type { RunState } from "../../src/runtime/store.js";
import { plan as compile } from "../runtime/helpers.js";

/** A workspace paused at the gate of `command`, with a good `kubectl` on the operator's PATH outside it. */
function paused(command: string, env: Record<string, string> = {}, args?: string[]): { ws: string; evil: string; env: Record<string, string> } {
  const ws = scratch();
  const good = scratch();
  const evil = scratch();
  const text = reviewedDeployPlan(command);
  put(ws, "p.plan.yaml", args ? text.replace(`command: "${command}"`, `command: "${command}", args: ${JSON.stringify(args)}`) : text);
  put(ws, "app.yaml", "kind: Deployment\n");
  put(ws, "deploy.sh", 'kubectl apply -f app.yaml\necho "deployed" > deployed.txt\n');
  put(ws, "deploy.mjs", 'import { writeFileSync } from "node:fs";\nwriteFileSync("deployed.txt", "deployed\\n");\n');
  program(good, "kubectl", 'echo "applied $*" > applied.txt');
  const base = { PATH: `${good}:${process.env.PATH ?? "/usr/bin:/bin"}`, ...env };
  const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r"], base);
  expect(r.code, r.stderr).toBe(3);
  return { ws, evil, env: base };
}

/** Approve under `approveEnv`, resume under `resumeEnv`: the resume must not run the step; no evil.txt, one voiding. */
function expectVoided(ws: string, approveEnv: Record<string, string>, resumeEnv: Record<string, string>): void {
  expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"], approveEnv).code).toBe(0);
  const r = planspec(ws, ["resume", "r"], resumeEnv);
  expect(existsSync(join(ws, "evil.txt")), "the evil code ran after the approval").toBe(false);
  expect(existsSync(join(ws, "deployed.txt"))).toBe(false);
  expect(r.code, r.stderr).toBe(3);
  expect(voided(ws).map((e) => e.data.reason)).toEqual([expect.stringContaining("the environment")]);
}

describe("red team 9: an approval is bound to the variables that change what its programs do", () => {
  it("BASH_ENV set at resume for an approved `bash ./deploy.sh` voids it; the file is not run", () => {
    const { ws, evil, env } = paused("bash ./deploy.sh");
    const rc = program(evil, "rc", "echo evil > evil.txt");
    // Before: exit 0, evil.txt written by the resume's BASH_ENV before deploy.sh ran.
    expectVoided(ws, env, { ...env, BASH_ENV: rc });
  });

  it("NODE_OPTIONS=--require set at resume for an approved `node ./deploy.mjs` voids it", () => {
    const { ws, evil, env } = paused("node ./deploy.mjs");
    // The module acts only inside the approved program (planspec's own node loads it too, and must not be the one that writes).
    const mod = join(evil, "hook.cjs");
    writeFileSync(mod, 'if (process.argv.some((a) => a.endsWith("deploy.mjs"))) require("node:fs").writeFileSync("evil.txt", "evil\\n");\n');
    expectVoided(ws, env, { ...env, NODE_OPTIONS: `--require ${mod}` });
  });

  it("an exported bash function (BASH_FUNC_kubectl%%) set at resume voids the approval of the script calling kubectl", () => {
    // With `args`, exec starts bash itself; through `sh -c` dash drops a variable whose name has `%` in it.
    const { ws, env } = paused("bash", {}, ["./deploy.sh"]);
    expectVoided(ws, env, { ...env, "BASH_FUNC_kubectl%%": "() {  echo evil > evil.txt; }" });
  });

  it("PYTHONPATH with a sitecustomize.py set at resume for an approved `python3 ./deploy.py` voids it", () => {
    const { ws, evil, env } = paused("python3 ./deploy.py");
    put(ws, "deploy.py", 'open("deployed.txt", "w").write("deployed\\n")\n');
    // Python imports `sitecustomize` from its path at start, before the approved script.
    writeFileSync(join(evil, "sitecustomize.py"), 'open("evil.txt", "w").write("evil\\n")\n');
    expectVoided(ws, env, { ...env, PYTHONPATH: evil });
  });

  it("a variable set at approve and unset at resume (LD_LIBRARY_PATH) voids it too", () => {
    const { ws, evil, env } = paused("bash ./deploy.sh");
    expectVoided(ws, { ...env, LD_LIBRARY_PATH: evil }, env);
  });

  it("the file a bound variable names, rewritten between approve and resume (the same BASH_ENV), voids it", () => {
    const { ws, evil, env } = paused("bash ./deploy.sh");
    const rc = program(evil, "rc", "echo rc-ran > rc.txt");
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"], { ...env, BASH_ENV: rc }).code).toBe(0);
    program(evil, "rc", "echo evil > evil.txt");
    const r = planspec(ws, ["resume", "r"], { ...env, BASH_ENV: rc });
    expect(existsSync(join(ws, "evil.txt")), "the rewritten file ran after the approval").toBe(false);
    expect(r.code, r.stderr).toBe(3);
    expect(voided(ws)).toHaveLength(1);
  });

  it("the same environment at approve and resume keeps it; the value is written nowhere", () => {
    const { ws, evil, env } = paused("bash ./deploy.sh");
    program(evil, "rc", "echo rc-ran > rc.txt");
    const secret = "Zq7-hunter2-token-0193";
    const same = { ...env, BASH_ENV: join(evil, "rc"), "BASH_FUNC_helper%%": "() { :; }", GIT_CONFIG_VALUE_0: `Authorization: Bearer ${secret}` };
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "release-manager"], same).code).toBe(0);
    const r = planspec(ws, ["resume", "r"], same);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(ws, "deployed.txt"), "utf8")).toBe("deployed\n");
    expect(readFileSync(join(ws, "rc.txt"), "utf8")).toBe("rc-ran\n");
    expect(readFileSync(join(ws, "applied.txt"), "utf8")).toBe("applied apply -f app.yaml\n");
    expect(voided(ws)).toHaveLength(0);
    const written = [r.stdout, r.stderr, ...filesUnder(join(ws, "r")).map((f) => readFileSync(f, "utf8"))].join("\n");
    expect(written).not.toContain(secret);
    expect(written).not.toContain("hunter2");
  });

  it("variables off the list (HOME, LANG, a plan's own) do not count; those on it do, as the program gets them", () => {
    expect(boundVariables({ PATH: "/bin", HOME: "/root", LANG: "C", TERM: "xterm" })).toEqual({});
    expect(boundVariables({ BASH_ENV: "/x", "BASH_FUNC_k%%": "() { :; }", LD_PRELOAD: "/y.so", GIT_CONFIG_KEY_0: "core.pager", HOME: "/root" })).toEqual({
      BASH_ENV: "/x",
      "BASH_FUNC_k%%": "() { :; }",
      LD_PRELOAD: "/y.so",
      GIT_CONFIG_KEY_0: "core.pager",
    });
    // The step's own `env` is what the program gets over the session's.
    expect(boundVariables({ BASH_ENV: "/x" }, { BASH_ENV: "/z", FOO: "1" })).toEqual({ BASH_ENV: "/z" });
  });

  it("a binding where no bound variable is set is the one computed without them (what older planspecs recorded)", () => {
    const ws = scratch();
    put(ws, "deploy.sh", "echo deployed\n");
    const p = compile(reviewedDeployPlan("bash ./deploy.sh"));
    const node = p.nodes.find((n) => n.id === "deploy")!;
    const state = { inputs: {}, nodes: {} } as unknown as RunState;
    const path = process.env.PATH ?? "/usr/bin:/bin";
    const bind = (env: Record<string, string>) => actionBinding(p, node, {} as EvalEnv, state, "code", ws, { env, salt: "00112233445566778899aabbccddeeff" });
    const plain = bind({ PATH: path });
    // Variables off the list change nothing; the same binding as round 8's, which had no environment.
    expect(bind({ PATH: path, HOME: "/home/x", LANG: "C.UTF-8", TERM: "dumb" })).toBe(plain);
    expect(bind({ PATH: path, BASH_ENV: "/tmp/rc" })).not.toBe(plain);
    expect(bind({ PATH: path, BASH_ENV: "/tmp/rc" })).not.toBe(bind({ PATH: path, BASH_ENV: "/tmp/rc2" }));
    // Another salt, another fingerprint of the same values (a run's binding says nothing of another run's).
    expect(bind({ PATH: path, BASH_ENV: "/tmp/rc" })).not.toBe(actionBinding(p, node, {} as EvalEnv, state, "code", ws, { env: { PATH: path, BASH_ENV: "/tmp/rc" }, salt: "ffeeddccbbaa99887766554433221100" }));
  });

  it("a step of another tool (a tool module, in planspec's own process) binds no variables: NODE_OPTIONS on the resume's command line alone does not void it", () => {
    // At 39f54f2 test/security/lock.test.ts's resumes, started with NODE_OPTIONS=--import=<barrier>, found
    // their approval (given without it) void: the tool module's step had bound the environment too.
    const ws = scratch();
    const p = compile(reviewedDeployPlan("bash ./deploy.sh").replace("tool: exec", "tool: deploy_module").replace("exec: { risk: external }", "deploy_module: { risk: external }"));
    const node = p.nodes.find((n) => n.id === "deploy")!;
    expect(node.tool).toBe("deploy_module");
    const state = { inputs: {}, nodes: {} } as unknown as RunState;
    const bind = (env: Record<string, string>) => actionBinding(p, node, {} as EvalEnv, state, "code", ws, { env, salt: "00112233445566778899aabbccddeeff" });
    expect(bind({ PATH: "/bin", NODE_OPTIONS: "--import=/tmp/barrier.mjs", BASH_ENV: "/tmp/rc" })).toBe(bind({ PATH: "/bin" }));
  });

  it("exec's shell (/bin/sh, which starts a command line without args) is bound by its real path and content", () => {
    const exec = { tool: "exec" };
    const [entry] = Object.entries(execShell(exec, { command: "kubectl apply -f app.yaml" }));
    expect(entry?.[0]).toBe("shell /bin/sh");
    const [real, digest] = entry![1].split(" ");
    expect(real).toBe(realpathSync("/bin/sh"));
    expect(digest).toBe(createHash("sha256").update(readFileSync(real!)).digest("hex"));
    // With `args` no shell is started; another tool's `command` is not exec's.
    expect(execShell(exec, { command: "bash", args: ["./deploy.sh"] })).toEqual({});
    expect(execShell({ tool: "fs.read" }, { command: "x" })).toEqual({});
  });
});

describe("red team 9: an approver on another machine", () => {
  it("binds no environment of its own, as it binds no files: a proxy set on the approver's machine alone does not void the approval forever", () => {
    const { ws, env } = paused("bash ./deploy.sh");
    // The run directory moved to where the workspace is not (as approve on another machine sees a PostgreSQL store),
    // and the approver's shell sets a variable of the bound list that the workers' does not.
    const elsewhere = scratch();
    renameSync(join(ws, "r"), join(elsewhere, "r"));
    renameSync(ws, `${ws}.away`);
    try {
      expect(planspec(elsewhere, ["approve", "r", "deploy", "--by", "release-manager"], { ...env, HTTPS_PROXY: "http://laptop-proxy.internal:3128" }).code).toBe(0);
    } finally {
      renameSync(`${ws}.away`, ws);
    }
    renameSync(join(elsewhere, "r"), join(ws, "r"));
    expect(events(join(ws, "r")).find((e) => e.type === "approval")?.data.files).toBe("unseen");
    // Before: voided at every resume (the approver's HTTPS_PROXY was in the binding, the worker's environment never has it).
    const r = planspec(ws, ["resume", "r"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(voided(ws)).toEqual([]);
    expect(readFileSync(join(ws, "applied.txt"), "utf8")).toBe("applied apply -f app.yaml\n");
  });
});
