/**
 * Values nested thousands of levels deep (a generator's bug, or an attack on the compiler's
 * stack): one syntax error that says so, at the value, in YAML as in JSON.
 */
import { describe, expect, it } from "vitest";
import { compileSource } from "../../src/compiler/index.js";

const DEPTH = 5000;
const head = "planspec: 1\nname: deep\ngoal: a deeply nested value\ntools: { t: { risk: read } }\nlimits: { max_tool_calls: 3 }\nsteps:\n";
const flow = `${head}  a: { kind: analyze, goal: read it, tool: t, with: { v: ${"[".repeat(DEPTH)}1${"]".repeat(DEPTH)} } }\n`;
const block = `${head}  a:\n    kind: analyze\n    goal: read it\n    tool: t\n    with:\n      v:\n${Array.from({ length: DEPTH }, (_, i) => `${" ".repeat(8 + 2 * i)}- `).join("\n")}1\n`;

describe(`a value nested ${DEPTH} levels deep`, () => {
  for (const [form, text] of [["flow", flow], ["block", block]] as const) {
    it(`in ${form} YAML: one PS101 that names the nesting, not the JavaScript stack`, () => {
      const r = compileSource("deep.plan.yaml", text);
      expect(r.ir).toBeUndefined();
      expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([["PS101", "nesting too deep to read: a plan's values may nest a few hundred levels"]]);
      // At the value, on the step's line or below: not at the top of the file.
      expect(r.diagnostics[0]!.line).toBeGreaterThanOrEqual(7);
    });
  }
});
