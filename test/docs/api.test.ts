/**
 * docs/api.md runs: every ```js block is a module run against the built package (a
 * project whose node_modules/planspec is this repository), and must print exactly the
 * ```text block that follows it.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../helpers.js";

interface Example {
  title: string;
  code: string;
  expected: string;
}

function examples(markdown: string): Example[] {
  const out: Example[] = [];
  let title = "";
  const blocks = [...markdown.matchAll(/^## (.*)$|^```(\w+)\n([\s\S]*?)^```$/gm)];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b[1] !== undefined) {
      title = b[1];
      continue;
    }
    if (b[2] !== "js") continue;
    const next = blocks[i + 1];
    if (!next || next[2] !== "text") throw new Error(`docs/api.md: the js example under "${title}" has no \`\`\`text output block after it`);
    out.push({ title, code: b[3]!, expected: next[3]! });
  }
  return out;
}

const project = mkdtempSync(join(tmpdir(), "planspec-api-docs-"));
mkdirSync(join(project, "node_modules"));
symlinkSync(repoRoot, join(project, "node_modules/planspec"), "dir");
for (const d of ["specs", "evals"]) symlinkSync(join(repoRoot, d), join(project, d), "dir");
writeFileSync(join(project, "package.json"), JSON.stringify({ name: "api-docs", private: true, type: "module" }));

afterAll(() => rmSync(project, { recursive: true, force: true }));

const list = examples(readFileSync(join(repoRoot, "docs/api.md"), "utf8"));

describe("docs/api.md examples", () => {
  it("has an example for every exported function", () => {
    const titles = list.map((e) => e.title).join("\n");
    for (const fn of ["compile", "lint", "lintFiles", "gate", "plan", "run", "approve", "resume", "openStore", "evaluate", "defineTool"]) expect(titles).toContain(`\`${fn}`);
  });

  it.each(list.map((e, i) => [`${i + 1}: ${e.title}`, e] as const))("%s", (_name, e) => {
    const file = join(project, `example-${list.indexOf(e)}.mjs`);
    writeFileSync(file, e.code);
    const r = spawnSync(process.execPath, [file], { cwd: project, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 60_000 });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(e.expected);
    expect(r.status).toBe(0);
  });
});
