/** TaskBench's node F1, link F1 and edit distance on small examples computed by hand. */
import { describe, expect, it } from "vitest";
import { indelSimilarity, scoreTaskBench } from "../../src/eval/taskbench/metrics.js";

const A = "Image Downloader";
const B = "Image-to-Text";
const C = "Text Summarizer";
const D = "Text-to-Image";
const tools = [A, B, C, D];

const node = (task: string, ...args: unknown[]) => ({ task, arguments: args });
const gold = (id: string, ...nodes: unknown[]) => ({ id, task_steps: [], task_nodes: nodes });
const pred = (id: string, ...nodes: unknown[]) => ({ id, result: { task_steps: [], task_nodes: nodes } });

describe("scoreTaskBench", () => {
  it("scores micro node F1, binary link F1 and edit distance over the shared ids", () => {
    const scores = scoreTaskBench(
      [
        gold("1", node(A, "u"), node(B, "<node-0>"), node(C, "<node-1>")),
        gold("2", node(A, "u"), node(B, "<node-0>")),
        gold("3", node(A, "u")),
        gold("5", node(A, "u")),
        gold("6", node(A, "u")),
      ],
      [
        // nodes {A,B,D} vs {A,B,C}: TP 2, FP 1, FN 1; links (A,B),(A,D) vs (A,B),(B,C): TP 1, FP 1, FN 1;
        // sequences [1,2,4] vs [1,2,3]: LCS 2, similarity 4/6.
        pred("1", node(A, "u"), node(B, "<node-0>"), node(D, "<node-0>")),
        // "Image_Downloader" reads as A; "Made Up" is not a tool, so it is no node but still a link
        // target; <node-2> in node 2 is a self-reference and skipped. Nodes: TP 2;
        // links (A,Made Up),(A,B) vs (A,B): TP 1, FP 1; sequences [1,0,2] vs [1,2]: similarity 4/5.
        pred("2", node("Image_Downloader", "u"), node("Made Up", "<node-0>"), node(B, "<node-0>", "<node-2>")),
        pred("4", node(A, "u")),
        { id: "5", result: { task_nodes: [node(A, "u")] } },
        { id: "6", result: "I could not make a plan" },
      ],
      tools,
    );
    expect(scores.samples).toBe(4);
    expect(scores.scored).toBe(2);
    expect(scores.dropped).toEqual([
      { id: "5", reason: 'the prediction\'s result has no "task_steps"' },
      { id: "6", reason: "the prediction's result is str, not a dict" },
    ]);
    const m = scores.metrics!;
    expect(m.node.precision).toBeCloseTo(0.8, 12);
    expect(m.node.recall).toBeCloseTo(0.8, 12);
    expect(m.node.f1).toBeCloseTo(0.8, 12);
    expect(m.link.precision).toBeCloseTo(0.5, 12);
    expect(m.link.recall).toBeCloseTo(2 / 3, 12);
    expect(m.link.f1).toBeCloseTo(4 / 7, 12);
    expect(m.editDistance).toBeCloseTo(1 - (4 / 6 + 4 / 5) / 2, 12);
  });

  it("counts duplicated tools once, as sets", () => {
    const m = scoreTaskBench([gold("1", node(A, "u"))], [pred("1", node(A, "u"), node(A, "v"))], tools).metrics!;
    expect(m.node).toEqual({ precision: 1, recall: 1, f1: 1 });
    // The sequence still differs: [1,1] vs [1] has similarity 2/3.
    expect(m.editDistance).toBeCloseTo(1 / 3, 12);
  });

  it("keeps evaluate.py's quirks: the first reference of a string only, the target name as written", () => {
    const m = scoreTaskBench(
      [gold("1", node(A, "u"), node(D, "t"), node(C, "<node-0> and <node-1>"))],
      [pred("1", node(A, "u"), node(D, "t"), node("Text_Summarizer", "<node-0> and <node-1>"))],
      tools,
    ).metrics!;
    expect(m.node.f1).toBe(1);
    // Gold has the one link (A, C); the prediction has (A, "Text_Summarizer"): no match.
    expect(m.link).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it("reads no link from arguments that are a string, and drops a plan whose arguments are not iterable", () => {
    const scores = scoreTaskBench(
      [gold("1", node(A, "u"), node(B, "<node-0>")), gold("2", node(A, "u"))],
      [
        { id: "1", result: { task_steps: [], task_nodes: [node(A, "u"), { task: B, arguments: "<node-0>" }] } },
        { id: "2", result: { task_steps: [], task_nodes: [{ task: A, arguments: 7 }] } },
      ],
      tools,
    );
    expect(scores.dropped).toEqual([{ id: "2", reason: "predicted arguments are int, not iterable" }]);
    expect(scores.metrics!.link).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(scores.metrics!.node.f1).toBe(1);
  });

  it("scores a plan without task_steps when the step metrics are off", () => {
    const scores = scoreTaskBench([gold("1", node(A, "u"))], [{ id: "1", result: { task_nodes: [node(A, "u")] } }], tools, {
      requireTaskSteps: false,
    });
    expect(scores).toMatchObject({ samples: 1, scored: 1, metrics: { node: { f1: 1 }, editDistance: 0 } });
  });

  it("treats ids of different JSON types as different, and reports no metrics without a scored sample", () => {
    expect(scoreTaskBench([gold("1", node(A, "u"))], [{ ...pred("1", node(A, "u")), id: 1 }], tools)).toEqual({
      samples: 0,
      scored: 0,
      dropped: [],
      metrics: null,
    });
  });
});

describe("indelSimilarity", () => {
  it("is 2·LCS/(|a|+|b|), and 1 for two empty sequences", () => {
    expect(indelSimilarity([], [])).toBe(1);
    expect(indelSimilarity([1], [])).toBe(0);
    expect(indelSimilarity([1, 2, 3], [3, 2, 1])).toBeCloseTo(2 / 6, 12);
    expect(indelSimilarity([1, 2, 3, 4], [1, 3, 4])).toBeCloseTo(6 / 7, 12);
  });
});
