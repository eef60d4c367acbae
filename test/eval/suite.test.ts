/** The suite loader: the real suites load; a bad suite gets positioned errors. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSuite } from "../../src/eval/suite.js";

const ROOT = join(import.meta.dirname, "../..");

function suiteFile(text: string, extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "planspec-suite-"));
  for (const [name, body] of Object.entries(extra)) writeFileSync(join(dir, name), body);
  writeFileSync(join(dir, "s.suite.yaml"), text);
  return join(dir, "s.suite.yaml");
}

describe("loadSuite", () => {
  it.each(["csv-data-analysis", "code-change", "approval-workflow", "research-summary"])("loads evals/%s.suite.yaml with 10+ cases and the imported catalogue", (name) => {
    const r = loadSuite(`evals/${name}.suite.yaml`, ROOT);
    expect(r.ok, JSON.stringify(r.diagnostics)).toBe(true);
    if (!r.ok) return;
    expect(r.suite.cases.length).toBeGreaterThanOrEqual(10);
    expect(Object.keys(r.suite.tools).length).toBeGreaterThan(5);
    expect(r.suite.cases.every((c) => c.gold?.endsWith(`${c.id}.plan.yaml`))).toBe(true);
  });

  it("reads an inline catalogue, matchers and an inline gold plan", () => {
    const r = loadSuite(suiteFile(`planspec: 1
suite: tiny
tools: { a: { risk: read }, w: { risk: write } }
cases:
  - id: one
    goal: Do one thing
    required: [{ id: r, tool: a, before: [w] }, { id: w, kind: write }]
    forbidden: [{ tool: x }]
    gold: { planspec: 1, name: one, goal: g, steps: {} }
`));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.suite.tools).toEqual({ a: { risk: "read" }, w: { risk: "write" } });
    expect(r.suite.cases[0]!.required).toEqual([{ id: "r", tool: "a", before: ["w"] }, { id: "w", kind: "write", before: [] }]);
    expect(r.suite.cases[0]!.goldInline).toMatchObject({ name: "one" });
  });

  it("reports each problem at its line and column", () => {
    const file = suiteFile(`planspec: 1
suite: bad
tools: { a: { risk: maybe } }
cases:
  - id: one
    goal: Something
    required:
      - { id: r, tool: a, before: [nope] }
      - { kind: teleport }
      - { id: q }
    colour: blue
  - id: one
    goal: Again
    required: []
`);
    const r = loadSuite(file);
    expect(r.ok).toBe(false);
    const lines = r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`);
    expect(lines).toEqual([
      '3:21 tool "a" needs risk: read, write or external',
      '8:36 before: "nope" names no required matcher of case "one"',
      '9:17 unknown step kind "teleport"',
      "10:9 a matcher needs at least one of kind, tool, output",
      '11:5 unknown key "colour" in a case',
      '12:9 duplicate case id "one"',
    ]);
    expect(r.diagnostics.every((d) => d.file === file && d.severity === "error")).toBe(true);
  });

  it("reports YAML syntax errors, a missing file and a broken catalogue import", () => {
    expect(loadSuite(suiteFile("planspec: 1\nsuite: [unclosed\n")).diagnostics[0]!.line).toBeGreaterThan(1);
    expect(loadSuite("/nonexistent/x.suite.yaml").diagnostics[0]!.message).toMatch(/no such file/);
    const r = loadSuite(suiteFile("planspec: 1\nsuite: s\ntools: { import: ./missing.catalog.yaml }\ncases: [{ id: a, goal: g, required: [{ tool: t }] }]\n"));
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toContain("3:18 cannot import catalogue ./missing.catalog.yaml");
  });
});
