/**
 * Every metric of TaskBench's evaluate.py, on small records scored by hand: node macro and
 * per-tool figures, argument t-F1/v-F1, temporal links, split and tool-count groups, and
 * each rule for odd inputs. The records are JSON text, read as Python's json reads them.
 */
import { describe, expect, it } from "vitest";
import { evaluateTaskBench, groupsOf, readRecords, TaskBenchStop, type EvalTool } from "../../src/eval/taskbench/evaluate.js";
import { pyJsonParse, pyStr } from "../../src/eval/taskbench/pyjson.js";

const A = "Image Downloader";
const B = "Image-to-Text";
const C = "Text Summarizer";
const D = "Text-to-Image";
const MEDIA: EvalTool[] = [
  { id: A, outputType: "image" },
  { id: B, outputType: "text" },
  { id: C, outputType: "text" },
  { id: D, outputType: "image" },
];

type Rec = Record<string, unknown>;
const node = (task: string, ...args: unknown[]) => ({ task, arguments: args });
const gold = (id: string, type: string, ...nodes: unknown[]): Rec => ({ id, type, task_steps: ["s"], task_nodes: nodes });
const pred = (id: string, ...nodes: unknown[]): Rec => ({ id, result: { task_steps: ["s"], task_nodes: nodes } });
const jsonl = (file: string, ...records: Array<Rec | string>) => readRecords(file, records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");

// Sample 1 (chain): gold A → B, prediction A → C. Sample 2 (single): C on both sides, other text.
const GOLD = jsonl("data.json", gold("1", "chain", node(A, "http://x/a.jpg"), node(B, "<node-0>")), gold("2", "single", node(C, "some text")));
const PRED = jsonl("pred.jsonl", pred("1", node(A, "http://x/a.jpg"), node(C, "<node-0>")), pred("2", node(C, "other text")));

describe("evaluateTaskBench: the metrics", () => {
  const g = evaluateTaskBench(GOLD, PRED, MEDIA).groups.overall_overall!;

  it("counts supports and node micro figures", () => {
    expect(g).toMatchObject({ all_samples: 2, step_supports: 2, node_supports: 2, link_supports: 2, argument_supports: 2 });
    // Nodes: A TP, B FN, C FP (sample 1), C TP (sample 2): TP 2, FP 1, FN 1.
    expect(g.node_micro_precision_no_matching).toBeCloseTo(2 / 3, 12);
    expect(g.node_micro_recall_no_matching).toBeCloseTo(2 / 3, 12);
    expect(g.node_micro_f1_no_matching).toBeCloseTo(2 / 3, 12);
  });

  it("averages the macro figures over every tool of tool_desc, an unused one counting 0", () => {
    // Per tool (P, R, F1): A (1, 1, 1), B (0, 0, 0), C (1/2, 1, 2/3), D never occurs (0, 0, 0).
    expect(g.node_macro_precision_no_matching).toBeCloseTo((1 + 0 + 0.5 + 0) / 4, 12);
    expect(g.node_macro_recall_no_matching).toBeCloseTo((1 + 0 + 1 + 0) / 4, 12);
    expect(g.node_macro_f1_no_matching).toBeCloseTo((1 + 0 + 2 / 3 + 0) / 4, 12);
  });

  it("reports per-tool precision, recall, F1 and support under evaluate.py's key", () => {
    const per = g.node_per_type_no_matchcing!;
    expect(Object.keys(per)).toEqual([A, B, C, D]);
    expect(per[A]).toEqual({ precision: 1, recall: 1, "f1-score": 1, support: 1 });
    expect(per[B]).toEqual({ precision: 0, recall: 0, "f1-score": 0, support: 1 });
    expect(per[C]!.precision).toBe(0.5);
    expect(per[C]!.recall).toBe(1);
    expect(per[C]!["f1-score"]).toBeCloseTo(2 / 3, 12);
    expect(per[C]!.support).toBe(1);
    expect(per[D]).toEqual({ precision: 0, recall: 0, "f1-score": 0, support: 0 });
  });

  it("scores arguments by task–type name (t-F1) and task–type–value (v-F1)", () => {
    // Gold: "Image Downloader-image(-http://x/a.jpg)", "Image-to-Text-image(-Image Downloader)" (a link
    // argument is named by its source's output type, valued by its name), "Text Summarizer-text(-some text)".
    // Prediction: the same A argument, "Text Summarizer-image(-Image Downloader)", "Text Summarizer-text(-other text)".
    // Names: TP 2, FP 1, FN 1 → 2/3. Values: TP 1, FP 2, FN 2 → 2/6.
    expect(g.argument_task_argname_binary_f1_no_matching).toBeCloseTo(2 / 3, 12);
    expect(g.argument_task_argname_value_binary_f1_no_matching).toBeCloseTo(1 / 3, 12);
  });

  it("scores links and edit distance", () => {
    // Links (A, B) vs (A, C): TP 0. Sequences [1,3] vs [1,2] (ratio 2/4) and [3] vs [3] (1).
    expect(g.link_binary_f1).toBe(0);
    expect(g.edit_distance).toBeCloseTo(1 - (0.5 + 1) / 2, 12);
  });

  it("names its keys in evaluate.py's order", () => {
    expect(Object.keys(g)).toEqual([
      "all_samples",
      "step_supports",
      "node_supports",
      "link_supports",
      "argument_supports",
      "node_micro_precision_no_matching",
      "node_micro_recall_no_matching",
      "node_micro_f1_no_matching",
      "node_macro_precision_no_matching",
      "node_macro_recall_no_matching",
      "node_macro_f1_no_matching",
      "node_per_type_no_matchcing",
      "argument_task_argname_binary_f1_no_matching",
      "argument_task_argname_value_binary_f1_no_matching",
      "edit_distance",
      "link_binary_f1",
    ]);
  });
});

describe("evaluateTaskBench: groups by split and tool count", () => {
  it("builds evaluate.py's groups in modes add and mul, expanding all", () => {
    expect(groupsOf(["single", "chain"], ["1", "2"], "add")).toEqual([["single", "overall"], ["chain", "overall"], ["overall", "1"], ["overall", "2"]]);
    expect(groupsOf(["single", "chain"], ["1", "2"], "mul")).toEqual([["single", "1"], ["single", "2"], ["chain", "1"], ["chain", "2"]]);
    expect(groupsOf(["all"], ["overall"], "add").map((x) => x.join("_"))).toEqual(["overall_overall", "single_overall", "chain_overall", "dag_overall"]);
    expect(groupsOf(["overall"], ["all"], "add")).toHaveLength(11);
  });

  it("scores each group over its gold records only; an empty group has supports and no figures", () => {
    const add = evaluateTaskBench(GOLD, PRED, MEDIA, { splits: ["single", "chain"], nTools: ["1", "2"] }).groups;
    expect(Object.keys(add)).toEqual(["single_overall", "chain_overall", "overall_1", "overall_2"]);
    // single / 1 node: sample 2 alone, C vs C. chain / 2 nodes: sample 1 alone, {A,B} vs {A,C}.
    expect(add.single_overall!.node_micro_f1_no_matching).toBe(1);
    expect(add.overall_1!.node_micro_f1_no_matching).toBe(1);
    expect(add.chain_overall!.node_micro_f1_no_matching).toBeCloseTo(0.5, 12);
    expect(add.overall_2!.all_samples).toBe(1);
    const mul = evaluateTaskBench(GOLD, PRED, MEDIA, { splits: ["single", "chain"], nTools: ["1", "2"], mode: "mul" }).groups;
    expect(mul.single_2).toEqual({ all_samples: 0, step_supports: 0, node_supports: 0, link_supports: 0, argument_supports: 0 });
    expect(mul.chain_2!.node_macro_f1_no_matching).toBeCloseTo((1 + 0 + 0 + 0) / 4, 12);
  });
});

describe("evaluateTaskBench: temporal links (dailylifeapis)", () => {
  const tools: EvalTool[] = [{ id: "get_weather" }, { id: "send_email" }, { id: "book_flight" }];
  const arg = (name: string, value: unknown) => ({ name, value });
  const goldLine = JSON.stringify({
    id: "7",
    type: "chain",
    task_steps: ["Step 1", "Step 2"],
    task_nodes: [
      { task: "get_weather", arguments: [arg("location", "London"), arg("date", "2023-08-01")] },
      { task: "book_flight", arguments: [arg("from", "NYC"), arg("to", "London")] },
    ],
    task_links: [{ source: "get_weather", target: "book_flight" }],
  });
  // The prediction swaps the order, links the other way and writes one value as the float 2.0.
  const predLine =
    '{"id": "7", "result": {"task_steps": [], "task_nodes": [' +
    '{"task": "book_flight", "arguments": [{"name": "from", "value": "NYC"}, {"name": "to", "value": "London"}, {"name": "seats", "value": 2.0}]}, ' +
    '{"task": "get_weather", "arguments": [{"name": "location", "value": "London"}, {"name": "date", "value": "2023-08-01"}]}], ' +
    '"task_links": [{"source": "book_flight", "target": "get_weather"}]}}';

  it("reads links from task_links, names as written, values as Python prints them", () => {
    const goldWithSeats = goldLine.replace('{"name":"to","value":"London"}', '{"name":"to","value":"London"},{"name":"seats","value":2}');
    const g = evaluateTaskBench(readRecords("d.json", goldWithSeats), readRecords("p.jsonl", predLine), tools, { dependencyType: "temporal" }).groups.overall_overall!;
    expect(g.node_supports).toBe(1);
    // Nodes: both tools on both sides (underscores kept: the ids match). Links (gw→bf) vs (bf→gw): TP 0.
    expect(g.node_micro_f1_no_matching).toBe(1);
    expect(g.node_macro_f1_no_matching).toBeCloseTo(2 / 3, 12);
    expect(g.link_binary_f1).toBe(0);
    // Sequences [3,1] vs [1,3]: LCS 1, ratio 2/4.
    expect(g.edit_distance).toBeCloseTo(0.5, 12);
    // Names: 5 equal. Values: "book_flight-seats-2" vs "book_flight-seats-2.0" differ: TP 4, FP 1, FN 1.
    expect(g.argument_task_argname_binary_f1_no_matching).toBe(1);
    expect(g.argument_task_argname_value_binary_f1_no_matching).toBeCloseTo(8 / 10, 12);
  });

  it("drops a sample without task_links, and stops on links it cannot read", () => {
    const noLinks = predLine.replace(/, "task_links": \[[^\]]*\]/, "");
    const r = evaluateTaskBench(readRecords("d.json", goldLine), readRecords("p.jsonl", noLinks), tools, { dependencyType: "temporal" });
    expect(r.dropped.overall_overall).toEqual([{ id: "7", reason: 'the prediction\'s result has no "task_links"' }]);
    const badLinks = predLine.replace('"task_links": [{"source": "book_flight", "target": "get_weather"}]', '"task_links": "book_flight"');
    expect(() => evaluateTaskBench(readRecords("d.json", goldLine), readRecords("p.jsonl", badLinks), tools, { dependencyType: "temporal" })).toThrow(
      new TaskBenchStop("p.jsonl", 1, "sample 7: predicted task_links holds str without \"source\" and \"target\""),
    );
  });
});

