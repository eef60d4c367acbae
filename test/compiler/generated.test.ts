/** Generated artefacts are in step with their sources: the DSL schema and its precompiled validators. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers.js";

const run = (script: string) => execFileSync(process.execPath, [join(repoRoot, script)], { cwd: repoRoot, encoding: "utf8" });

describe("generated files", () => {
  it("schemas/planspec.schema.json is what scripts/gen-dsl-schema.mjs writes", () => {
    expect(run("scripts/gen-dsl-schema.mjs")).toBe(readFileSync(join(repoRoot, "schemas/planspec.schema.json"), "utf8"));
  });

  it("src/compiler/generated/dsl-validators.ts is what scripts/gen-validators.mjs writes", () => {
    expect(run("scripts/gen-validators.mjs")).toBe(readFileSync(join(repoRoot, "src/compiler/generated/dsl-validators.ts"), "utf8"));
  });

  it("src/runtime/generated/state-validator.ts is what scripts/gen-state-validator.mjs writes", () => {
    expect(run("scripts/gen-state-validator.mjs")).toBe(readFileSync(join(repoRoot, "src/runtime/generated/state-validator.ts"), "utf8"));
  });
});
