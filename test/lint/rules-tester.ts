/**
 * A tiny rule tester (typescript-eslint's RuleTester, cut down): each case is a plan in
 * YAML, written to a temp dir, compiled and linted by the real engine with only the rule
 * under test; invalid cases list the expected `{ messageId, line, column }`.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompileResult, compileFile } from "../../src/compiler/index.js";
import type { ResolvedConfig } from "../../src/lint/config.js";
import { lintCompiled } from "../../src/lint/engine.js";
import type { Rule } from "../../src/lint/rule.js";

export interface Case {
  code: string;
  /** The plan before revision, for rules with `needsOriginal`. */
  original?: string;
  options?: Record<string, unknown>;
  name?: string;
}

export interface Expected {
  messageId: string;
  line: number;
  column: number;
}

export interface InvalidCase extends Case {
  errors: Expected[];
}

const dir = mkdtempSync(join(tmpdir(), "planspec-rules-"));
let counter = 0;

/** Writes `text` to a fresh file and compiles it; a case that does not compile is a bad case. */
export function compileYaml(text: string): CompileResult {
  const file = `case-${++counter}.plan.yaml`;
  writeFileSync(join(dir, file), text);
  const result = compileFile(file, { cwd: dir });
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || !result.ir) {
    throw new Error(`test case does not compile:\n${errors.map((d) => `${d.line}:${d.col}: ${d.message}`).join("\n")}\n${text}`);
  }
  return result;
}

/** Findings of `rule` on a case: message ids with positions, and the real messages. */
export function lintCase(rule: Rule, c: Case): { found: Expected[]; messages: string[] } {
  const result = compileYaml(c.code);
  const opts: Parameters<typeof lintCompiled>[1] = {};
  if (c.original !== undefined) opts.original = compileYaml(c.original);
  if (c.options) {
    const config: ResolvedConfig = { baseDir: dir, rules: { [rule.id]: { options: c.options } }, ignores: [] };
    opts.config = config;
  }
  // A twin of the rule whose messages are their own ids, so the engine's diagnostics
  // carry the message id without the engine knowing about tests.
  const ids = Object.fromEntries(Object.keys(rule.meta.messages).map((k) => [k, k]));
  const probe: Rule = { ...rule, meta: { ...rule.meta, messages: ids } };
  const found = lintCompiled(result, { ...opts, rules: [probe] })
    .filter((d) => d.code === rule.id)
    .map((d) => ({ messageId: d.message, line: d.line, column: d.col }));
  const messages = lintCompiled(result, { ...opts, rules: [rule] })
    .filter((d) => d.code === rule.id)
    .map((d) => d.message);
  return { found, messages };
}

/** Registers a describe block with one test per case. */
export function testRule(rule: Rule, cases: { valid: Array<string | Case>; invalid: InvalidCase[] }): void {
  describe(rule.id, () => {
    cases.valid.forEach((v, i) => {
      const c = typeof v === "string" ? { code: v } : v;
      it(`valid #${i + 1}${c.name ? `: ${c.name}` : ""}`, () => {
        expect(lintCase(rule, c).found).toEqual([]);
      });
    });
    cases.invalid.forEach((c, i) => {
      it(`invalid #${i + 1}${c.name ? `: ${c.name}` : ""}`, () => {
        const { found, messages } = lintCase(rule, c);
        expect(found).toEqual(c.errors);
        for (const m of messages) {
          expect(m, "every placeholder is filled").not.toMatch(/\{\{/);
        }
      });
    });
  });
}

/** Removes the common indentation of a template literal and its leading newline. */
export function dedent(text: string): string {
  const lines = text.replace(/^\n/, "").replace(/\s+$/, "").split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)![0].length));
  return lines.map((l) => l.slice(indent)).join("\n");
}

/** Step entries dedented and indented under `steps:`. */
export function stepsBlock(steps: string): string {
  return dedent(steps)
    .split("\n")
    .map((l) => (l ? `  ${l}` : l))
    .join("\n");
}

/**
 * A plan whose steps come first: the first step key is on line 3, so expected lines read
 * straight off the case. The standard header (goal, tools, limits, defaults) and `extra`
 * top-level YAML follow the steps.
 */
export function plan(steps: string, extra = ""): string {
  return [
    "planspec: 1",
    "steps:",
    stepsBlock(steps),
    "name: rule-case",
    "goal: Fix the retry bug in the login client and report the change.",
    "tools: { fs.read: { risk: read }, fs.write: { risk: write }, tests.run: { risk: read }, llm.ask: { risk: read }, mail.send: { risk: external } }",
    "limits: { run_timeout: 10m, max_tool_calls: 50 }",
    "defaults: { timeout: 1m }",
    dedent(extra),
    "",
  ].join("\n");
}