describe("evaluateTaskBench: odd inputs as evaluate.py scores them", () => {
  const one = (goldRecs: Array<Rec | string>, predRecs: Array<Rec | string>, options = {}) =>
    evaluateTaskBench(jsonl("data.json", ...goldRecs), jsonl("pred.jsonl", ...predRecs), MEDIA, options);

  it('scores task_nodes of "" or {} as an empty plan, and drops other strings', () => {
    const r = one(
      [gold("1", "single", node(A, "u")), gold("2", "single", node(B, "u")), gold("3", "single", node(C, "u"))],
      [
        { id: "1", result: { task_steps: [], task_nodes: "" } },
        { id: "2", result: { task_steps: [], task_nodes: {} } },
        { id: "3", result: { task_steps: [], task_nodes: "C" } },
      ],
    );
    const g = r.groups.overall_overall!;
    expect(g).toMatchObject({ all_samples: 3, node_supports: 2 });
    expect(r.dropped.overall_overall).toEqual([{ id: "3", reason: "a predicted node is str, not a dict" }]);
    // Two empty plans: FN 2, nothing predicted. Edit distance: ratio of [] vs [x] is 0 for both.
    expect(g.node_micro_recall_no_matching).toBe(0);
    expect(g.edit_distance).toBe(1);
  });

  it("maps <PAD> nodes to -1 in the edit distance, apart from unknown tools (0)", () => {
    const g = one([gold("1", "single", node("Made Up", "u"))], [pred("1", { task: "<PAD>", arguments: [] })]).groups.overall_overall!;
    // [-1] vs [0]: no common element, ratio 0 (were <PAD> 0, it would be 1).
    expect(g.edit_distance).toBe(1);
    const same = one([gold("1", "single", node("Made Up", "u"))], [pred("1", node("Also Made Up", "u"))]).groups.overall_overall!;
    expect(same.edit_distance).toBe(0);
  });

  it("drops an id whose gold task_steps is not a list of strings (a string is fine); --prompting direct keeps it", () => {
    const goldRecs = [{ ...gold("1", "single", node(A, "u")), task_steps: [1, 2] }, { ...gold("2", "single", node(A, "u")), task_steps: "one step" }];
    const predRecs = [pred("1", node(A, "u")), pred("2", node(A, "u"))];
    const cot = one(goldRecs, predRecs);
    expect(cot.groups.overall_overall).toMatchObject({ all_samples: 2, step_supports: 1, node_supports: 1 });
    expect(cot.dropped.overall_overall).toEqual([{ id: "1", reason: "gold task_steps is list with a non-string entry, not a list of strings" }]);
    const direct = one(goldRecs, [{ id: "1", result: { task_nodes: [node(A, "u")] } }, pred("2", node(A, "u"))], { prompting: "direct" });
    expect(direct.groups.overall_overall).toMatchObject({ all_samples: 2, step_supports: 0, node_supports: 2 });
  });

  it("reads a dict argument's first value in insertion order, integer-like keys included", () => {
    // Python's first value of {"2": "<node-0>", "1": "plain"} is "<node-0>" (a link); a JS object would put "1" first.
    const predLine = `{"id": "1", "result": {"task_steps": [], "task_nodes": [{"task": "${A}", "arguments": ["u"]}, {"task": "${B}", "arguments": [{"2": "<node-0>", "1": "plain"}]}]}}`;
    const g = one([gold("1", "chain", node(A, "u"), node(B, "<node-0>"))], [predLine]).groups.overall_overall!;
    expect(g.link_binary_f1).toBe(1);
  });

  it("accepts NaN and Infinity as Python's json does", () => {
    const predLine = `{"id": "1", "confidence": NaN, "cost": -Infinity, "result": {"task_steps": [], "task_nodes": [{"task": "${A}", "arguments": ["u"]}]}}`;
    const g = one([gold("1", "single", node(A, "u"))], [predLine]).groups.overall_overall!;
    expect(g.node_micro_f1_no_matching).toBe(1);
  });

  it("re-appends the previous argument where one cannot be read, and drops the sample when there is none yet", () => {
    // Sample 1: gold has no argument yet, and the predicted 7 cannot be read: UnboundLocalError, dropped.
    // Sample 2: the predicted 7 of node A becomes the previous argument, C's ("text", "hello").
    const r = one(
      [gold("1", "single", { task: A, arguments: [] }), gold("2", "chain", node(C, "hello"), node(A, "http://a.png"))],
      [pred("1", node(A, 7)), pred("2", node(C, "hello"), node(A, 7))],
    );
    expect(r.dropped.overall_overall).toEqual([{ id: "1", reason: "an argument could not be read and no earlier argument exists (UnboundLocalError)" }]);
    const g = r.groups.overall_overall!;
    // Gold "Text Summarizer-text", "Image Downloader-image"; prediction "Text Summarizer-text", "Image Downloader-text".
    expect(g.argument_task_argname_binary_f1_no_matching).toBeCloseTo(0.5, 12);
    expect(g.argument_task_argname_value_binary_f1_no_matching).toBeCloseTo(0.5, 12);
  });

  it("stops on a line evaluate.py stops on, naming it; --lenient skips and counts it", () => {
    const predRecs = [pred("1", node(A, "u")), "", "not json", pred("2", node(C, "some text"))];
    const goldRecs = [gold("1", "single", node(A, "u")), gold("2", "single", node(C, "some text"))];
    expect(() => one(goldRecs, predRecs)).toThrow(new TaskBenchStop("pred.jsonl", 2, "not valid JSON (Expecting value: column 1 (char 0))"));
    const r = one(goldRecs, predRecs, { lenient: true });
    expect(r.skipped).toEqual([
      { file: "pred.jsonl", line: 2, reason: "not valid JSON (Expecting value: column 1 (char 0))" },
      { file: "pred.jsonl", line: 3, reason: "not valid JSON (Expecting value: column 1 (char 0))" },
    ]);
    expect(r.groups.overall_overall).toMatchObject({ all_samples: 2, node_micro_f1_no_matching: 1 });
    expect(() => one([{ type: "single", task_nodes: [] }], predRecs.slice(0, 1))).toThrow(new TaskBenchStop("data.json", 1, 'the gold record has no "id"'));
    expect(() => one([gold("1", "single", node(A, "u"))], [{ result: {} }])).toThrow(new TaskBenchStop("pred.jsonl", 1, 'the prediction has no "id"'));
  });
});

