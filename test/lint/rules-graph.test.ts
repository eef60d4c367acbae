/**
 * The one-pass graph queries rules rely on (src/lint/graph.ts) agree with the obvious
 * per-node walks on random DAGs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { IRNode, PlanIR } from "../../src/ir.js";
import { PlanGraph } from "../../src/graph.js";

interface Dag {
  n: number;
  needs: number[][];
  reads: number[][];
  marked: boolean[];
}

// Edges only point from a higher index to a lower one, so every generated graph is acyclic
// and the index order is topological.
const dag: fc.Arbitrary<Dag> = fc.integer({ min: 1, max: 40 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    needs: fc.tuple(...Array.from({ length: n }, (_, i) => fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, i - 1) }), { maxLength: i === 0 ? 0 : 4 }))),
    reads: fc.tuple(...Array.from({ length: n }, () => fc.array(fc.nat(), { maxLength: 3 }))),
    marked: fc.tuple(...Array.from({ length: n }, () => fc.boolean())),
  }),
);

function build(d: Dag): { graph: PlanGraph; ancestors: (i: number) => Set<number>; consumes: number[][] } {
  // A step reads some of its ancestors (the compiler's guarantee); pick them from its needs.
  const consumes = d.needs.map((ns, i) => (ns.length === 0 ? [] : [...new Set(d.reads[i]!.map((r) => ns[r % ns.length]!))]));
  const nodes = Array.from({ length: d.n }, (_, i) => ({
    id: `s${i}`,
    kind: d.marked[i] ? "verify" : "analyze",
    goal: `step ${i}`,
    allowedTools: [],
    risk: "read",
    riskInferred: true,
    dependsOn: d.needs[i]!.map((j) => `s${j}`),
    consumes: consumes[i]!.map((j) => `s${j}`),
    success: [],
    assumes: [],
    span: { file: "x", start: 0, end: 0, line: 1, col: 1 },
  })) as IRNode[];
  const order = nodes.map((x) => x.id);
  const ir = { nodes, order, tools: {}, deliverables: [] } as unknown as PlanIR;
  const memo = new Map<number, Set<number>>();
  const ancestors = (i: number): Set<number> => {
    let s = memo.get(i);
    if (s) return s;
    s = new Set();
    for (const p of d.needs[i]!) {
      s.add(p);
      for (const a of ancestors(p)) s.add(a);
    }
    memo.set(i, s);
    return s;
  };
  return { graph: new PlanGraph(ir), ancestors, consumes };
}

describe("PlanGraph one-pass queries", () => {
  it("anyAncestor and anyDescendant match walking the ancestors", () => {
    fc.assert(
      fc.property(dag, (d) => {
        const { graph, ancestors } = build(d);
        const up = graph.anyAncestor((x) => x.kind === "verify");
        const down = graph.anyDescendant((x) => x.kind === "verify");
        for (let i = 0; i < d.n; i++) {
          expect(up[i] === 1).toBe([...ancestors(i)].some((a) => d.marked[a]));
          const below = Array.from({ length: d.n }, (_, j) => j).filter((j) => ancestors(j).has(i));
          expect(down[i] === 1).toBe(below.some((j) => d.marked[j]));
        }
      }),
    );
  });

  it("anyConsumed follows consumes edges transitively", () => {
    fc.assert(
      fc.property(dag, (d) => {
        const { graph, consumes } = build(d);
        const got = graph.anyConsumed((x) => x.kind === "verify");
        const reach = (i: number, seen = new Set<number>()): boolean =>
          consumes[i]!.some((c) => !seen.has(c) && (seen.add(c), d.marked[c] || reach(c, seen)));
        for (let i = 0; i < d.n; i++) expect(got[i] === 1).toBe(reach(i));
      }),
    );
  });

  it("impliedNeeds finds exactly the needs another need already implies", () => {
    fc.assert(
      fc.property(dag, (d) => {
        const { graph, ancestors } = build(d);
        for (let i = 0; i < d.n; i++) {
          const needs = d.needs[i]!;
          const expected = needs.filter((p) => needs.some((q) => q !== p && ancestors(q).has(p))).map((p) => `s${p}`);
          expect(graph.impliedNeeds(`s${i}`, needs.map((p) => `s${p}`)).sort()).toEqual(expected.sort());
        }
      }),
    );
  });

  it("isAncestor and ancestors match walking the ancestors, whatever order the questions come in", () => {
    fc.assert(
      fc.property(dag, fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 60 }), (d, questions) => {
        const { graph, ancestors } = build(d);
        // Rows are filled on demand: ask in a random order, then everything.
        for (const [a, b] of questions) {
          const ia = a % d.n;
          const ib = b % d.n;
          expect(graph.isAncestor(`s${ia}`, `s${ib}`), `s${ia} before s${ib}`).toBe(ancestors(ib).has(ia));
        }
        for (let b = d.n - 1; b >= 0; b--) {
          expect(graph.ancestors(`s${b}`).map((x) => x.id)).toEqual([...ancestors(b)].sort((x, y) => x - y).map((x) => `s${x}`));
          for (let a = 0; a < d.n; a++) expect(graph.isAncestor(`s${a}`, `s${b}`)).toBe(ancestors(b).has(a));
        }
      }),
    );
  });

  it("answers on a plan with a cycle (the compiler reports it; lint still runs its graph)", () => {
    const node = (id: string, needs: string[]) => ({ id, kind: "analyze", goal: id, allowedTools: [], risk: "read", riskInferred: true, dependsOn: needs, consumes: [], success: [], assumes: [], span: { file: "x", start: 0, end: 0, line: 1, col: 1 } });
    const nodes = [node("a", ["c"]), node("b", ["a"]), node("c", ["b"]), node("d", ["c"])] as IRNode[];
    const graph = new PlanGraph({ nodes, order: [], tools: {}, deliverables: [] } as unknown as PlanIR);
    expect(graph.isAncestor("c", "d")).toBe(true);
    expect(graph.isAncestor("a", "b")).toBe(true);
    expect(graph.isAncestor("d", "a")).toBe(false);
    expect(graph.ancestors("d").map((x) => x.id)).toEqual(["a", "b", "c"]);
  });
});
