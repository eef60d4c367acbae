import { describe, expect, it } from "vitest";
import { parseTaskBenchLine, type TaskBenchRecord } from "../../src/eval/taskbench/record.js";
import { toPlanDoc } from "../../src/eval/taskbench/convert.js";
import { parseToolDesc, type ToolDesc } from "../../src/eval/taskbench/tool-desc.js";

const desc = parseToolDesc({
  nodes: [
    { id: "Image Downloader", desc: "Downloads an image from a given URL.", "input-type": ["url"], "output-type": ["image"] },
    { id: "Image Captioning", desc: "Describes an image in words.", "input-type": ["image"], "output-type": ["text"] },
    { id: "Text-to-Image", desc: "Generates an image based on a given text description.", "input-type": ["text"], "output-type": ["image"] },
    { id: "Image Stitcher", desc: "Stitches together two input images.", "input-type": ["image", "image"], "output-type": ["image"] },
    { id: "Text Search", desc: "Searches for a specific text on the internet.", "input-type": ["text"], "output-type": ["text"] },
  ],
});
if (!desc.ok) throw new Error(desc.reason);
const tools: ToolDesc = desc.tools;

function line(nodes: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ id: "42", user_request: "Caption the picture", result: { task_steps: [], task_nodes: nodes }, ...extra });
}

function record(nodes: unknown, steps: unknown[] = []): TaskBenchRecord {
  const parsed = parseTaskBenchLine(JSON.stringify({ id: "7", user_request: "Do it", result: { task_steps: steps, task_nodes: nodes } }));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.record;
}

