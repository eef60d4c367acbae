/**
 * A typo in the `needs` of a step that `uses` a template is the plan's mistake: it is
 * reported once, at the plan's `needs` entry, not in the template file at each of the
 * template's first steps (where an editor would show it in a file the author did not touch).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, repoRoot } from "../helpers.js";

describe("needs of a template-using step", () => {
  it("an unknown need is reported at the using step's needs entry in the plan", () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-tneeds-"));
    cpSync(join(repoRoot, "specs/examples"), dir, { recursive: true });
    const text = readFileSync(join(dir, "blog-post.plan.yaml"), "utf8").replace("needs: [apply_fixes]", "needs: [apply_fixes, aply_fixes]");
    writeFileSync(join(dir, "blog-post.plan.yaml"), text);
    const r = cli(["lint", "blog-post.plan.yaml", "--format", "json"], { cwd: dir });
    const found = JSON.parse(r.stdout) as Array<{ file: string; code: string; message: string; line: number; col: number }>;
    const line = text.split("\n").findIndex((l) => l.includes("aply_fixes]")) + 1;
    const col = text.split("\n")[line - 1]!.indexOf("aply_fixes]") + 1;
    expect(found.map((d) => [d.file, d.line, d.col, d.code, d.message])).toEqual([
      ["blog-post.plan.yaml", line, col, "PS111", 'unknown step "aply_fixes" in the needs of step "publish_post"'],
    ]);
  });
});
