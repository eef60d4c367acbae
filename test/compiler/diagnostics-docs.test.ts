/** The catalogue of compiler codes and docs/diagnostics.md stay in step, and each code is exercised. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogue } from "../../src/compiler/index.js";
import { repoRoot } from "../helpers.js";

describe("diagnostics catalogue", () => {
  const docs = readFileSync(join(repoRoot, "docs/diagnostics.md"), "utf8");
  const sections = [...docs.matchAll(/^## (PS\d+)$/gm)].map((m) => m[1]);

  it("documents every code, in catalogue order, and nothing else", () => {
    expect(sections).toEqual(Object.keys(catalogue));
  });

  it("has a golden case or a CLI test for every code", () => {
    const goldens = readdirSync(join(repoRoot, "specs/compile/err"))
      .filter((f) => f.endsWith(".out"))
      .map((f) => readFileSync(join(repoRoot, "specs/compile/err", f), "utf8"))
      .join("\n");
    const cliTests = readFileSync(join(repoRoot, "test/cli/compile.test.ts"), "utf8");
    const untested = Object.keys(catalogue).filter((c) => !goldens.includes(`[${c}]`) && !cliTests.includes(c));
    expect(untested).toEqual([]);
  });
});