describe("parseTaskBenchLine", () => {
  it("reads a well-formed line", () => {
    const parsed = parseTaskBenchLine(line([{ task: "Image Captioning", arguments: ["a.jpg"] }]));
    expect(parsed).toEqual({
      ok: true,
      record: { id: "42", userRequest: "Caption the picture", taskSteps: [], nodes: [{ task: "Image Captioning", arguments: ["a.jpg"] }] },
    });
  });

  it.each([
    ["{not json", /^not valid JSON/],
    ["[1, 2]", /expected a JSON object, got a list/],
    [JSON.stringify({ user_request: "x", result: {} }), /missing "id"/],
    [JSON.stringify({ id: "../etc", user_request: "x", result: {} }), /cannot be used as a file name/],
    [JSON.stringify({ id: "1", result: { task_nodes: [{ task: "A" }] } }), /missing "user_request"/],
    [JSON.stringify({ id: "1", user_request: "x" }), /missing "result"/],
    [JSON.stringify({ id: "1", user_request: "x", result: "Sure! Here is the plan" }), /"result" is a string/],
    [JSON.stringify({ id: "1", user_request: "x", result: { task_steps: [] } }), /no "task_nodes"/],
    [JSON.stringify({ id: "1", user_request: "x", result: { task_nodes: {} } }), /"task_nodes" is an object, not a list/],
    [JSON.stringify({ id: "1", user_request: "x", result: { task_nodes: [] } }), /"task_nodes" is empty/],
    [JSON.stringify({ id: "1", user_request: "x", result: { task_nodes: ["A"] } }), /task_nodes\[0\] is a string/],
    [JSON.stringify({ id: "1", user_request: "x", result: { task_nodes: [{ arguments: [] }] } }), /task_nodes\[0\] has no "task"/],
  ])("rejects %s", (text, reason) => {
    const parsed = parseTaskBenchLine(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it("keeps the id of a rejected line when it has one", () => {
    expect(parseTaskBenchLine(JSON.stringify({ id: 5, user_request: "x", result: null }))).toEqual({ ok: false, id: "5", reason: 'missing "result"' });
  });
});

describe("toPlanDoc", () => {
  it("builds steps, needs, the catalogue, the import mark and limits, and invents no deliverables or complexity", () => {
    const { doc, notes } = toPlanDoc(
      record(
        [
          { task: "Image Downloader", arguments: ["https://x/a.jpg"] },
          { task: "Image Captioning", arguments: ["<node-0>"] },
        ],
        ["Step 1: Download the image.", "Step 2: Caption it."],
      ),
      tools,
    );
    expect(notes).toEqual([]);
    expect(doc).toEqual({
      planspec: 1,
      name: "taskbench-7",
      goal: "Do it",
      "x-planspec-import": { format: "taskbench", cannot_express: ["success", "deliverables"] },
      tools: {
        "Image Downloader": expect.objectContaining({ risk: "read", description: "Downloads an image from a given URL." }),
        "Image Captioning": expect.objectContaining({ risk: "read" }),
      },
      limits: { max_tool_calls: 8 },
      steps: {
        node_0: { kind: "read", goal: "Download the image.", tool: "Image Downloader", with: { args: ["https://x/a.jpg"] }, output: "node_0_out" },
        node_1: {
          kind: "analyze",
          goal: "Caption it.",
          tool: "Image Captioning",
          needs: ["node_0"],
          with: { args: ["${{ steps.node_0.output }}"] },
          output: "node_1_out",
        },
      },
    });
    // Tool names keep their spaces so node F1 compares by TaskBench's own names.
    expect(Object.keys(doc.tools)).toContain("Image Captioning");
  });

  it("describes each tool's positional inputs in input_schema", () => {
    const { doc } = toPlanDoc(record([{ task: "Image Stitcher", arguments: ["a.jpg", "b.jpg"] }]), tools);
    expect(doc.tools["Image Stitcher"]?.input_schema).toMatchObject({
      properties: { args: { type: "array", minItems: 2, maxItems: 2, description: "positional inputs: image, image" } },
    });
  });

  it("keeps a self-reference as a need on the step itself", () => {
    const { doc, notes } = toPlanDoc(
      record([
        { task: "Text Search", arguments: ["cats"] },
        { task: "Image Captioning", arguments: ["<node-1>", "<node-0>"] },
      ]),
      tools,
    );
    expect(doc.steps.node_1?.needs).toEqual(["node_1", "node_0"]);
    expect(notes).toEqual([{ kind: "self-reference", node: 1, message: "node 1 uses its own output <node-1>" }]);
  });

  it("turns an out-of-range reference into a need on a missing step", () => {
    const { doc, notes } = toPlanDoc(record([{ task: "Image Captioning", arguments: ["<node-3>"] }]), tools);
    expect(doc.steps.node_0?.needs).toEqual(["node_3"]);
    expect(doc.steps.node_0?.with).toEqual({ args: ["${{ steps.node_3.output }}"] });
    expect(notes.map((n) => n.kind)).toEqual(["dangling-reference"]);
  });

  it("wraps arguments that are not a list as with.args, still reading references in them", () => {
    const { doc, notes } = toPlanDoc(
      record([
        { task: "Text Search", arguments: "dogs" },
        { task: "Image Captioning", arguments: { image: "<node-0>" } },
        { task: "Image Captioning" },
      ]),
      tools,
    );
    expect(doc.steps.node_0?.with).toEqual({ args: "dogs" });
    expect(doc.steps.node_1?.with).toEqual({ args: { image: "${{ steps.node_0.output }}" } });
    expect(doc.steps.node_1?.needs).toEqual(["node_0"]);
    expect(doc.steps.node_2?.with).toBeUndefined();
    expect(notes.map((n) => n.kind)).toEqual(["non-list-arguments", "non-list-arguments", "missing-arguments"]);
  });

  it("leaves unknown tools out of the catalogue so the compiler reports them", () => {
    const { doc, notes } = toPlanDoc(
      record([
        { task: "Image Downloader", arguments: ["u"] },
        { task: "Video Splicer", arguments: ["<node-0>"] },
      ]),
      tools,
    );
    expect(Object.keys(doc.tools)).toEqual(["Image Downloader"]);
    expect(doc.steps.node_1).toMatchObject({ tool: "Video Splicer", kind: "analyze", goal: "Run Video Splicer" });
    expect(notes).toEqual([{ kind: "unknown-tool", node: 1, message: 'node 1 calls "Video Splicer", which is not in tool_desc' }]);
  });

  it("interpolates references embedded in longer strings", () => {
    const { doc, notes } = toPlanDoc(
      record([
        { task: "Text Search", arguments: ["a"] },
        { task: "Text Search", arguments: ["b"] },
        { task: "Text-to-Image", arguments: ["<node-0> and <node-01>"] },
      ]),
      tools,
    );
    expect(doc.steps.node_2?.with).toEqual({ args: ["${{ steps.node_0.output }} and ${{ steps.node_1.output }}"] });
    expect(doc.steps.node_2?.needs).toEqual(["node_0", "node_1"]);
    expect(doc.steps.node_2?.kind).toBe("analyze");
    expect(notes.map((n) => n.kind)).toEqual(["embedded-reference"]);
  });

  it("notes task_steps that do not line up with task_nodes and falls back to 'Run <tool>'", () => {
    const { doc, notes } = toPlanDoc(
      record([{ task: "Text Search", arguments: ["a"] }, { task: "Text Search", arguments: ["b"] }], ["Step 1: Search."]),
      tools,
    );
    expect(doc.steps.node_0?.goal).toBe("Search.");
    expect(doc.steps.node_1?.goal).toBe("Run Text Search");
    expect(notes.map((n) => n.kind)).toEqual(["step-count-mismatch"]);
  });

  it("keeps tool names and argument keys that look like JavaScript internals as plain data", () => {
    const odd = parseToolDesc({ nodes: [{ id: "constructor", desc: "x" }, { id: "__proto__", desc: "y" }] });
    if (!odd.ok) throw new Error(odd.reason);
    const { doc } = toPlanDoc(
      record([
        { task: "constructor", arguments: [] },
        { task: "__proto__", arguments: JSON.parse('{"__proto__": "<node-0>"}') },
      ]),
      odd.tools,
    );
    const written = JSON.parse(JSON.stringify(doc));
    expect(Object.keys(written.tools)).toEqual(["constructor", "__proto__"]);
    expect(Object.keys(written.steps.node_1.with.args)).toEqual(["__proto__"]);
    expect(written.steps.node_1.needs).toEqual(["node_0"]);
  });

  it("sizes the tool-call limit by node count, and never the complexity", () => {
    const nodes = (k: number) => Array.from({ length: k }, () => ({ task: "Text Search", arguments: ["q"] }));
    for (const [k, calls] of [[3, 10], [4, 12], [10, 24]] as const) {
      const { doc } = toPlanDoc(record(nodes(k)), tools);
      expect(doc.limits).toEqual({ max_tool_calls: calls });
      expect(doc).not.toHaveProperty("complexity");
      expect(doc).not.toHaveProperty("deliverables");
    }
  });

  it("maps input-type and output-type into the catalogue", () => {
    const { doc } = toPlanDoc(record([{ task: "Image Stitcher", arguments: ["a.jpg", "b.jpg"] }]), tools);
    expect(doc.tools["Image Stitcher"]).toMatchObject({ input_types: ["image", "image"], output_types: ["image"] });
  });
});

describe("parseToolDesc", () => {
  it("rejects files that are not a tool list", () => {
    expect(parseToolDesc({ tools: [] })).toMatchObject({ ok: false });
    expect(parseToolDesc({ nodes: [{ desc: "no id" }] })).toEqual({ ok: false, reason: 'nodes[0] has no "id"' });
    expect(parseToolDesc({ nodes: [] })).toEqual({ ok: false, reason: "it lists no tools" });
  });
});