describe("pyjson", () => {
  it("prints values as Python's str() does", () => {
    const show = (text: string) => pyStr(pyJsonParse(text));
    expect(show("2")).toBe("2");
    expect(show("2.0")).toBe("2.0");
    expect(show("1e16")).toBe("1e+16");
    expect(show("0.00001")).toBe("1e-05");
    expect(show("0.0001")).toBe("0.0001");
    expect(show("123456.5")).toBe("123456.5");
    expect(show("NaN")).toBe("nan");
    expect(show("-Infinity")).toBe("-inf");
    expect(show("[true, null, \"it's\", 1.5]")).toBe(`[True, None, "it's", 1.5]`);
    expect(show('{"b": 1, "a": "x\\ny"}')).toBe("{'b': 1, 'a': 'x\\ny'}");
  });

  it("keeps a repeated key at its first position with its last value, and rejects what Python rejects", () => {
    expect(pyStr(pyJsonParse('{"a": 1, "b": 2, "a": 3}'))).toBe("{'a': 3, 'b': 2}");
    expect(() => pyJsonParse("[1,]")).toThrow("Expecting value: column 4 (char 3)");
    expect(() => pyJsonParse('{"a": 1} x')).toThrow("Extra data: column 10 (char 9)");
    expect(() => pyJsonParse('"a\tb"')).toThrow("Invalid control character at");
  });
});
