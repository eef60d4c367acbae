/** `planspec lint` through the real CLI: exit codes, discovery, formats and config. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers.js";
import { BAD, CLEAN, IDEMPOTENCY, NO_CRITERIA, workspace } from "./lint-fixtures.js";

const lint = (dir: string, ...args: string[]) => cli(["lint", ...args], { cwd: dir });

describe("planspec lint: exit codes", () => {
  it("exits 0 on a clean plan and says so in the summary", () => {
    const r = lint(workspace({ "a.plan.yaml": CLEAN }), "a.plan.yaml");
    expect(r).toEqual({ status: 0, stdout: "0 problems in 1 file\n", stderr: "" });
  });

  it("exits 1 on errors, printing each finding with a code frame and a summary", () => {
    const r = lint(workspace({ "bad.plan.yaml": BAD }), "bad.plan.yaml");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`bad.plan.yaml:17:3: warning: step "read_input" has no success criteria`);
    expect(r.stdout).toMatch(new RegExp(`bad.plan.yaml:23:3: external step "send_mail" has no idempotency_key.*\\[${IDEMPOTENCY}\\]\\n.*\\n23 \\|   send_mail:\\n.*\\^~~~~~~~~`));
    expect(r.stdout.endsWith("\n2 problems (1 error, 1 warning) in 1 file\n")).toBe(true);
    expect(r.stderr).toBe("");
  });

  it("exits 0 with warnings only, and 1 when they exceed --max-warnings", () => {
    const dir = workspace({ "bad.plan.yaml": BAD });
    expect(lint(dir, "bad.plan.yaml", "--rule", `${IDEMPOTENCY}=off`).status).toBe(0);
    const over = lint(dir, "bad.plan.yaml", "--rule", `${IDEMPOTENCY}=off`, "--max-warnings", "0");
    expect(over.status).toBe(1);
    expect(over.stderr).toBe("planspec: 1 warnings, more than the maximum of 0 (--max-warnings / maxWarnings)\n");
    expect(lint(dir, "bad.plan.yaml", "--rule", `${IDEMPOTENCY}=off`, "--max-warnings", "1").status).toBe(0);
  });

  it("--quiet reports errors only", () => {
    const r = lint(workspace({ "bad.plan.yaml": BAD }), "bad.plan.yaml", "--quiet");
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain(NO_CRITERIA);
    expect(r.stdout).toContain("1 problem (1 error, 0 warnings)");
  });

  it("exits 2 and lists unreadable or unparseable plans, still reporting the others", () => {
    const dir = workspace({ "bad.plan.yaml": BAD, "broken.plan.yaml": "planspec: 1\nname: [unclosed\n", "x.plan.json": "{ nope" });
    const r = lint(dir, ".");
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/broken\.plan\.yaml:\d+:\d+: .*\[PS101\]/);
    expect(r.stdout).toMatch(/x\.plan\.json:1:3: .*\[PS101\]/);
    expect(r.stdout).toContain(IDEMPOTENCY);
  });

  it("exits 2 with one line per path that names nothing, and for bad options", () => {
    const dir = workspace({ "a.plan.yaml": CLEAN, "empty/readme.md": "" });
    expect(lint(dir, "missing.plan.yaml", "empty")).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "planspec: missing.plan.yaml: no such file or directory\n" +
        "planspec: empty: no *.plan.yaml, *.plan.yml or *.plan.json files in this directory\n",
    });
    expect(lint(dir, "a.plan.yaml", "--format", "xml")).toMatchObject({ status: 2, stderr: 'planspec: unknown format "xml"; use one of stylish, json, sarif, github, junit\n' });
    expect(lint(dir, "a.plan.yaml", "--rule", "unused-outpt=off")).toMatchObject({ status: 2, stderr: 'planspec: --rule: unknown rule "unused-outpt"; did you mean "unused-output"?\n' });
    expect(lint(dir, "a.plan.yaml", "--max-warnings", "-1").status).toBe(2);
  });

  it("shows examples in --help", () => {
    const r = cli(["lint", "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Examples:\n  $ planspec lint");
    expect(r.stdout).toContain("--write-baseline <file>");
  });
});

describe("planspec lint: discovery", () => {
  const files = {
    "plans/a.plan.yaml": CLEAN,
    "plans/sub/b.plan.yaml": BAD,
    "plans/c.plan.json": JSON.stringify({ planspec: 1 }),
    "plans/notes.yaml": "not: a plan",
    "plans/node_modules/x/d.plan.yaml": BAD,
    "plans/.cache/e.plan.yaml": BAD,
  };

  it("searches directories for plan files, skipping node_modules and dot-directories", () => {
    const r = lint(workspace(files), "plans", "--format", "json");
    const found = new Set((JSON.parse(r.stdout) as Array<{ file: string }>).map((d) => d.file));
    expect(found).toEqual(new Set([join("plans", "sub", "b.plan.yaml"), join("plans", "c.plan.json")]));
  });

  it("expands quoted globs", () => {
    const r = lint(workspace(files), "plans/**/*.plan.yaml", "--format", "junit");
    expect(r.stdout.match(/<testsuite /g)).toHaveLength(2);
    expect(r.stdout).toContain('<testsuite name="plans/a.plan.yaml" tests="1" failures="0"');
  });
});

