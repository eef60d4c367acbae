/**
 * `planspec eval <suite> --planner`: every case planned by a real local HTTP server
 * speaking the OpenAI protocol, the plans written to --out, then scored like --plans.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GOAL, cliAsync, goodPlan, readOnlyPlan, workspace } from "../planner/fixtures.js";
import { type ScriptServer, type Scripted, errorReply, openaiReply, startServer } from "../planner/server.js";

const SUITE = `planspec: 1
suite: typo
tools:
  import: ./tools.catalog.yaml
cases:
  - id: fix-typo
    goal: "${GOAL}"
    required:
      - { id: read, tool: fs.read, before: [edit] }
      - { id: edit, tool: code.edit, output: patch }
  - id: find-typo
    goal: "Find the typo in the README"
    required:
      - { id: read, tool: fs.read }
      - { id: search, tool: code.search, output: typos }
`;

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A workspace holding the catalogue and the 2-case suite, evaluated with --planner against the scripted server. */
async function evalWith(script: Scripted[], extra: string[] = []) {
  server = await startServer(script);
  const dir = workspace();
  writeFileSync(join(dir, "typo.suite.yaml"), SUITE);
  const r = await cliAsync(["eval", "typo.suite.yaml", "--planner", "openai:test-model", "--base-url", `${server.url}/v1`, ...extra], dir, { OPENAI_API_KEY: "sk-eval-secret-456" });
  return { ...r, dir, requests: server.requests };
}

describe("planspec eval <suite> --planner", () => {
  it("plans each case, writes plans and traces to --out, and scores them; --replay re-scores without network", async () => {
    const r = await evalWith([openaiReply(JSON.stringify(goodPlan())), openaiReply(JSON.stringify(readOnlyPlan()))], ["--out", "runs/test"]);
    expect(r.stderr).toMatch(/^fix-typo: clean\nfind-typo: clean\nplanned 2 cases with openai:test-model into .*runs\/test\n$/);
    expect(r.status, r.stderr).toBe(0);
    expect(r.requests.map((q) => q.body.model)).toEqual(["test-model", "test-model"]);
    expect(r.requests[1]!.body.messages[1].content).toContain("Find the typo in the README");

    const out = join(r.dir, "runs/test");
    const fix = readFileSync(join(out, "fix-typo.plan.yaml"), "utf8");
    expect(fix).toContain("fix_typo:");
    expect(fix).toContain("code.edit:");
    expect(readFileSync(join(out, "find-typo.plan.yaml"), "utf8")).toContain("name: find-typo");
    const trace = readFileSync(join(out, "fix-typo.trace.jsonl"), "utf8");
    expect(trace).not.toContain("sk-eval-secret-456");
    expect(JSON.parse(trace.split("\n")[0]!).goal).toBe(GOAL);
    expect(existsSync(join(out, "find-typo.trace.jsonl"))).toBe(true);

    expect(r.stdout).toMatch(/^suite typo: 2 cases\ncase +coverage +redundancy/);
    expect(r.stdout).toMatch(/\nfix-typo +1 +0 /);
    expect(r.stdout).toMatch(/\nfind-typo +1 +0 /);
    expect(r.stdout).toMatch(/\naverage +1 +0 /);

    // The written directory is a --plans directory: re-scoring it needs no server.
    await server!.close();
    server = undefined;
    const again = await cliAsync(["eval", "typo.suite.yaml", "--replay", "runs/test"], r.dir);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(r.stdout);
  });

  it("scores a case whose answers never parse as missing, and keeps no plan file for it", async () => {
    const junk = openaiReply("I cannot help with that.");
    const r = await evalWith([openaiReply(JSON.stringify(goodPlan())), junk, junk, junk], ["--out", "out"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/find-typo: no plan/);
    expect(existsSync(join(r.dir, "out/fix-typo.plan.yaml"))).toBe(true);
    expect(existsSync(join(r.dir, "out/find-typo.plan.yaml"))).toBe(false);
    expect(r.stdout).toMatch(/\nfind-typo \(missing\) +0 /);
  });

  it("writes to a printed temp directory when --out is not given", async () => {
    const r = await evalWith([openaiReply(JSON.stringify(goodPlan())), openaiReply(JSON.stringify(readOnlyPlan()))]);
    expect(r.status, r.stderr).toBe(0);
    const dir = /into (.+)\n/.exec(r.stderr)?.[1];
    expect(dir).toBeDefined();
    expect(existsSync(join(dir!, "fix-typo.plan.yaml"))).toBe(true);
  });

  it("gives one line and exit 2 on 401", async () => {
    const r = await evalWith([errorReply(401, "Incorrect API key provided")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^planspec: [^\n]*refused the API key \(401\): check OPENAI_API_KEY[^\n]*\n$/);
    expect(r.stderr).not.toContain("sk-eval-secret-456");
    expect(r.stdout).toBe("");
  });

  it("gives one line and exit 2 without a key, before any request", async () => {
    server = await startServer([]);
    const dir = workspace();
    writeFileSync(join(dir, "typo.suite.yaml"), SUITE);
    const r = await cliAsync(["eval", "typo.suite.yaml", "--planner", "openai:test-model", "--base-url", `${server.url}/v1`], dir, {});
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^planspec: OPENAI_API_KEY is not set[^\n]*\n$/);
    expect(server.requests).toHaveLength(0);
  });

  it("--trials K plans every case K times and reports pass^k per case and overall; --replay re-scores the trials", async () => {
    const junk = openaiReply("I cannot help with that.");
    // Trial 1: both cases answered well. Trial 2: find-typo never gets a readable answer (3 attempts).
    const r = await evalWith([openaiReply(JSON.stringify(goodPlan())), openaiReply(JSON.stringify(readOnlyPlan())), openaiReply(JSON.stringify(goodPlan())), junk, junk, junk], ["--out", "runs/k2", "--trials", "2", "--format", "json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^trial 1\/2\nfix-typo: clean\nfind-typo: clean\nplanned 2 cases .*trial-1\ntrial 2\/2\nfix-typo: clean\nfind-typo: no plan/);
    const trials = JSON.parse(r.stdout).trials;
    expect(trials.cases).toEqual([
      { id: "fix-typo", passed: [true, true], successes: 2, pass_hat_k: 1 },
      { id: "find-typo", passed: [true, false], successes: 1, pass_hat_k: 0 },
    ]);
    // pass^1 = (2/2 + 1/2) / 2; pass^2 = (1 + 0) / 2.
    expect(trials.pass_hat).toEqual({ "1": 0.75, "2": 0.5 });
    expect(trials.pass_at_1).toBe(0.75);

    await server!.close();
    server = undefined;
    const again = await cliAsync(["eval", "typo.suite.yaml", "--replay", "runs/k2", "--trials", "2"], r.dir);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/\nfix-typo +2\/2 +1\nfind-typo +1\/2 +0\noverall: pass@1 0\.7500, pass\^1 0\.7500, pass\^2 0\.5000\n$/);
    const missing = await cliAsync(["eval", "typo.suite.yaml", "--replay", "runs/k2", "--trials", "3"], r.dir);
    expect([missing.status, missing.stderr]).toEqual([2, "planspec: runs/k2/trial-3 is missing: --replay DIR --trials 3 reads DIR/trial-1 .. DIR/trial-3\n"]);
  });
});
