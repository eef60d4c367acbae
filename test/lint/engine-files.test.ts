import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverPlanFiles, globToRegExp, isIgnored } from "../../src/lint/files.js";

/** A tree of empty files. */
function tree(paths: string[]): string {
  const root = mkdtempSync(join(tmpdir(), "planspec-files-"));
  for (const p of paths) {
    mkdirSync(join(root, p, ".."), { recursive: true });
    writeFileSync(join(root, p), "");
  }
  return root;
}

const FILES = [
  "a.plan.yaml",
  "b.plan.json",
  "notes.yaml",
  "x.template.yaml",
  "sub/c.plan.yml",
  "sub/deep/d.plan.json",
  "node_modules/pkg/e.plan.yaml",
  ".hidden/f.plan.yaml",
];

describe("discoverPlanFiles", () => {
  it("searches directories for plan files, skipping node_modules and dot-directories", () => {
    const root = tree(FILES);
    expect(discoverPlanFiles(["."], root)).toEqual({
      files: ["a.plan.yaml", "b.plan.json", join("sub", "c.plan.yml"), join("sub", "deep", "d.plan.json")],
      unmatched: [],
    });
  });

  it("takes named files as they are, whatever their name, once each", () => {
    const root = tree(FILES);
    expect(discoverPlanFiles(["notes.yaml", "a.plan.yaml", "./a.plan.yaml", "sub"], root).files).toEqual([
      "notes.yaml",
      "a.plan.yaml",
      join("sub", "c.plan.yml"),
      join("sub", "deep", "d.plan.json"),
    ]);
  });

  it("expands globs with *, ** and braces", () => {
    const root = tree(FILES);
    expect(discoverPlanFiles(["*.plan.*"], root).files).toEqual(["a.plan.yaml", "b.plan.json"]);
    expect(discoverPlanFiles(["**/*.plan.json"], root).files).toEqual(["b.plan.json", join("sub", "deep", "d.plan.json")]);
    expect(discoverPlanFiles(["sub/**/*.{yml,json}"], root).files).toEqual([join("sub", "c.plan.yml"), join("sub", "deep", "d.plan.json")]);
    expect(discoverPlanFiles([join(root, "sub", "*", "?.plan.json")], root).files).toEqual([join("sub", "deep", "d.plan.json")]);
  });

  it("lists arguments that named nothing", () => {
    const root = tree(["empty/readme.md"]);
    expect(discoverPlanFiles(["missing.plan.yaml", "empty", "*.nothing"], root).unmatched).toEqual([
      { arg: "missing.plan.yaml", reason: "no such file or directory" },
      { arg: "empty", reason: "no *.plan.yaml, *.plan.yml or *.plan.json files in this directory" },
      { arg: "*.nothing", reason: "no files match" },
    ]);
  });
});

describe("globToRegExp", () => {
  it.each([
    ["*.json", "a.json", true],
    ["*.json", "d/a.json", false],
    ["**/*.json", "a.json", true],
    ["**/*.json", "d/e/a.json", true],
    ["d/**", "d/e/a.json", true],
    ["a?.yaml", "ab.yaml", true],
    ["[ab].yaml", "c.yaml", false],
    ["[!ab].yaml", "c.yaml", true],
    ["{x,y}.plan.yaml", "y.plan.yaml", true],
    ["a+b.yaml", "a+b.yaml", true],
  ])("%s matches %s: %s", (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});

describe("isIgnored", () => {
  const base = "/repo";
  it("matches patterns relative to the config's directory, gitignore-like", () => {
    expect(isIgnored("/repo/drafts/a.plan.yaml", ["drafts/"], base)).toBe(true);
    expect(isIgnored("/repo/x/drafts/a.plan.yaml", ["drafts"], base)).toBe(true);
    expect(isIgnored("/repo/x/drafts/a.plan.yaml", ["/drafts"], base)).toBe(false);
    expect(isIgnored("/repo/a.wip.plan.yaml", ["**/*.wip.plan.yaml"], base)).toBe(true);
    expect(isIgnored("/repo/a.plan.yaml", ["**/*.wip.plan.yaml"], base)).toBe(false);
    expect(isIgnored("/elsewhere/a.plan.yaml", ["**"], base)).toBe(false);
  });
});