describe("planspec lint: formats", () => {
  const dir = workspace({ "bad.plan.yaml": BAD, "a.plan.yaml": CLEAN });

  it("json: an array of diagnostics", () => {
    const r = lint(dir, ".", "--format", "json");
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(out.map((d) => [d.file, d.line, d.col, d.code, d.severity])).toEqual([
      ["bad.plan.yaml", 17, 3, NO_CRITERIA, "warning"],
      ["bad.plan.yaml", 23, 3, IDEMPOTENCY, "error"],
    ]);
    expect(out[1]!.docsUrl).toMatch(new RegExp(`rules\\.md#${IDEMPOTENCY}$`));
  });

  it("sarif: a 2.1.0 log whose results point at their rules", () => {
    const log = JSON.parse(lint(dir, ".", "--format", "sarif").stdout);
    expect(log.version).toBe("2.1.0");
    const { driver } = log.runs[0].tool;
    expect(driver.name).toBe("planspec");
    expect(driver.rules.length).toBeGreaterThan(20);
    for (const r of driver.rules) expect(Object.keys(r)).toEqual(["id", "shortDescription", "fullDescription", "helpUri", "defaultConfiguration"]);
    const results = log.runs[0].results;
    expect(results).toHaveLength(2);
    for (const res of results) expect(driver.rules[res.ruleIndex].id).toBe(res.ruleId);
    expect(results[1]).toMatchObject({
      ruleId: IDEMPOTENCY,
      level: "error",
      locations: [{ physicalLocation: { artifactLocation: { uri: "bad.plan.yaml" }, region: { startLine: 23, startColumn: 3, endLine: 23, endColumn: 12 } } }],
    });
  });

  it("github: workflow commands", () => {
    const lines = lint(dir, ".", "--format", "github").stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^::warning file=bad.plan.yaml,line=17,col=3,endLine=17,endColumn=13,title=${NO_CRITERIA}::step "read_input"`));
    expect(lines[1]).toMatch(/^::error file=bad\.plan\.yaml,line=23,col=3,.*::external step "send_mail"/);
  });

  it("junit: a suite per file, a passing case for the clean one", () => {
    const xml = lint(dir, ".", "--format", "junit").stdout;
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml.match(/<failure /g)).toHaveLength(2);
    expect(xml).toContain('<testsuite name="a.plan.yaml" tests="1" failures="0" errors="0">');
  });

  it("-o writes the report to a file and nothing to stdout", () => {
    const r = lint(dir, ".", "--format", "sarif", "-o", "out/lint.sarif");
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(JSON.parse(readFileSync(join(dir, "out", "lint.sarif"), "utf8")).version).toBe("2.1.0");
  });
});

describe("planspec lint: configuration", () => {
  it("takes severities from the nearest planspec.config.yaml", () => {
    const dir = workspace({
      "planspec.config.yaml": `rules:\n  ${IDEMPOTENCY}: warning\n`,
      "team/planspec.config.yaml": `rules:\n  ${NO_CRITERIA}: off\n`,
      "bad.plan.yaml": BAD,
      "team/bad.plan.yaml": BAD,
    });
    const out = JSON.parse(lint(dir, ".", "--format", "json").stdout) as Array<{ file: string; code: string; severity: string }>;
    expect(out.map((d) => `${d.file} ${d.code} ${d.severity}`)).toEqual([
      `bad.plan.yaml ${NO_CRITERIA} warning`,
      `bad.plan.yaml ${IDEMPOTENCY} warning`,
      `${join("team", "bad.plan.yaml")} ${IDEMPOTENCY} error`,
    ]);
  });

  it("--config replaces the search, and --rule overrides both", () => {
    const dir = workspace({ "planspec.config.yaml": `rules: { ${IDEMPOTENCY}: off }\n`, "ci.yaml": "maxWarnings: 0\n", "bad.plan.yaml": BAD });
    expect(lint(dir, "bad.plan.yaml").status).toBe(0);
    const r = lint(dir, "bad.plan.yaml", "--config", "ci.yaml", "--rule", `${IDEMPOTENCY}=warning`);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("2 warnings, more than the maximum of 0");
  });

  it("skips files matched by ignores", () => {
    const dir = workspace({ "planspec.config.yaml": "ignores: [drafts/]\n", "drafts/bad.plan.yaml": BAD, "a.plan.yaml": CLEAN });
    expect(lint(dir, ".")).toMatchObject({ status: 0, stdout: "0 problems in 1 file\n" });
  });

  it("exits 2 on an invalid config with positioned errors on stderr", () => {
    const dir = workspace({ "planspec.config.yaml": "rules:\n  unused-outputs: warn\nignore: []\n", "a.plan.yaml": CLEAN });
    const r = lint(dir, ".");
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('planspec.config.yaml:2:19: rules.unused-outputs must be one of off, info, warning, error, got "warn" [invalid-config]');
    expect(r.stderr).toContain('planspec.config.yaml:3:1: unknown key "ignore" in the config [invalid-config]');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, "planspec.config.yaml"))).toBe(true);
  });
});
