/** The docs stand alone: every relative link in README.md and docs/ names a file inside the repository. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../helpers.js";

const files = ["README.md", ...readdirSync(join(repoRoot, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

it.each(files)("%s links only to files inside the repository", (file) => {
  const text = readFileSync(join(repoRoot, file), "utf8").replace(/```[\s\S]*?```/g, "");
  const bad: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!.split("#")[0]!;
    if (target === "" || /^https?:\/\//.test(target) || target.startsWith("mailto:")) continue;
    const abs = resolve(repoRoot, dirname(file), target);
    const rel = relative(repoRoot, abs);
    if (rel.startsWith("..") || !existsSync(abs)) bad.push(target);
  }
  expect(bad).toEqual([]);
});
