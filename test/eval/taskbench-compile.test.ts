/**
 * Imported TaskBench plans go through the real compiler: well-formed plans compile, and
 * each malformation the importer kept becomes the compile error it was kept for.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileFile } from "../../src/compiler/index.js";
import { importTaskBench } from "../../src/eval/taskbench/importer.js";
import { parseToolDesc, type ToolDesc } from "../../src/eval/taskbench/tool-desc.js";

const repoRoot = resolve(import.meta.dirname, "../..");
const dataDir = resolve(repoRoot, "../shared/data/taskbench/multimedia");
const predictions = join(dataDir, "predictions-llama-3.3-70b-instruct.jsonl");
const present = existsSync(predictions);
if (!present) console.warn(`skipping the TaskBench corpus compile test: ${dataDir} is absent`);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function importTo(text: string, toolDesc: ToolDesc): string {
  const out = mkdtempSync(join(tmpdir(), "planspec-tbcompile-"));
  dirs.push(out);
  const summary = importTaskBench(text, { outDir: out, toolDesc });
  expect(summary.rejected).toEqual([]);
  return out;
}

/** Compiles every plan in a directory: how many compiled, and error counts by code and by plan. */
function compileAll(dir: string) {
  const codes: Record<string, number> = {};
  const plansByCode: Record<string, number> = {};
  let compiled = 0;
  for (const f of readdirSync(dir).sort()) {
    const r = compileFile(join(dir, f), { cwd: dir });
    if (r.ir) compiled++;
    for (const d of r.diagnostics) codes[d.code] = (codes[d.code] ?? 0) + 1;
    for (const c of new Set(r.diagnostics.map((d) => d.code))) plansByCode[c] = (plansByCode[c] ?? 0) + 1;
  }
  return { compiled, codes, plansByCode };
}

describe("compiling imported synthetic plans", () => {
  const desc = parseToolDesc({
    nodes: [
      { id: "Image Captioning", desc: "Describes an image.", "input-type": ["image"], "output-type": ["text"] },
      { id: "Text-to-Image", desc: "Generates an image.", "input-type": ["text"], "output-type": ["image"] },
    ],
  });
  if (!desc.ok) throw new Error(desc.reason);
  const plan = (id: string, nodes: unknown) => JSON.stringify({ id, user_request: "Draw and caption a cat", result: { task_nodes: nodes } });

  it("compiles a clean plan, and each malformation to its own error", () => {
    const dir = importTo(
      [
        plan("1", [{ task: "Text-to-Image", arguments: ["a cat"] }, { task: "Image Captioning", arguments: ["<node-0>"] }]),
        plan("2", [{ task: "Text-to-Image", arguments: ["a cat"] }, { task: "Image Captioning", arguments: "<node-0>" }]),
        plan("3", [{ task: "Text-to-Image", arguments: ["cat like <node-1>"] }, { task: "Image Captioning", arguments: ["<node-0>"] }]),
        plan("4", [{ task: "Image Captioning", arguments: ["<node-5>"] }]),
        plan("5", [{ task: "Image Captioning", arguments: ["<node-0>"] }]),
        plan("6", [{ task: "Cat Finder", arguments: ["cat"] }]),
      ].join("\n"),
      desc.tools,
    );
    const codesOf = (id: string) => compileFile(join(dir, `${id}.plan.json`), { cwd: dir }).diagnostics.map((d) => d.code);
    expect(codesOf("1")).toEqual([]);
    // Arguments that are not a list stay a valid document.
    expect(codesOf("2")).toEqual([]);
    expect(codesOf("3")).toContain("PS113");
    expect(codesOf("4")).toContain("PS111");
    expect(codesOf("5")).toContain("PS112");
    expect(codesOf("6")).toEqual(["PS114"]);
    const self = compileFile(join(dir, "5.plan.json"), { cwd: dir }).diagnostics.find((d) => d.code === "PS112");
    expect(self).toMatchObject({ file: "5.plan.json", message: 'step "node_0" needs itself' });
    expect(self?.line).toBeGreaterThan(1);
  });
});

describe.skipIf(!present)("compiling the imported TaskBench multimedia corpus", () => {
  it("compiles all but the 26 malformed plans, each failing with its expected code", () => {
    const desc = parseToolDesc(JSON.parse(readFileSync(join(dataDir, "tool_desc.json"), "utf8")));
    if (!desc.ok) throw new Error(desc.reason);
    const dir = importTo(readFileSync(predictions, "utf8"), desc.tools);
    const result = compileAll(dir);
    expect(result).toEqual({
      compiled: 5545,
      // 23 plans call 24 unknown tools; 3 plans hold 4 self-references, each of which is
      // also a read of the step's own output (PS145).
      codes: { PS114: 24, PS112: 4, PS145: 4 },
      plansByCode: { PS114: 23, PS112: 3, PS145: 3 },
    });
  });
});
