/**
 * What the golden lint cases must be, beyond matching their `.out` (which
 * `test/lint/golden.test.ts` checks through the CLI): each error case is a plan for
 * editors (the schema modeline first), compiles clean together with its
 * `<case>.original.yaml` (compiler errors are not lint findings), is named after a rule,
 * and that rule fires in its `.out`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileFile } from "../../src/compiler/index.js";
import { rules } from "../../src/lint/rules/index.js";
import { repoRoot } from "../helpers.js";

const MODELINE = "# yaml-language-server: $schema=../../../schemas/planspec.schema.json";
const list = (dir: string, re: RegExp) =>
  existsSync(join(repoRoot, dir))
    ? readdirSync(join(repoRoot, dir))
        .filter((f) => re.test(f))
        .sort()
    : [];

function compilesClean(file: string): void {
  const { diagnostics, ir } = compileFile(file, { cwd: repoRoot });
  expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]`)).toEqual([]);
  expect(ir).toBeDefined();
}

describe("specs/lint/err cases", () => {
  const ids = rules.map((r) => r.id);
  for (const f of list("specs/lint/err", /\.plan\.ya?ml$/)) {
    it(f, () => {
      const file = join("specs/lint/err", f);
      expect(readFileSync(join(repoRoot, file), "utf8").split("\n")[0]).toBe(MODELINE);
      compilesClean(file);
      const original = file.replace(/\.plan\.ya?ml$/, ".original.yaml");
      if (existsSync(join(repoRoot, original))) compilesClean(original);
      // The longest rule id the file name starts with: `unsafe-revision-new-external` is a
      // case of `unsafe-revision`.
      const id = ids.filter((r) => f.startsWith(r)).sort((a, b) => b.length - a.length)[0];
      expect(id, "the file name starts with a rule id").toBeDefined();
      const out = readFileSync(join(repoRoot, file.replace(/\.plan\.ya?ml$/, ".out")), "utf8");
      expect(out).toContain(`[${id}]`);
    });
  }
});

describe("specs/lint/ok cases", () => {
  for (const f of list("specs/lint/ok", /\.plan\.ya?ml$/)) {
    it(f, () => {
      const file = join("specs/lint/ok", f);
      expect(readFileSync(join(repoRoot, file), "utf8").split("\n")[0]).toBe(MODELINE);
      compilesClean(file);
    });
  }
});
