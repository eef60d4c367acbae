/**
 * The run directory's plan file (plan-file.ts): one node per line, one JSON document, and
 * a reader that parses only the nodes it looks at, seeing each one whole when it does.
 */
import { describe, expect, it } from "vitest";
import { compileSource } from "../../src/compiler/index.js";
import type { PlanIR } from "../../src/ir.js";
import { lazyPlan, planFileText } from "../../src/runtime/plan-file.js";

const source = `planspec: 1
name: three
goal: Three steps
tools: { echo: { risk: read }, put: { risk: write } }
steps:
  a: { kind: analyze, goal: read it, tool: echo, with: { i: 1 }, output: seen }
  b: { kind: analyze, goal: "say \\"hi\\"\\nthen stop", tool: echo, needs: [a], with: { text: "\${{ steps.a.output }}" } }
  c: { kind: write, goal: put it, tool: put, risk: write, needs: [b], idempotency_key: "k-\${{ run.id }}", approval: { required: true, approvers: [ops] } }
`;

function compiled(): PlanIR {
  const r = compileSource("three.plan.yaml", source);
  if (!r.ir) throw new Error(JSON.stringify(r.diagnostics));
  return r.ir;
}

describe("planFileText", () => {
  it("is the plan as one JSON document, a node per line", () => {
    const plan = compiled();
    const text = planFileText(plan);
    expect(JSON.parse(text)).toEqual(plan);
    const lines = text.split("\n");
    expect(lines).toHaveLength(plan.nodes.length + 2);
    expect(lines[0]).toMatch(/"nodes":\[$/);
    expect(lines.slice(1, -1).map((l) => JSON.parse(l.replace(/,$/, "")))).toEqual(plan.nodes);
    expect(lines.at(-1)).toBe("]}");
  });

  it("writes a plan without nodes on one line", () => {
    const plan = { ...compiled(), nodes: [] };
    expect(planFileText(plan)).toBe(JSON.stringify(plan));
    expect(lazyPlan(planFileText(plan))).toBeUndefined();
  });
});

describe("lazyPlan", () => {
  it("gives the same plan, node by node and as JSON, as parsing the whole file", () => {
    const plan = compiled();
    const lazy = lazyPlan(planFileText(plan))!;
    expect(lazy).toBeDefined();
    expect(lazy.nodes.map((n) => n.id)).toEqual(["a", "b", "c"]);
    expect(lazy.nodes[2]!.approval).toEqual(plan.nodes[2]!.approval);
    expect(lazy.nodes[1]!.goal).toBe('say "hi"\nthen stop');
    expect("idempotencyKey" in lazy.nodes[2]!).toBe(true);
    expect(Object.keys(lazy.nodes[0]!)).toEqual(Object.keys(plan.nodes[0]!));
    expect(JSON.parse(JSON.stringify(lazy))).toEqual(plan);
  });

  it("refuses to change a node it read", () => {
    const lazy = lazyPlan(planFileText(compiled()))!;
    expect(() => {
      (lazy.nodes[0] as { goal: string }).goal = "other";
    }).toThrow(/read-only/);
    expect(lazy.nodes[0]!.goal).toBe("read it");
  });

  it("reads an id that needs escaping, and a node whose id is not its first key, by parsing that node", () => {
    const plan = compiled();
    const odd = { ...plan, nodes: [{ ...plan.nodes[0]!, id: 'q"uote' }, plan.nodes[1]!] };
    // A plan written by another tool: the id is not the node's first key.
    const text = planFileText(odd).replace('{"id":"b",', '{"kind":"analyze","id":"b",');
    expect(text).toContain('{"kind":"analyze","id":"b",');
    const lazy = lazyPlan(text)!;
    expect(lazy.nodes.map((n) => n.id)).toEqual(['q"uote', "b"]);
    expect(JSON.parse(JSON.stringify(lazy))).toEqual(JSON.parse(text));
  });

  it("is undefined for a plan file of any other layout (an older planspec's one line, JSON with newlines of its own)", () => {
    const plan = compiled();
    expect(lazyPlan(JSON.stringify(plan))).toBeUndefined();
    expect(lazyPlan(JSON.stringify(plan, null, 2))).toBeUndefined();
    expect(lazyPlan(`[${planFileText(plan).slice(1)}`)).toBeUndefined();
  });
});
