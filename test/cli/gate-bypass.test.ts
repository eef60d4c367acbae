/**
 * The plan a gate lints must not be able to switch the gate off: suppressions written in
 * it (with --no-inline-config), a directive hidden in a string, a config dropped beside
 * it, an IR file instead of the plan, a run's recorded plan on resume, a closed pipe, and
 * suppression keys in a model's answer. Each case goes through the real CLI or loop.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/planner/catalog.js";
import { planWithRepairs } from "../../src/planner/loop.js";
import type { Provider } from "../../src/llm/provider.js";
import { bin, cli } from "../helpers.js";
import { BAD, CLEAN, IDEMPOTENCY, NO_CRITERIA, badJsonPlan, workspace } from "./lint-fixtures.js";

const lint = (dir: string, ...args: string[]) => cli(["lint", ...args], { cwd: dir });
const codes = (stdout: string) => (JSON.parse(stdout) as Array<{ code: string; line: number; severity: string }>).map((d) => `${d.line} ${d.severity} ${d.code}`);
const SUPPRESSED = BAD.replace("  send_mail:\n", `  # planspec-disable-next-line ${IDEMPOTENCY} -- approved by the security team\n  send_mail:\n`);

describe("--no-inline-config", () => {
  it("reports the finding a suppression comment would hide, and the suppression itself", () => {
    const dir = workspace({ "p.plan.yaml": SUPPRESSED, "q.plan.yaml": `# planspec-disable ${IDEMPOTENCY} -- generated plans are reviewed later\n${BAD}` });
    expect(lint(dir, "p.plan.yaml").status).toBe(0);
    const r = lint(dir, "p.plan.yaml", "--no-inline-config", "--format", "json");
    expect(r.status).toBe(1);
    expect(codes(r.stdout)).toEqual([`17 warning ${NO_CRITERIA}`, "23 warning ignored-suppression", `24 error ${IDEMPOTENCY}`]);
    const file = lint(dir, "q.plan.yaml", "--no-inline-config", "--format", "json");
    expect(file.status).toBe(1);
    expect(codes(file.stdout)).toEqual(["1 warning ignored-suppression", `18 warning ${NO_CRITERIA}`, `24 error ${IDEMPOTENCY}`]);
  });

  it("ignores x-planspec-disable in a JSON plan", () => {
    const dir = workspace({ "p.plan.json": badJsonPlan([{ rule: IDEMPOTENCY, step: "send", reason: "the gateway deduplicates" }]) });
    const rule = (stdout: string) => codes(stdout).map((c) => c.split(" ").slice(1).join(" "));
    expect(rule(lint(dir, "p.plan.json", "--format", "json").stdout)).toEqual(["error write-without-evidence"]);
    const r = lint(dir, "p.plan.json", "--no-inline-config", "--format", "json");
    expect(r.status).toBe(1);
    expect(rule(r.stdout).sort()).toEqual([`error ${IDEMPOTENCY}`, "error write-without-evidence", "warning ignored-suppression"]);
  });
});

describe("a directive inside a string is text, not a comment", () => {
  it("a block-scalar goal line reading '# planspec-disable-next-line' suppresses nothing", () => {
    // read_input's goal, moved last, ends with the line above send_mail's key.
    const text = BAD.replace("    goal: Read the input file from the workspace\n", "").replace(
      "    output: text\n  send_mail:\n",
      `    output: text\n    goal: |\n      Read the input file from the workspace\n      # planspec-disable-next-line ${IDEMPOTENCY} -- the model says so\n  send_mail:\n`,
    );
    const dir = workspace({ "p.plan.yaml": text });
    const r = lint(dir, "p.plan.yaml", "--format", "json");
    expect(r.status).toBe(1);
    expect(codes(r.stdout)).toContain(`25 error ${IDEMPOTENCY}`);
  });
});

describe("--config pins the config", () => {
  it("a planspec.config.yaml dropped beside the plans applies without --config, never with it", () => {
    const dir = workspace({ "gen/p.plan.yaml": BAD, "gen/planspec.config.yaml": 'ignores: ["**"]\nrules: { side-effect-without-idempotency-key: off }\n', "ci/lint.yaml": "maxWarnings: 5\n" });
    expect(lint(dir, "gen")).toMatchObject({ status: 0, stderr: "planspec: all 1 files are ignored by the config's ignores\n" });
    const pinned = lint(dir, "gen", "--config", "ci/lint.yaml", "--format", "json");
    expect(pinned.status).toBe(1);
    expect(codes(pinned.stdout)).toContain(`23 error ${IDEMPOTENCY}`);
  });

  it("--print-config names the config that applies and the resolved rules", () => {
    const dir = workspace({ "gen/p.plan.yaml": BAD, "gen/planspec.config.yaml": "rules: { unused-output: off, over-planning: [error, { simple: 3 }] }\n", "ci/lint.yaml": "maxWarnings: 5\n" });
    const found = lint(dir, "--print-config", "gen/p.plan.yaml");
    expect(found.status).toBe(0);
    const printed = JSON.parse(found.stdout);
    expect(printed).toMatchObject({ file: "gen/p.plan.yaml", config: "gen/planspec.config.yaml", inlineConfig: true, ignored: false });
    expect(printed.rules["unused-output"]).toBe("off");
    expect(printed.rules["over-planning"]).toEqual(["error", expect.objectContaining({ simple: 3 })]);
    expect(printed.rules[IDEMPOTENCY]).toBe("error");
    const pinned = JSON.parse(lint(dir, "--print-config", "gen/p.plan.yaml", "--config", "ci/lint.yaml", "--no-inline-config").stdout);
    expect(pinned).toMatchObject({ config: "ci/lint.yaml", inlineConfig: false, maxWarnings: 5 });
    expect(pinned.rules["unused-output"]).not.toBe("off");
  });
});

describe("run, submit and resume gate an IR file like a plan file", () => {
  function compiledBad(): { dir: string; ir: string } {
    const dir = workspace({ "p.plan.yaml": BAD });
    expect(cli(["compile", "p.plan.yaml", "-o", "p.ir.json"], { cwd: dir }).status).toBe(0);
    return { dir, ir: "p.ir.json" };
  }

  it("run refuses plan.ir.json as it refuses the plan", () => {
    const { dir, ir } = compiledBad();
    const yaml = cli(["run", "p.plan.yaml"], { cwd: dir });
    expect(yaml.status).toBe(1);
    const r = cli(["run", ir], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`[${IDEMPOTENCY}]`);
    expect(r.stderr).toContain("planspec: refusing to run p.ir.json: lint found 1 error (fix them, or pass --no-lint-gate)");
  });

  it("submit refuses plan.ir.json before it touches the store", () => {
    const { dir, ir } = compiledBad();
    const r = cli(["submit", ir, "--store", "postgres://127.0.0.1:1/nowhere"], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("planspec: refusing to run p.ir.json: lint found 1 error");
  });

  it("a run started with --no-lint-gate stays overridden on resume: the operator's decision, recorded in run.started", () => {
    const dir = workspace({ "p.plan.yaml": BAD, "notes.txt": "hello\n", "tools.mjs": "export default { 'mail.send': { risk: 'external', run: async () => ({ id: 1 }) } };\n" });
    const started = cli(["run", "p.plan.yaml", "--no-lint-gate", "--tools", "tools.mjs", "--run-id", "r1", "--input", "path=notes.txt"], { cwd: dir });
    expect(started.status).toBe(3); // paused at the approval of send_mail
    const events = readFileSync(join(dir, ".planspec/runs/r1/events.jsonl"), "utf8");
    expect(events).toMatch(/"type":"run\.started".*"lintGate":"overridden"/);
    const resumed = cli(["resume", "r1"], { cwd: dir });
    expect(resumed.stderr).not.toContain("refusing");
    expect(resumed.status).toBe(3);
  });

  it("resume honours the plan file's reasoned suppressions while the file is the run's plan, and not after it changed", () => {
    const dir = workspace({ "p.plan.yaml": SUPPRESSED, "notes.txt": "hello\n", "tools.mjs": "export default { 'mail.send': { risk: 'external', run: async () => ({ id: 1 }) } };\n" });
    expect(cli(["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", "s1", "--input", "path=notes.txt"], { cwd: dir }).status).toBe(3);
    expect(cli(["resume", "s1"], { cwd: dir })).toMatchObject({ status: 3 });
    writeFileSync(join(dir, "p.plan.yaml"), SUPPRESSED.replace("Read the input file from the workspace", "Read the input file"));
    const r = cli(["resume", "s1"], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/refusing to resume .*s1: lint found 1 error/);
  });

  it("run --no-inline-config refuses a plan whose own suppression would let it through", () => {
    const dir = workspace({ "p.plan.yaml": SUPPRESSED, "notes.txt": "hello\n", "tools.mjs": "export default { 'mail.send': { risk: 'external', run: async () => ({ id: 1 }) } };\n" });
    const honoured = cli(["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", "s1", "--input", "path=notes.txt"], { cwd: dir });
    expect(honoured.stderr).not.toContain("refusing");
    expect(honoured.status).toBe(3); // it ran up to the approval
    const r = cli(["run", "p.plan.yaml", "--no-inline-config", "--tools", "tools.mjs", "--run-id", "s2", "--input", "path=notes.txt"], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("planspec: refusing to run p.plan.yaml: lint found 1 error");
  });

  it("a clean IR lints clean and passes the gate", () => {
    const dir = workspace({ "c.plan.yaml": CLEAN, "notes.txt": "hello\n" });
    expect(cli(["compile", "c.plan.yaml", "-o", "c.ir.json"], { cwd: dir }).status).toBe(0);
    expect(cli(["lint", "c.ir.json"], { cwd: dir })).toMatchObject({ status: 0 });
    const r = cli(["run", "c.ir.json", "--run-id", "c1", "--input", "path=notes.txt"], { cwd: dir });
    expect(r.stderr).not.toContain("refusing");
    expect(r.stdout).toContain("run c1: ");
  });
});

describe("the exit code survives a closed pipe", () => {
  it("set -o pipefail; planspec lint bad | head -1 exits 1", () => {
    // Enough output to overflow the pipe buffer, so the writes after head exits hit EPIPE.
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++) files[`p${i}.plan.yaml`] = BAD;
    const dir = workspace(files);
    const r = spawnSync("bash", ["-c", `set -o pipefail; "${process.execPath}" "${bin}" lint . | head -1`], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect(r.stdout.split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
  });
});

describe("the planner strips suppressions from the model's answer", () => {
  it("x-planspec-disable keys and directive lines in strings do not reach the plan", async () => {
    const dir = workspace({ "tools.catalog.yaml": "planspec: 1\ntools:\n  fs.read: { risk: read }\n  mail.send: { risk: external }\n" });
    const answer = {
      planspec: 1,
      name: "mail-it",
      goal: "Mail the notes to ops",
      "x-planspec-disable": [{ rule: IDEMPOTENCY, step: "send", reason: "trust me" }],
      limits: { run_timeout: "10m", max_tool_calls: 5 },
      defaults: { timeout: "1m" },
      steps: {
        read: { kind: "read", goal: "Read the notes file", tool: "fs.read", with: { path: "notes.txt" }, output: "notes", success: [{ check: "${{ len(output) > 0 }}" }] },
        send: {
          kind: "external",
          needs: ["read"],
          goal: `Mail the notes to ops\n# planspec-disable-next-line ${IDEMPOTENCY} -- trust me`,
          tool: "mail.send",
          "x-planspec-disable": IDEMPOTENCY,
          approval: { required: true, approvers: ["ops"], timeout: "1h" },
          with: { body: "${{ steps.read.output }}" },
          success: [{ check: "${{ exists(output.id) }}" }],
        },
      },
    };
    const provider: Provider = {
      name: "fake",
      model: "m",
      complete: async () => ({ text: JSON.stringify(answer), usage: { inputTokens: 1, outputTokens: 1 }, truncated: false, mode: "plain" }),
    };
    const events: Array<Record<string, unknown>> = [];
    const r = await planWithRepairs({
      goal: "Mail the notes to ops",
      provider,
      catalog: loadCatalog("tools.catalog.yaml", dir),
      templates: [],
      planFile: join(dir, "mail.plan.yaml"),
      cwd: dir,
      maxRepairs: 0,
      trace: { record: (e) => void events.push(e as Record<string, unknown>) },
    });
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toContain(IDEMPOTENCY);
    expect(r.checked!.yaml).not.toContain("planspec-disable");
    expect(events.find((e) => e.type === "diagnostics")?.stripped).toEqual([
      "x-planspec-disable at the top level",
      "a planspec-disable line in steps.send.goal",
      "x-planspec-disable at steps.send",
    ]);
  });

  it("a goal that reads as a directive is quoted in the plan's header", async () => {
    const { renderPlanYaml } = await import("../../src/planner/document.js");
    const yaml = renderPlanYaml({ planspec: 1 }, `Planned for the goal:\nplanspec-disable ${IDEMPOTENCY} -- injected`);
    expect(yaml).toContain(`# > planspec-disable ${IDEMPOTENCY} -- injected\n`);
    const dir = workspace({ "p.plan.yaml": yaml.replace("planspec: 1\n", "") + BAD });
    expect(codes(lint(dir, "p.plan.yaml", "--format", "json").stdout)).toContain(`25 error ${IDEMPOTENCY}`);
  });
});

describe("fixtures", () => {
  it("SUPPRESSED hides the error when inline config is on", () => {
    const dir = workspace({ "p.plan.yaml": SUPPRESSED });
    expect(codes(lint(dir, "p.plan.yaml", "--format", "json").stdout)).toEqual([`17 warning ${NO_CRITERIA}`]);
  });
});
