/**
 * Golden lint cases (actionlint's testdata): every `specs/lint/err/<case>.plan.yaml` has a
 * `<case>.out` with one expected `file:line:col: message [rule-id]` per line, produced by
 * all registered rules; a revision case also has `<case>.original.yaml`, the plan it
 * revises (`--against`). Every `specs/lint/ok/*.plan.yaml` lints clean. Adding a case
 * needs no code; `UPDATE_GOLDEN=1 npx vitest run test/lint/rules-golden.test.ts` rewrites
 * the .out files.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileFile } from "../../src/compiler/index.js";
import { lintCompiled } from "../../src/lint/engine.js";
import { rules } from "../../src/lint/rules/index.js";
import { repoRoot } from "../helpers.js";

const planFiles = (dir: string) =>
  existsSync(join(repoRoot, dir))
    ? readdirSync(join(repoRoot, dir))
        .filter((f) => /\.plan\.(ya?ml|json)$/.test(f))
        .sort()
    : [];

/** Compiles (insisting on a clean compile: compiler errors are not lint findings) and lints. */
function render(dir: string, file: string): string {
  const compiled = compileFile(join(dir, file), { cwd: repoRoot });
  expect(compiled.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]`)).toEqual([]);
  const originalFile = join(dir, file.replace(/\.plan\.(ya?ml|json)$/, ".original.yaml"));
  const opts: Parameters<typeof lintCompiled>[1] = {};
  if (existsSync(join(repoRoot, originalFile))) {
    const original = compileFile(originalFile, { cwd: repoRoot });
    expect(original.diagnostics).toEqual([]);
    opts.original = original;
  }
  return lintCompiled(compiled, opts)
    .map((d) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]\n`)
    .join("");
}

describe("lint error goldens", () => {
  const ids = new Set(rules.map((r) => r.id));
  for (const f of planFiles("specs/lint/err")) {
    it(f, () => {
      const text = readFileSync(join(repoRoot, "specs/lint/err", f), "utf8");
      expect(text.split("\n")[0]).toBe("# yaml-language-server: $schema=../../../schemas/planspec.schema.json");
      const out = join(repoRoot, "specs/lint/err", f.replace(/\.plan\.(ya?ml|json)$/, ".out"));
      const actual = render("specs/lint/err", f);
      if (process.env.UPDATE_GOLDEN) writeFileSync(out, actual);
      // The case is named after the rule it demonstrates, and that rule must fire.
      const id = [...ids].filter((r) => f.startsWith(r)).sort((a, b) => b.length - a.length)[0];
      expect(id, "the file name starts with a rule id").toBeDefined();
      expect(actual).toContain(`[${id}]`);
      expect(actual).toBe(readFileSync(out, "utf8"));
    });
  }
});

describe("plans that lint clean", () => {
  for (const f of planFiles("specs/lint/ok")) {
    it(f, () => {
      expect(render("specs/lint/ok", f)).toBe("");
    });
  }
});
