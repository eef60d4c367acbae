/**
 * The shipped TaskBench sample (examples/taskbench/multimedia: 305 real plans, no
 * ../shared needed): imported and linted like the README shows. The wiring rules' findings
 * are a golden file (UPDATE_GOLDEN=1 rewrites it); criteria are reported once per plan.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Diagnostic } from "../../src/diagnostic.js";
import { importTaskBench } from "../../src/eval/taskbench/importer.js";
import { parseToolDesc } from "../../src/eval/taskbench/tool-desc.js";
import { repoRoot } from "../helpers.js";

const sampleDir = join(repoRoot, "examples/taskbench/multimedia");
const golden = join(repoRoot, "specs/lint/taskbench/wiring-sample.out");
const WIRING = new Set(["tool-argument-mismatch", "wiring-type-mismatch"]);

async function lintJson(dir: string, ...args: string[]): Promise<{ status: number; diagnostics: Diagnostic[] }> {
  const chunks: string[] = [];
  const stdout = new Writable({ write: (c, _e, done) => (chunks.push(String(c)), done()) });
  const stderr = new Writable({ write: (_c, _e, done) => done() });
  const status = await main(["lint", ".", "--format", "json", ...args], { stdout, stderr, cwd: dir, env: { NO_COLOR: "1" } });
  return { status, diagnostics: JSON.parse(chunks.join("")) as Diagnostic[] };
}

describe("the shipped TaskBench sample", () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), "planspec-tb-sample-"));
    const desc = parseToolDesc(JSON.parse(readFileSync(join(sampleDir, "tool_desc.json"), "utf8")));
    if (!desc.ok) throw new Error(desc.reason);
    const summary = importTaskBench(readFileSync(join(sampleDir, "predictions-llama-3.3-70b-instruct.sample.jsonl"), "utf8"), { outDir: out, toolDesc: desc.tools });
    expect(summary).toMatchObject({ imported: 305, rejected: [] });
  });

  it("imports 305 plans with their tools' resource types", () => {
    expect(readdirSync(out)).toHaveLength(305);
    const doc = JSON.parse(readFileSync(join(out, "13297865.plan.json"), "utf8"));
    expect(doc.tools["Text Search"]).toMatchObject({ input_types: ["text"], output_types: ["text"] });
  });

  it("the wiring rules' findings match the golden file", async () => {
    const { status, diagnostics } = await lintJson(out);
    expect(status).toBe(1);
    const lines = diagnostics.filter((d) => WIRING.has(d.code)).map((d) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]\n`);
    if (process.env.UPDATE_GOLDEN) writeFileSync(golden, lines.join(""));
    expect(lines.join("")).toBe(readFileSync(golden, "utf8"));
    // 20 of the first 300 plans plus the two Text Search → video plans at lines 757 and 3778.
    expect(new Set(diagnostics.filter((d) => WIRING.has(d.code)).map((d) => d.file)).size).toBe(22);
  });

  it("reports missing criteria once per compiled plan, not per step", async () => {
    const { diagnostics } = await lintJson(out);
    const criteria = diagnostics.filter((d) => d.code === "missing-success-criteria");
    const compiled = 305 - new Set(diagnostics.filter((d) => d.code.startsWith("PS")).map((d) => d.file)).size;
    expect(criteria).toHaveLength(compiled);
    expect(new Set(criteria.map((d) => d.file)).size).toBe(compiled);
    expect(criteria[0]!.message).toMatch(/^\d+ of \d+ steps have no success criteria \(taskbench plans cannot express them\)/);
  });

  it("--no-inline-config ignores the importer's mark: criteria are per step again", async () => {
    const { diagnostics } = await lintJson(out, "--no-inline-config");
    const criteria = diagnostics.filter((d) => d.code === "missing-success-criteria");
    expect(criteria.length).toBeGreaterThan(305);
    expect(criteria.every((d) => /^step "node_\d+" has no success criteria/.test(d.message))).toBe(true);
  });
});
