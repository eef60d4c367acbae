/** The plan metrics on small plans whose scores were computed by hand. */
import { describe, expect, it } from "vitest";
import { compileSource } from "../../src/compiler/index.js";
import type { PlanIR } from "../../src/ir.js";
import { compareToGold, coverage, redundancy, riskAccuracy } from "../../src/eval/metrics.js";
import type { Matcher } from "../../src/eval/suite.js";
import { scoreTaskBench } from "../../src/eval/taskbench/metrics.js";

function plan(steps: string, extra = ""): PlanIR {
  const text = `planspec: 1
name: p
goal: Test plan
deliverables: [report]
tools: { a: { risk: read }, b: { risk: read }, c: { risk: read }, w: { risk: write }, x: { risk: external } }
limits: { max_tool_calls: 20 }
${extra}steps:
${steps}`;
  const r = compileSource("p.plan.yaml", text);
  if (!r.ir) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join("\n"));
  return r.ir;
}

const m = (x: Partial<Matcher>): Matcher => ({ before: [], ...x });

// read_a -> mid_b -> write_w, and a parallel c that write_w also needs.
const DIAMOND = plan(`  read_a: { kind: read, goal: Read, tool: a, output: ra }
  mid_b: { kind: analyze, goal: Analyse, tool: b, needs: [read_a], output: mb }
  side_c: { kind: read, goal: Side, tool: c, output: sc }
  write_w: { kind: write, goal: Write, tool: w, risk: write, needs: [mid_b, side_c], output: report }
`);

describe("coverage", () => {
  it("counts matched required matchers, ordering as ancestor relations", () => {
    // a before w holds (transitively); c before b does not: c's matcher is uncovered.
    const r = coverage(DIAMOND, [m({ id: "a", tool: "a", before: ["w"] }), m({ id: "w", tool: "w" }), m({ id: "c", tool: "c", before: ["b"] }), m({ id: "b", tool: "b" })]);
    expect(r.matched).toBe(3);
    expect(r.coverage).toBe(0.75);
    expect(r.assignment).toEqual(["read_a", "write_w", undefined, "mid_b"]);
  });

  it("assigns each step to one matcher: two read matchers need two read steps", () => {
    expect(coverage(DIAMOND, [m({ kind: "read" }), m({ kind: "read" }), m({ kind: "read" })]).coverage).toBeCloseTo(2 / 3, 12);
  });

  it("reports forbidden matchers that some step satisfies, and is 1 with nothing required", () => {
    const r = coverage(DIAMOND, [], [m({ tool: "x" }), m({ kind: "write" })]);
    expect(r.coverage).toBe(1);
    expect(r.forbiddenHits).toEqual([1]);
  });
});

describe("redundancy", () => {
  it("counts duplicates (same tool, same normalised with) and dead steps once each", () => {
    const ir = plan(`  one: { kind: read, goal: Read, tool: a, with: { q: "Hello  World", n: 1 }, output: o1 }
  two: { kind: read, goal: Read again, tool: a, with: { n: 1, q: " hello world" }, output: o2 }
  three: { kind: read, goal: Read else, tool: a, with: { q: other }, output: o3 }
  use: { kind: write, goal: Write, tool: w, risk: write, needs: [one, two], with: { x: "\${{ steps.one.output }}", y: "\${{ steps.two.output }}" }, output: report }
`);
    const r = redundancy(ir);
    // two duplicates one; three is dead (its output is unused, no deliverable, read-only).
    expect(r.duplicates).toEqual([{ step: "two", of: "one" }]);
    expect(r.dead).toEqual(["three"]);
    expect(r.redundancy).toBe(2 / 4);
  });

  it("does not count side effects or deliverable producers as dead", () => {
    const ir = plan(`  read: { kind: read, goal: Read, tool: a, output: r }
  report: { kind: analyze, goal: Report, tool: b, needs: [read], output: report }
  send: { kind: external, goal: Send, tool: x, risk: external, needs: [read], idempotency_key: k, output: sent }
`);
    expect(redundancy(ir).redundancy).toBe(0);
  });
});

