/** compile / validate / graph through the real CLI: exit codes, the stdout/stderr split, files written. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { cli, repoRoot } from "../helpers.js";

const example = "specs/examples/csv-anomalies.plan.yaml";
const irSchema = JSON.parse(readFileSync(join(repoRoot, "schemas/plan-ir.schema.json"), "utf8"));

describe("planspec compile", () => {
  it("prints an IR that validates against the IR schema, and nothing on stderr", () => {
    const r = cli(["compile", example]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    const ir = JSON.parse(r.stdout);
    const validate = new Ajv({ strict: false, allErrors: true }).compile(irSchema);
    expect(validate(ir), JSON.stringify(validate.errors)).toBe(true);
    expect(ir.order[0]).toBe("read_csv");
  });

  it("writes the IR with -o, and validate accepts it (exit 0)", () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-"));
    const out = join(dir, "plan.ir.json");
    const r = cli(["compile", example, "-o", out]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^wrote .*plan\.ir\.json \(\d+ steps, planHash [0-9a-f]{12}\)\n$/);
    const v = cli(["validate", out]);
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/valid IR/);
  });

  it("exits 1 with every problem on stderr and nothing on stdout", () => {
    const r = cli(["compile", "specs/compile/err/many-problems.plan.yaml"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.match(/\[PS\d+\]/g)).toHaveLength(4);
    expect(r.stderr).toContain("^~~~");
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // never a stack trace
  });

  it("exits 2 with one line for an unreadable file (PS100) and for a directory", () => {
    for (const target of ["no/such.plan.yaml", "specs"]) {
      const r = cli(["compile", target]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain("[PS100]");
    }
  });

  it("exits 2 with one line for unparseable YAML and JSON (PS101)", () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-"));
    writeFileSync(join(dir, "bad.plan.json"), '{ "planspec": 1, "name": ');
    const r = cli(["compile", join(dir, "bad.plan.json")]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("[PS101]");
  });

  it("colours only when asked: NO_COLOR and --no-color off, FORCE_COLOR and --color on", () => {
    const args = ["compile", "specs/compile/err/unknown-tool.plan.yaml"];
    const esc = /\u001b\[/;
    expect(cli(args).stderr).not.toMatch(esc);
    expect(cli(args, { env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: "1" } }).stderr).toMatch(esc);
    expect(cli([...args, "--no-color"], { env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: "1" } }).stderr).not.toMatch(esc);
    expect(cli([...args, "--color"]).stderr).toMatch(esc);
  });

  it("accepts the JSON form of a plan with positions in its diagnostics", () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-"));
    const file = join(dir, "x.plan.json");
    writeFileSync(
      file,
      JSON.stringify({ planspec: 1, name: "x", goal: "Read a file", tools: { reader: { risk: "read" } }, steps: { a: { kind: "read", goal: "Read it", tool: "raeder" } } }, null, 2),
    );
    const r = cli(["compile", file], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^x\.plan\.json:14:15: unknown tool "raeder"/);
  });
});

describe("planspec validate", () => {
  function tampered(edit: (ir: Record<string, unknown>) => void): string {
    const ir = JSON.parse(cli(["compile", example]).stdout);
    edit(ir);
    const dir = mkdtempSync(join(tmpdir(), "planspec-"));
    const file = join(dir, "plan.ir.json");
    writeFileSync(file, JSON.stringify(ir, null, 2));
    return file;
  }

  it("rejects IR that breaks the schema (PS150)", () => {
    const r = cli(["validate", tampered((ir) => ((ir.nodes as Array<Record<string, unknown>>)[0]!.risk = "dangerous"))]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("[PS150]");
  });

  it("rejects IR whose invariants do not hold (PS151): order, dangling needs, planHash", () => {
    const wrongOrder = cli(["validate", tampered((ir) => (ir.order as string[]).reverse())]);
    expect(wrongOrder.status).toBe(1);
    expect(wrongOrder.stderr).toMatch(/order is not topological.*\[PS151\]/);
    const dangling = cli(["validate", tampered((ir) => (ir.nodes as Array<{ dependsOn: string[] }>)[1]!.dependsOn.push("ghost"))]);
    expect(dangling.stderr).toMatch(/depends on unknown node "ghost".*\[PS151\]/);
    const hash = cli(["validate", tampered((ir) => (ir.goal = "Something else entirely"))]);
    expect(hash.status).toBe(1);
    expect(hash.stderr).toMatch(/planHash does not match.*\[PS151\]/);
  });
});

describe("planspec graph", () => {
  it("draws every step with its kind and risk, in Mermaid and DOT, from a plan or an IR file", () => {
    const ir = JSON.parse(cli(["compile", example]).stdout) as { nodes: Array<{ id: string; kind: string; risk: string }> };
    const mermaid = cli(["graph", example]);
    const dot = cli(["graph", example, "--format", "dot"]);
    expect(mermaid.status).toBe(0);
    expect(dot.status).toBe(0);
    for (const n of ir.nodes) {
      expect(mermaid.stdout).toContain(`${n.id}<br/>${n.kind} · ${n.risk}`);
      expect(dot.stdout).toContain(`"${n.id}" [label="${n.id}\\n${n.kind} · ${n.risk}`);
    }
  });
});

describe("planspec --version / --help", () => {
  it("prints the package version", () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
    const r = cli(["--version"]);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });
});
