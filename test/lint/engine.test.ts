import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileFile, compileSource } from "../../src/compiler/index.js";
import { lintCompiled, lintFindings } from "../../src/lint/engine.js";
import { defineRule, ruleDocsUrl } from "../../src/lint/rule.js";
import type { ResolvedConfig } from "../../src/lint/config.js";
import { stepRule, TINY_PLAN as PLAN } from "./tiny-plan.js";

const planLevel = defineRule({
  id: "plan-level",
  meta: { description: "plan rule", defaultSeverity: "error", messages: { goal: "goal is {{len}} chars", top: "plan-level finding" } },
  check(ctx) {
    ctx.report({ messageId: "goal", path: ["goal"], data: { len: ctx.ir.goal.length }, hint: "shorten it" });
    ctx.report({ messageId: "top" });
  },
});

function config(rules: ResolvedConfig["rules"]): ResolvedConfig {
  return { baseDir: "/", rules, ignores: [] };
}

function compile(text = PLAN) {
  const result = compileSource("tiny.plan.yaml", text, { cwd: "/" });
  expect(result.diagnostics).toEqual([]);
  return result;
}

describe("lintCompiled position mapping", () => {
  it("points a step finding without a path at the step's key", () => {
    const [first, second] = lintCompiled(compile(), { rules: [stepRule("step-rule")] });
    expect(first).toMatchObject({ code: "step-rule", severity: "warning", message: 'step "read" seen', file: "tiny.plan.yaml", line: 9, col: 3, endLine: 9, endCol: 7 });
    expect(second).toMatchObject({ message: 'step "write" seen', line: 14, col: 3 });
    expect(first!.docsUrl).toBe(ruleDocsUrl("step-rule"));
  });

  it("points a finding with a path at that value below the step", () => {
    const found = lintCompiled(compile(), { rules: [stepRule("tool-rule", { path: ["tool"] })] });
    expect(found.map((d) => [d.line, d.col, d.endCol])).toEqual([
      [12, 11, 17],
      [18, 11, 17],
    ]);
  });

  it("maps plan-level findings to the document path, or to the first line", () => {
    const found = lintCompiled(compile(), { rules: [planLevel] });
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({ message: "plan-level finding", line: 1, col: 1, endCol: 12, severity: "error" });
    expect(found[1]).toMatchObject({ message: "goal is 38 chars", line: 3, col: 7, hint: "shorten it" });
  });

  it("returns nothing for a plan that did not compile", () => {
    const result = compileSource("bad.plan.yaml", "planspec: 1\nname: x\n", { cwd: "/" });
    expect(result.ir).toBeUndefined();
    expect(lintCompiled(result, { rules: [stepRule("step-rule")] })).toEqual([]);
  });

  it("points findings about template steps into the template file", () => {
    const [d] = lintCompiled(compileFile("t.plan.yaml", { cwd: templated() }), { rules: [stepRule("step-rule")] });
    expect(d).toMatchObject({ file: join("templates", "check.template.yaml"), line: 7, col: 3, message: 'step "checking.look" seen' });
  });

  it("applies suppressions written in the template file to its steps", () => {
    const dir = templated("  # planspec-disable-next-line step-rule -- templates are reviewed once, centrally\n");
    expect(lintCompiled(compileFile("t.plan.yaml", { cwd: dir }), { rules: [stepRule("step-rule")] })).toEqual([]);
  });
});

/** A plan using a one-step template; `beforeStep` is inserted above the template's step. */
function templated(beforeStep = ""): string {
  const dir = mkdtempSync(join(tmpdir(), "planspec-engine-"));
  mkdirSync(join(dir, "templates"));
  writeFileSync(
    join(dir, "templates", "check.template.yaml"),
    `planspec: 1
template: check
params: { target: { type: string } }
tools:
  reader: { risk: read }
steps:
${beforeStep}  look:
    kind: read
    goal: Look at the target
    tool: reader
    with: { path: "\${{ params.target }}" }
    output: seen
`,
  );
  writeFileSync(
    join(dir, "t.plan.yaml"),
    `planspec: 1
name: uses-template
goal: Check a target with the template.
templates: [./templates/check.template.yaml]
tools:
  reader: { risk: read }
limits: { run_timeout: 1m }
steps:
  checking:
    uses: check
    with: { target: a.txt }
`,
  );
  const result = compileFile("t.plan.yaml", { cwd: dir });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return dir;
}

describe("lintCompiled severities and options", () => {
  it("takes the severity from the config and drops rules that are off", () => {
    const rules = [stepRule("a"), stepRule("b", { severity: "error" })];
    const found = lintCompiled(compile(), { rules, config: config({ a: { severity: "error" }, b: { severity: "off" } }) });
    expect(found.map((d) => `${d.code}:${d.severity}`)).toEqual(["a:error", "a:error"]);
  });

  it("merges the rule's default options with the config's", () => {
    const seen: Array<Record<string, unknown>> = [];
    const rule = defineRule({
      id: "opts",
      meta: { description: "", defaultSeverity: "warning", messages: { m: "max {{max}}" }, defaultOptions: { max: 4, mode: "strict" } },
      check(ctx) {
        seen.push(ctx.options);
        ctx.report({ messageId: "m", data: { max: Number(ctx.options.max) } });
      },
    });
    const [d] = lintCompiled(compile(), { rules: [rule], config: config({ opts: { options: { max: 9 } } }) });
    expect(seen).toEqual([{ max: 9, mode: "strict" }]);
    expect(d!.message).toBe("max 9");
  });

  it("runs rules that need the original plan only with --against", () => {
    const drift = defineRule({
      id: "drift",
      meta: { description: "", defaultSeverity: "error", needsOriginal: true, messages: { m: "was {{goal}}" } },
      check(ctx) {
        ctx.report({ messageId: "m", path: ["goal"], data: { goal: ctx.original!.goal } });
      },
    });
    const revised = compile(PLAN.replace("write a summary of it", "delete it"));
    expect(lintCompiled(revised, { rules: [drift] })).toEqual([]);
    const [d] = lintCompiled(revised, { rules: [drift], original: compile() });
    expect(d!.message).toBe("was Read a file and write a summary of it.");
  });

  it("sorts findings by position and keeps the step they are about", () => {
    const found = lintFindings(compile(), { rules: [stepRule("z"), planLevel, stepRule("a", { path: ["goal"] })] });
    expect(found.map((f) => `${f.diagnostic.line}:${f.diagnostic.col} ${f.diagnostic.code}`)).toEqual([
      "1:1 plan-level",
      "3:7 plan-level",
      "9:3 z",
      "11:11 a",
      "14:3 z",
      "17:11 a",
    ]);
    expect(found.map((f) => f.step)).toEqual([undefined, undefined, "read", "read", "write", "write"]);
  });

  it("throws on a report with a message id the rule does not declare (a bug in the rule)", () => {
    const broken = defineRule({
      id: "broken",
      meta: { description: "", defaultSeverity: "error", messages: { ok: "ok" } },
      check(ctx) {
        ctx.report({ messageId: "nope" as "ok" });
      },
    });
    expect(() => lintCompiled(compile(), { rules: [broken] })).toThrow(/unknown message id "nope"/);
  });
});
