/**
 * Keys a reviewer reads one way and JavaScript another. `with: { __proto__: { role: admin } }`
 * in a plan was compiled away without a word (the key set the object's prototype, the
 * tool got no such argument), so the file said one thing and the run did another. It is
 * now a compile error at the key (PS147), in every parse path (the fast YAML path, the
 * careful one, JSON) and every document (plan, catalogue). `constructor` and `prototype`
 * are ordinary names: they reach the tool as written. A tool named like an Object method
 * (`toString`) is unknown unless the catalogue has it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileFile, compileSource } from "../../src/compiler/index.js";
import { json, planspec, put, scratch, workspace } from "./helpers.js";

const PLAN = `planspec: 1
name: proto-keys
goal: Grant a role
tools: { grant: { risk: write } }
steps:
  grant:
    kind: write
    goal: Grant the role
    tool: grant
    with: { role: viewer, __proto__: { role: admin } }
    idempotency_key: grant-1
`;

/** `file:line:col: message [code]` of every diagnostic. */
function shown(r: ReturnType<typeof compileSource>): string[] {
  return r.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]`);
}

/** line:col of the first `needle` in `text` (1-based). */
function at(text: string, needle: string, from = 0): string {
  const i = text.indexOf(needle, from);
  const before = text.slice(0, i).split("\n");
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

const MESSAGE = 'key "__proto__" is not allowed: JavaScript reads it as the object\'s prototype, so what runs would not be what the file says [PS147]';

describe("a __proto__ key is a compile error at the key, in every parse path", () => {
  const anchored = PLAN.replace("goal: Grant a role", "goal: &g Grant a role");
  const jsonText = `{"planspec": 1, "name": "proto-keys", "goal": "Grant a role", "tools": {"grant": {"risk": "write"}},
 "steps": {"grant": {"kind": "write", "goal": "Grant the role", "tool": "grant",
   "with": {"role": "viewer", "__proto__": {"role": "admin"}}, "idempotency_key": "grant-1"}}}`;
  for (const [name, file, text] of [
    ["YAML (fast path)", "p.plan.yaml", PLAN],
    ["YAML (careful path: an anchor)", "p.plan.yaml", anchored],
    ["JSON", "p.plan.json", jsonText],
  ] as const) {
    it(name, () => {
      const r = compileSource(file, text, { cwd: process.cwd() });
      // A JSON key's range holds its quotes.
      expect(shown(r)).toEqual([`${file}:${at(text, file.endsWith(".json") ? '"__proto__"' : "__proto__")}: ${MESSAGE}`]);
      expect(r.ir).toBeUndefined();
    });
  }

  it("in inputs, step ids and an imported catalogue's input_schema", () => {
    const dir = scratch();
    const catalogue = `planspec: 1
tools:
  grant:
    risk: write
    input_schema: { type: object, properties: { role: { type: string }, __proto__: { type: object } } }
`;
    put(dir, "grant.catalog.yaml", catalogue);
    const plan = `planspec: 1
name: proto-keys
goal: Grant a role
inputs:
  __proto__: { type: object, default: {} }
tools:
  import: ./grant.catalog.yaml
steps:
  __proto__:
    kind: write
    goal: Grant the role
    tool: grant
    idempotency_key: grant-1
`;
    put(dir, "p.plan.yaml", plan);
    const r = compileFile("p.plan.yaml", { cwd: dir });
    expect(shown(r)).toEqual([
      `grant.catalog.yaml:${at(catalogue, "__proto__")}: ${MESSAGE}`,
      `p.plan.yaml:${at(plan, "__proto__")}: ${MESSAGE}`,
      `p.plan.yaml:${at(plan, "__proto__", plan.indexOf("steps:"))}: ${MESSAGE}`,
    ]);
  });
});

describe("names of Object's own members", () => {
  it("constructor, prototype and toString keys in with reach the tool as written", () => {
    const plan = PLAN.replace("tools: { grant: { risk: write } }", "tools: { echo: { risk: read } }")
      .replace("kind: write", "kind: analyze")
      .replace("tool: grant", "tool: echo")
      .replace("{ role: viewer, __proto__: { role: admin } }", "{ constructor: admin, prototype: { constructor: 2 }, toString: x }");
    const ws = workspace("p.plan.yaml", plan);
    const r = planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "run", "--no-lint-gate"]);
    expect(r.code, r.stderr).toBe(0);
    const state = json<{ nodes: { grant: { outputRef: string } } }>(join(ws, "run/state.json"));
    expect(JSON.parse(readFileSync(join(ws, "run", state.nodes.grant.outputRef), "utf8"))).toEqual({ constructor: "admin", prototype: { constructor: 2 }, toString: "x" });
  });

  // The risk analysis looks words up in tables: an Object method's name is no entry there.
  it("a command or a tool named like an Object method is read as nothing, not as an effect or a crash", () => {
    const dir = scratch();
    const plan = (tools: string, tool: string, args: string) => `planspec: 1
name: proto-words
goal: Check the disk.
deliverables: [report]
tools: ${tools}
limits: { max_tool_calls: 5, run_timeout: 5m }
steps:
  check:
    kind: read
    goal: Check the disk
    tool: ${tool}
    timeout: 1m
    with: ${args}
    output: report
    success:
      - check: "\${{ output.ok }}"
`;
    const SHELL = "{ shell: { risk: read, description: Run a diagnostic shell command } }";
    const cases = [
      plan(SHELL, "shell", '{ command: "constructor -x y" }'),
      plan(SHELL, "shell", '{ command: "toString --n z && hasOwnProperty -f" }'),
      plan(SHELL, "shell", '{ command: "constructor call x; rails constructor; make constructor" }'),
      plan("{ constructor: { risk: read } }", "constructor", "{ x: 1 }"),
      plan("{ x.y: { risk: read, description: Constructor of the disk report } }", "x.y", "{ x: 1 }"),
    ];
    cases.forEach((text, i) => put(dir, `p${i}.plan.yaml`, text));
    for (let i = 0; i < cases.length; i++) {
      const r = planspec(dir, ["lint", `p${i}.plan.yaml`, "--format", "json"]);
      expect(r.stderr, `p${i}`).not.toMatch(/internal error/);
      expect(r.code, `p${i}: ${r.stdout}`).toBe(0);
      expect(JSON.parse(r.stdout), `p${i}`).toEqual([]);
    }
  });

  it("a tool named toString or constructor is unknown unless the catalogue names it", () => {
    const text = PLAN.replace("tool: grant", "tool: toString\n    allowed_tools: [constructor]").replace(", __proto__: { role: admin }", "");
    const r = compileSource("p.plan.yaml", text);
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["PS114", 'unknown tool "toString": it is not in the plan\'s tool catalogue'],
      ["PS114", 'unknown tool "constructor": it is not in the plan\'s tool catalogue'],
    ]);
  });
});
