/**
 * The importer over the real TaskBench multimedia predictions (5,571 plans written by
 * Llama-3.3-70B). The numbers were counted on the data first; a regression that drops
 * plans or stops noticing a malformation changes them.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importTaskBench, type ImportSummary } from "../../src/eval/taskbench/importer.js";
import { parseToolDesc } from "../../src/eval/taskbench/tool-desc.js";
import type { PlanDoc } from "../../src/eval/taskbench/convert.js";

const repoRoot = resolve(import.meta.dirname, "../..");
const dataDir = resolve(repoRoot, "../shared/data/taskbench/multimedia");
const predictions = join(dataDir, "predictions-llama-3.3-70b-instruct.jsonl");
const present = existsSync(predictions);
if (!present) console.warn(`skipping the TaskBench corpus test: ${dataDir} is absent`);

describe.skipIf(!present)("TaskBench multimedia corpus", () => {
  let out: string;
  let summary: ImportSummary;

  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), "planspec-taskbench-"));
    const desc = parseToolDesc(JSON.parse(readFileSync(join(dataDir, "tool_desc.json"), "utf8")));
    if (!desc.ok) throw new Error(desc.reason);
    summary = importTaskBench(readFileSync(predictions, "utf8"), { outDir: out, toolDesc: desc.tools });
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("converts every plan and rejects none", () => {
    expect(summary.imported).toBe(5571);
    expect(summary.rejected).toEqual([]);
    expect(readdirSync(out).filter((f) => f.endsWith(".plan.json"))).toHaveLength(5571);
  });

  it("finds the malformations the model made", () => {
    expect(summary.noteCounts).toEqual({
      "unknown-tool": 24,
      "self-reference": 4,
      "embedded-reference": 10,
      "step-count-mismatch": 107,
    });
    const plansWith = (kind: string) => new Set(summary.notes.filter((n) => n.kind === kind).map((n) => n.id)).size;
    expect(plansWith("unknown-tool")).toBe(23);
    expect(plansWith("self-reference")).toBe(3);
    expect(plansWith("embedded-reference")).toBe(10);
    // Ids of the self-referencing plans, so a reader can look at them.
    expect([...new Set(summary.notes.filter((n) => n.kind === "self-reference").map((n) => n.id))].sort()).toEqual([
      "33446792",
      "39491094",
      "95344322",
    ]);
  });

  it("writes plans whose sizes follow TaskBench's 1-9 nodes", () => {
    const bySize: Record<number, number> = {};
    for (const f of readdirSync(out)) {
      const doc = JSON.parse(readFileSync(join(out, f), "utf8")) as PlanDoc;
      const n = Object.keys(doc.steps).length;
      bySize[n] = (bySize[n] ?? 0) + 1;
      expect(doc.limits.max_tool_calls).toBe(2 * n + 4);
      expect(doc["x-planspec-import"]).toEqual({ format: "taskbench", cannot_express: ["success", "deliverables"] });
    }
    expect(bySize).toEqual({ 1: 1898, 2: 609, 3: 1265, 4: 1042, 5: 453, 6: 186, 7: 92, 8: 24, 9: 2 });
  });

  it("writes a self-referencing plan with the need kept", () => {
    const doc = JSON.parse(readFileSync(join(out, "33446792.plan.json"), "utf8")) as PlanDoc;
    expect(doc.steps.node_2?.needs).toEqual(["node_0", "node_2"]);
    expect(doc.steps.node_3?.needs).toEqual(["node_3"]);
    expect(doc.tools["Voice Changer"]).toMatchObject({ risk: "read" });
  });
});
