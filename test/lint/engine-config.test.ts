import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigResolver, loadConfigFile, parseRuleOverride, type KnownRule } from "../../src/lint/config.js";

const known: KnownRule[] = [{ id: "over-planning", defaultOptions: { max_steps: 12, strict: false } }, { id: "unused-output" }, { id: "unknown-rule" }];

function tmp(): string {
  return mkdtempSync(join(tmpdir(), "planspec-config-"));
}

function configAt(dir: string, text: string): string {
  const file = join(dir, "planspec.config.yaml");
  writeFileSync(file, text);
  return file;
}

const show = (ds: Array<{ line: number; col: number; message: string; hint?: string }>) =>
  ds.map((d) => `${d.line}:${d.col} ${d.message}${d.hint ? ` (${d.hint})` : ""}`);

describe("loadConfigFile", () => {
  it("reads severities, options, ignores and the warning budget", () => {
    const file = configAt(tmp(), "rules:\n  over-planning: [error, { max_steps: 20 }]\n  unused-output: off\nignores: [drafts/]\nmaxWarnings: 3\n");
    const { config, diagnostics } = loadConfigFile(file, known);
    expect(diagnostics).toEqual([]);
    expect(config).toMatchObject({
      rules: { "over-planning": { severity: "error", options: { max_steps: 20 } }, "unused-output": { severity: "off" } },
      ignores: ["drafts/"],
      maxWarnings: 3,
    });
  });

  it("gives positioned errors for schema violations, with did-you-mean", () => {
    const file = configAt(tmp(), "rules:\n  unused-output: warn\n  over-planning: [error, 3, 4]\nignore: [x]\nmaxWarnings: -1\n");
    const { config, diagnostics } = loadConfigFile(file, known);
    expect(config).toBeUndefined();
    expect(diagnostics.every((d) => d.code === "invalid-config" && d.severity === "error" && d.file === file)).toBe(true);
    expect(show(diagnostics).sort()).toEqual(
      [
        '2:18 rules.unused-output must be one of off, info, warning, error, got "warn" (did you mean "warning"?)',
        "3:18 rules.over-planning must be a severity, [severity] or [severity, { options }]",
        "3:26 rules.over-planning.1 must be object, got number",
        '4:1 unknown key "ignore" in the config (did you mean "ignores"?)',
        "5:14 maxWarnings must be at least 0",
      ].sort(),
    );
  });

  it("rejects unknown rule ids and unknown or mistyped options", () => {
    const file = configAt(tmp(), "rules:\n  unused-outputs: off\n  over-planning: [warning, { max_step: 3, strict: yes }]\n");
    const { diagnostics } = loadConfigFile(file, known);
    expect(show(diagnostics)).toEqual([
      '2:3 unknown rule "unused-outputs" (did you mean "unused-output"?)',
      '3:30 rule "over-planning" has no option "max_step"; it has max_steps, strict (did you mean "max_steps"?)',
      '3:51 option "strict" of rule "over-planning" must be boolean, got string',
    ]);
  });

  it("reports YAML syntax errors and unreadable files as config errors", () => {
    const dir = tmp();
    expect(show(loadConfigFile(configAt(dir, "rules: [\n"), known).diagnostics)[0]).toMatch(/^\d+:\d+ /);
    expect(loadConfigFile(join(dir, "missing.yaml"), known).diagnostics[0]!.message).toMatch(/cannot read config .*missing.yaml: no such file/);
  });
});

describe("ConfigResolver", () => {
  it("uses the nearest config above each file, and defaults where there is none", () => {
    const root = tmp();
    mkdirSync(join(root, "a", "b"), { recursive: true });
    mkdirSync(join(root, "c"));
    configAt(root, "rules: { unused-output: error }\n");
    configAt(join(root, "a"), "rules: { unused-output: off }\n");
    const resolver = new ConfigResolver(known, { cwd: root });
    expect(resolver.forFile("a/b/x.plan.yaml").rules["unused-output"]?.severity).toBe("off");
    expect(resolver.forFile("c/y.plan.yaml").rules["unused-output"]?.severity).toBe("error");
    expect(resolver.forFile(join(root, "z.plan.yaml")).file).toBe(join(root, "planspec.config.yaml"));
    expect(resolver.configs()).toHaveLength(2);
    expect(resolver.diagnostics).toEqual([]);
  });

  it("loads each config once however many files share it", () => {
    const root = tmp();
    configAt(root, "rules: { unused-output: error }\n");
    const resolver = new ConfigResolver(known, { cwd: root });
    const configs = new Set(Array.from({ length: 50 }, (_, i) => resolver.forFile(`p${i}.plan.json`)));
    expect(configs.size).toBe(1);
  });

  it("prefers --config and applies --rule overrides on top", () => {
    const root = tmp();
    configAt(root, "rules: { unused-output: error }\n");
    const other = join(root, "other.yaml");
    writeFileSync(other, "rules: { over-planning: [error, { max_steps: 5 }] }\n");
    const resolver = new ConfigResolver(known, { cwd: root, explicit: "other.yaml", overrides: [{ id: "over-planning", severity: "warning" }] });
    const config = resolver.forFile("x.plan.yaml");
    expect(config.file).toBe(other);
    expect(config.rules).toEqual({ "over-planning": { severity: "warning", options: { max_steps: 5 } } });
  });

  it("collects the errors of an invalid config, naming it relative to cwd", () => {
    const root = tmp();
    configAt(root, "rules: { nope: off }\n");
    const resolver = new ConfigResolver(known, { cwd: root });
    resolver.forFile("x.plan.yaml");
    resolver.forFile("y.plan.yaml");
    expect(resolver.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message}`)).toEqual(['planspec.config.yaml:1:10: unknown rule "nope"']);
  });
});

describe("parseRuleOverride", () => {
  it("parses id=severity", () => {
    expect(parseRuleOverride("unused-output=off", known)).toEqual({ id: "unused-output", severity: "off" });
  });
  it("explains malformed overrides, unknown ids and unknown severities", () => {
    expect(parseRuleOverride("unused-output", known)).toMatch(/expects id=severity/);
    expect(parseRuleOverride("unused-outpt=off", known)).toBe('--rule: unknown rule "unused-outpt"; did you mean "unused-output"?');
    expect(parseRuleOverride("unused-output=warn", known)).toMatch(/severity must be off, info, warning or error, got "warn"; did you mean "warning"\?/);
  });
});
