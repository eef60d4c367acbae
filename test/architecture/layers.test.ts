/**
 * The house reads as its pipeline (docs/architecture.md): each stage imports only the
 * stages below it, and no files import each other in a cycle. The layers are data here
 * and prose in the doc; this test holds the code to both.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers.js";
import { cycles, importGraph, stageOf } from "./imports.js";

/** Stage -> the stages it may import (besides itself). The base modules import nothing of ours but each other. */
const BASE = ["ir", "diagnostic", "graph", "annotations", "util"];
const ALLOWED: Record<string, string[]> = {
  ir: [],
  diagnostic: [],
  graph: ["ir"],
  annotations: ["ir"],
  util: ["ir"],
  compiler: BASE,
  lint: [...BASE, "compiler"],
  llm: ["util"],
  runtime: [...BASE, "compiler", "lint", "llm"],
  planner: [...BASE, "compiler", "lint", "llm", "runtime"],
  diff: [...BASE, "compiler", "lint", "runtime"],
  eval: [...BASE, "compiler", "lint", "llm", "runtime", "planner"],
  report: [...BASE, "compiler", "lint", "runtime", "eval"],
  lsp: [...BASE, "compiler", "lint"],
  index: [...BASE, "compiler", "lint", "llm", "runtime", "planner", "eval", "report", "tools"],
  tools: [...BASE, "runtime"],
  cli: [...BASE, "compiler", "lint", "llm", "runtime", "planner", "diff", "eval", "report", "lsp", "index", "tools"],
};

const graph = importGraph(join(repoRoot, "src"));

describe("the import graph of src/", () => {
  it("knows every stage (a new folder needs a line in ALLOWED and in docs/architecture.md)", () => {
    const stages = [...new Set(graph.files.map(stageOf))].sort();
    expect(stages.filter((s) => !(s in ALLOWED))).toEqual([]);
    const doc = readFileSync(join(repoRoot, "docs/architecture.md"), "utf8");
    for (const s of stages) expect(doc, `docs/architecture.md names ${s}`).toContain(`\`${s}\``);
  });

  it("has no import that goes up the pipeline", () => {
    const wrong: string[] = [];
    for (const [file, deps] of graph.edges) {
      const from = stageOf(file);
      for (const d of deps) {
        const to = stageOf(d);
        if (to !== from && !ALLOWED[from]?.includes(to)) wrong.push(`${file} -> ${d}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("has no import cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("finds a cycle and an upward import when there is one (the checks can fail)", () => {
    const g = { files: ["a.ts", "b.ts", "c.ts"], edges: new Map([["a.ts", ["b.ts"]], ["b.ts", ["a.ts"]], ["c.ts", []]]) };
    expect(cycles(g)).toEqual([["a.ts", "b.ts"]]);
    expect(stageOf("compiler/compile.ts")).toBe("compiler");
    expect(ALLOWED.compiler).not.toContain("lint");
  });
});