describe("risk-label accuracy", () => {
  it("needs the declared risk to reach the tools' and the kind's", () => {
    const ir = plan(`  read: { kind: read, goal: Read, tool: a, output: r }
  write: { kind: write, goal: Write, tool: a, risk: read, needs: [read], output: report }
  send: { kind: analyze, goal: Send, tool: x, risk: write, needs: [read], output: s }
  ok: { kind: analyze, goal: Fine, tool: b, needs: [read], output: t }
`);
    const r = riskAccuracy(ir);
    expect(r.mislabelled).toEqual([
      { step: "write", declared: "read", required: "write" },
      { step: "send", declared: "write", required: "external" },
    ]);
    expect(r.accuracy).toBe(0.5);
  });

  it("takes a tool's risk from the suite catalogue over the plan's own", () => {
    const ir = plan(`  read: { kind: read, goal: Read, tool: a, output: report }\n`);
    expect(riskAccuracy(ir, { a: { risk: "write" } }).accuracy).toBe(0);
  });
});

describe("node and edge F1 against a gold plan", () => {
  it("compares tool-name sets and (need tool, step tool) pairs", () => {
    // Gold edges: a->b, b->w, c->w. The plan drops c and adds a->w: nodes {a,b,w} vs {a,b,c,w}.
    const pred = plan(`  read_a: { kind: read, goal: Read, tool: a, output: ra }
  mid_b: { kind: analyze, goal: Analyse, tool: b, needs: [read_a], output: mb }
  write_w: { kind: write, goal: Write, tool: w, risk: write, needs: [mid_b, read_a], output: report }
`);
    const g = compareToGold(pred, DIAMOND);
    expect(g.node).toEqual({ tp: 3, fp: 0, fn: 1 });
    expect(g.nodeF1).toBeCloseTo(6 / 7, 12);
    expect(g.edge).toEqual({ tp: 2, fp: 1, fn: 1 });
    expect(g.edgeF1).toBeCloseTo(2 / 3, 12);
  });
});

describe("TaskBench's metrics keep evaluate.py's quirks", () => {
  const tools = ["Image Downloader", "Image-to-Text", "Text Summarizer"];
  const gold = (...nodes: unknown[]) => [{ id: "1", task_steps: [], task_nodes: nodes }];
  const pred = (...nodes: unknown[]) => [{ id: "1", result: { task_steps: [], task_nodes: nodes } }];

  it("a duplicated tool leaves node F1 at 1.0", () => {
    const s = scoreTaskBench(gold({ task: "Image-to-Text", arguments: ["x"] }), pred({ task: "Image-to-Text", arguments: ["x"] }, { task: "Image-to-Text", arguments: ["x"] }), tools);
    expect(s.metrics!.node.f1).toBe(1);
  });

  it("a self-reference edge is dropped", () => {
    const s = scoreTaskBench(
      gold({ task: "Image Downloader", arguments: ["u"] }, { task: "Image-to-Text", arguments: ["<node-0>"] }),
      pred({ task: "Image Downloader", arguments: ["u"] }, { task: "Image-to-Text", arguments: ["<node-0>", "<node-1>"] }),
      tools,
    );
    expect(s.metrics!.link).toEqual({ precision: 1, recall: 1, f1: 1 });
  });

  it("edit distance on a known pair: [A,B,C] vs [A,C] is 1 - 4/5", () => {
    const s = scoreTaskBench(
      gold({ task: "Image Downloader", arguments: [] }, { task: "Text Summarizer", arguments: [] }),
      pred({ task: "Image Downloader", arguments: [] }, { task: "Image-to-Text", arguments: [] }, { task: "Text Summarizer", arguments: [] }),
      tools,
    );
    expect(s.metrics!.editDistance).toBeCloseTo(1 - 4 / 5, 12);
  });
});
