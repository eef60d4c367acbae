/** `planspec lint` as a CI gate: suppressions, baselines, --against and colour, through the real CLI. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers.js";
import { BAD, CLEAN, IDEMPOTENCY, NO_CRITERIA, badJsonPlan, workspace } from "./lint-fixtures.js";

const lint = (dir: string, ...args: string[]) => cli(["lint", ...args], { cwd: dir });
const codes = (stdout: string) => (JSON.parse(stdout) as Array<{ code: string; line: number; severity: string }>).map((d) => `${d.line} ${d.severity} ${d.code}`);

describe("planspec lint: suppressions", () => {
  it("a disable-next-line comment with a reason silences the finding", () => {
    const text = BAD.replace("  send_mail:\n", `  # planspec-disable-next-line ${IDEMPOTENCY} -- the mail gateway deduplicates by body hash\n  send_mail:\n`);
    const r = lint(workspace({ "p.plan.yaml": text }), "p.plan.yaml", "--format", "json");
    expect(r.status).toBe(0);
    expect(codes(r.stdout)).toEqual([`17 warning ${NO_CRITERIA}`]);
  });

  it("a file-level comment silences a rule in the whole file", () => {
    const text = `# planspec-disable ${NO_CRITERIA} -- generated plans carry no criteria yet\n${BAD}`;
    expect(codes(lint(workspace({ "p.plan.yaml": text }), "p.plan.yaml", "--format", "json").stdout)).toEqual([`24 error ${IDEMPOTENCY}`]);
  });

  it("a suppression without a reason fails the gate; an unused one warns", () => {
    const text = BAD.replace("  send_mail:\n", `  # planspec-disable-next-line ${IDEMPOTENCY}\n  send_mail:\n`).replace(
      "    output: text\n",
      `    # planspec-disable-next-line ${IDEMPOTENCY} -- nothing to silence here\n    output: text\n`,
    );
    const r = lint(workspace({ "p.plan.yaml": text }), "p.plan.yaml", "--format", "json");
    expect(r.status).toBe(1);
    expect(codes(r.stdout)).toEqual([`17 warning ${NO_CRITERIA}`, "22 warning unused-suppression", "24 error suppression-without-reason"]);
  });

  it("JSON plans suppress with x-planspec-disable", () => {
    const plan = badJsonPlan;
    const dir = workspace({ "p.plan.json": plan(), "q.plan.json": plan([{ rule: IDEMPOTENCY, step: "send", reason: "the gateway deduplicates" }]) });
    const found = (file: string) => (JSON.parse(lint(dir, file, "--format", "json").stdout) as Array<{ code: string }>).map((d) => d.code);
    expect(found("p.plan.json")).toContain(IDEMPOTENCY);
    expect(found("q.plan.json")).not.toContain(IDEMPOTENCY);
  });
});

describe("planspec lint: baselines", () => {
  it("--write-baseline records today's findings; --baseline then reports only new ones", () => {
    const dir = workspace({ "plans/p.plan.yaml": BAD, "plans/a.plan.yaml": CLEAN });
    const w = lint(dir, "plans", "--write-baseline", "ci/baseline.json");
    expect(w).toEqual({ status: 0, stdout: "", stderr: "wrote 2 findings to ci/baseline.json\n" });
    const baseline = JSON.parse(readFileSync(join(dir, "ci", "baseline.json"), "utf8"));
    expect(baseline.version).toBe(1);
    expect(baseline.findings.map((f: { file: string; rule: string; step?: string }) => `${f.file} ${f.rule} ${f.step}`)).toEqual([
      `../plans/p.plan.yaml ${NO_CRITERIA} read_input`,
      `../plans/p.plan.yaml ${IDEMPOTENCY} send_mail`,
    ]);

    expect(lint(dir, "plans", "--baseline", "ci/baseline.json")).toMatchObject({ status: 0, stdout: "0 problems in 2 files\n" });

    // Lines move (a comment block on top): still matched. A new step: reported.
    const moved = `# a header\n# that moves every line\n${BAD}  send_again:\n    kind: external\n    needs: [send_mail]\n    goal: Send the summary a second time\n    tool: mail.send\n    risk: external\n    approval: { required: true, approvers: [ops], timeout: 1h }\n    success:\n      - check: "\${{ exists(output.id) }}"\n`;
    writeFileSync(join(dir, "plans", "p.plan.yaml"), moved);
    const r = lint(dir, "plans", "--baseline", "ci/baseline.json", "--format", "json");
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).map((d: { code: string; message: string }) => `${d.code} ${d.message.slice(0, 26)}`)).toEqual([
      `${IDEMPOTENCY} external step "send_again"`,
    ]);
  });

  it("reports baseline entries that no longer match as stale-baseline-entry (info)", () => {
    const dir = workspace({ "p.plan.yaml": BAD });
    lint(dir, "p.plan.yaml", "--write-baseline", "baseline.json");
    writeFileSync(join(dir, "p.plan.yaml"), BAD.replace("    output: text\n", "    output: text\n    success:\n      - check: \"${{ len(output) > 0 }}\"\n"));
    const r = lint(dir, "p.plan.yaml", "--baseline", "baseline.json");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^baseline.json:4:5: info: baseline entry for ${NO_CRITERIA} in p.plan.yaml \\(step "read_input"\\) matches no finding`));
    expect(r.stdout).toContain("1 problem (0 errors, 0 warnings, 1 info) in 1 file");
  });

  it("does not write a baseline while a plan cannot be read", () => {
    const dir = workspace({ "p.plan.yaml": BAD, "q.plan.yaml": "steps: [unclosed\n" });
    const r = lint(dir, ".", "--write-baseline", "baseline.json");
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/^q\.plan\.yaml:\d+:\d+: .*\[PS101\]/);
    expect(existsSync(join(dir, "baseline.json"))).toBe(false);
  });

  it("exits 2 on a baseline that is not one", () => {
    const dir = workspace({ "p.plan.yaml": BAD, "b.json": "[]" });
    expect(lint(dir, "p.plan.yaml", "--baseline", "b.json")).toMatchObject({ status: 2, stderr: 'planspec: baseline b.json is not a planspec baseline (expected { "version": 1, "findings": [...] })\n' });
    expect(lint(dir, "p.plan.yaml", "--baseline", "none.json")).toMatchObject({ status: 2, stderr: "planspec: cannot read baseline none.json: no such file\n" });
  });
});

describe("planspec lint --against", () => {
  it("checks a revised plan against its original", () => {
    const dir = workspace({ "orig.plan.yaml": CLEAN, "rev.plan.yaml": CLEAN.replace(/^goal: .*$/m, "goal: Delete the input file.") });
    expect(lint(dir, "rev.plan.yaml").status).toBe(0);
    const r = lint(dir, "rev.plan.yaml", "--against", "orig.plan.yaml", "--format", "json");
    expect(r.status).toBe(1);
    expect(codes(r.stdout)).toEqual(["3 error goal-drift"]);
  });

  it("--against DIR pairs each revised plan with the original of the same name", () => {
    const drifted = CLEAN.replace(/^goal: .*$/m, "goal: Delete the input file.");
    const dir = workspace({
      "revised/a.plan.yaml": drifted,
      "revised/b.plan.yaml": CLEAN,
      "revised/new.plan.yaml": CLEAN,
      "originals/a.plan.yaml": CLEAN,
      "originals/b.plan.yaml": CLEAN.replace(/^goal: .*$/m, "goal: Summarise the input file in a report."),
    });
    const r = lint(dir, "revised", "--against", "originals", "--format", "json");
    expect(r.status).toBe(1);
    const found = (JSON.parse(r.stdout) as Array<{ file: string; code: string }>).map((d) => `${d.file} ${d.code}`);
    expect(found).toEqual(["revised/a.plan.yaml goal-drift", "revised/b.plan.yaml goal-drift"]);
    expect(r.stderr).toBe("planspec: no original for revised/new.plan.yaml in originals; linted as a new plan\n");
    // The golden naming works too: <case>.original.yaml beside <case>.plan.yaml, in the same directory.
    const golden = workspace({ "cases/x.plan.yaml": drifted, "cases/x.original.yaml": CLEAN });
    expect(codes(lint(golden, "cases", "--against", "cases", "--format", "json").stdout)).toEqual(["3 error goal-drift"]);
  });

  it("--against DIR refuses plans it cannot tell apart by name", () => {
    const dir = workspace({ "x/p.plan.yaml": CLEAN, "y/p.plan.yaml": CLEAN, "o/p.plan.yaml": CLEAN });
    expect(lint(dir, "x", "y", "--against", "o")).toMatchObject({
      status: 2,
      stderr: "planspec: --against o: x/p.plan.yaml and y/p.plan.yaml have the same file name, so neither can be paired with an original by name\n",
    });
  });

  it("takes exactly one plan, and an original that compiles", () => {
    const dir = workspace({ "a.plan.yaml": CLEAN, "b.plan.yaml": CLEAN });
    expect(lint(dir, ".", "--against", "a.plan.yaml")).toMatchObject({ status: 2, stderr: "planspec: --against compares one revised plan with its original; got 2 plans (give a directory to pair them by file name)\n" });
    expect(lint(dir, "a.plan.yaml", "--against", "x.plan.yaml").stderr).toBe("planspec: --against x.plan.yaml does not compile: x.plan.yaml:1:1: cannot read x.plan.yaml: no such file\n");
  });
});

describe("planspec lint: colour", () => {
  const dir = workspace({ "bad.plan.yaml": BAD });
  const env = (extra: Record<string, string>) => ({ env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...extra }, cwd: dir });

  it("colours with FORCE_COLOR or --color, not with NO_COLOR, --no-color or -o", () => {
    const esc = "\u001b[";
    expect(cli(["lint", "bad.plan.yaml"], env({ FORCE_COLOR: "1" })).stdout).toContain(esc);
    expect(cli(["lint", "bad.plan.yaml", "--color"], env({})).stdout).toContain(esc);
    expect(cli(["lint", "bad.plan.yaml"], env({ NO_COLOR: "1" })).stdout).not.toContain(esc);
    expect(cli(["lint", "bad.plan.yaml", "--no-color"], env({ FORCE_COLOR: "1" })).stdout).not.toContain(esc);
    cli(["lint", "bad.plan.yaml", "-o", "report.txt"], env({ FORCE_COLOR: "1" }));
    expect(readFileSync(join(dir, "report.txt"), "utf8")).not.toContain(esc);
  });
});
