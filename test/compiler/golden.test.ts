/**
 * Golden compile cases: every `specs/compile/err/<case>.plan.yaml` has a `<case>.out`
 * with one expected `file:line:col: message [code]` per line; every file under
 * `specs/compile/ok/` and `specs/examples/` compiles with no diagnostics. Adding a case
 * needs no code. `UPDATE_GOLDEN=1 npx vitest run test/compiler/golden.test.ts` rewrites the .out files.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileFile } from "../../src/compiler/index.js";
import { repoRoot } from "../helpers.js";

const errDir = join(repoRoot, "specs/compile/err");
const planFiles = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((f) => /\.plan\.(ya?ml|json)$/.test(f)).sort() : [];

function render(file: string): string {
  const { diagnostics } = compileFile(file, { cwd: repoRoot });
  return diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]`).join("\n") + "\n";
}

describe("compile error goldens", () => {
  for (const f of planFiles(errDir)) {
    it(f, () => {
      const out = join(errDir, f.replace(/\.plan\.(ya?ml|json)$/, ".out"));
      const actual = render(join("specs/compile/err", f));
      if (process.env.UPDATE_GOLDEN) writeFileSync(out, actual);
      expect(actual.trim(), "a golden case must produce at least one diagnostic").not.toBe("");
      expect(actual).toBe(readFileSync(out, "utf8"));
    });
  }

  it("covers at least 30 distinct diagnostic codes", () => {
    const codes = new Set<string>();
    for (const f of readdirSync(errDir).filter((x) => x.endsWith(".out"))) {
      for (const m of readFileSync(join(errDir, f), "utf8").matchAll(/\[(PS\d+)\]$/gm)) codes.add(m[1]!);
    }
    expect(codes.size).toBeGreaterThanOrEqual(30);
  });
});

describe("plans that compile clean", () => {
  const dirs = ["specs/compile/ok", "specs/examples"];
  for (const dir of dirs) {
    for (const f of planFiles(join(repoRoot, dir))) {
      it(`${dir}/${f}`, () => {
        const result = compileFile(join(dir, f), { cwd: repoRoot });
        expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]`)).toEqual([]);
        expect(result.ir).toBeDefined();
      });
    }
  }
});
