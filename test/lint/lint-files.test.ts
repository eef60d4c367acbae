/**
 * `lintFiles` in-process: what `planspec lint` does with paths, configs, ignores, rule
 * severities, baselines, originals and confidence, as data — and typed errors for what
 * stops it (a path naming nothing, a bad config, a bad baseline), never output or exits.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBaseline, serializeBaseline } from "../../src/lint/baseline.js";
import { lintFiles, LintFilesError } from "../../src/lint/lint-files.js";
import { BAD, CLEAN, IDEMPOTENCY, NO_CRITERIA, workspace } from "../cli/lint-fixtures.js";

const codes = (r: ReturnType<typeof lintFiles>) => r.diagnostics.map((d) => `${d.file}:${d.line} ${d.severity} ${d.code}`);

describe("lintFiles", () => {
  it("expands directories and globs, and reports every finding with counts", () => {
    const dir = workspace({ "plans/b.plan.yaml": BAD, "plans/c.plan.yaml": CLEAN, "plans/notes.txt": "not a plan" });
    const r = lintFiles(["plans"], { cwd: dir });
    expect(r.files).toEqual(["plans/b.plan.yaml", "plans/c.plan.yaml"]);
    expect(codes(r)).toEqual([`plans/b.plan.yaml:17 warning ${NO_CRITERIA}`, `plans/b.plan.yaml:23 error ${IDEMPOTENCY}`]);
    expect(r).toMatchObject({ errors: 1, warnings: 1, inputError: false });
    expect(lintFiles(["plans/*.plan.yaml"], { cwd: dir }).files).toEqual(r.files);
  });

  it("applies the nearest planspec.config.yaml (severities, ignores, maxWarnings), or a pinned one instead", () => {
    const dir = workspace({
      "gen/b.plan.yaml": BAD,
      "gen/draft.wip.plan.yaml": BAD,
      "gen/planspec.config.yaml": `rules: { ${IDEMPOTENCY}: warning }\nignores: ["*.wip.plan.yaml"]\nmaxWarnings: 1\n`,
      "ci/lint.yaml": "maxWarnings: 5\n",
    });
    const near = lintFiles(["gen"], { cwd: dir });
    expect(near.files).toEqual(["gen/b.plan.yaml"]);
    expect(near.ignored).toEqual(["gen/draft.wip.plan.yaml"]);
    expect(near).toMatchObject({ errors: 0, warnings: 2, maxWarnings: 1 });
    const pinned = lintFiles(["gen"], { cwd: dir, config: "ci/lint.yaml" });
    expect(pinned.files).toHaveLength(2);
    expect(pinned).toMatchObject({ errors: 2, maxWarnings: 5 });
  });

  it("takes rule severities, a confidence floor and errorsOnly", () => {
    const dir = workspace({ "b.plan.yaml": BAD });
    expect(codes(lintFiles(["b.plan.yaml"], { cwd: dir, rules: { [IDEMPOTENCY]: "off" } }))).toEqual([`b.plan.yaml:17 warning ${NO_CRITERIA}`]);
    expect(codes(lintFiles(["b.plan.yaml"], { cwd: dir, errorsOnly: true }))).toEqual([`b.plan.yaml:23 error ${IDEMPOTENCY}`]);
    const high = lintFiles(["b.plan.yaml"], { cwd: dir, minConfidence: "high" });
    expect(high.diagnostics.every((d) => d.confidence === undefined || d.confidence === "high")).toBe(true);
    expect(() => lintFiles(["b.plan.yaml"], { cwd: dir, rules: { "no-such-rule": "off" } })).toThrow(/unknown rule "no-such-rule"/);
  });

  it("honours suppressions unless inlineConfig is false", () => {
    const dir = workspace({ "s.plan.yaml": BAD.replace("  send_mail:\n", `  # planspec-disable-next-line ${IDEMPOTENCY} -- approved\n  send_mail:\n`) });
    expect(lintFiles(["s.plan.yaml"], { cwd: dir }).errors).toBe(0);
    expect(lintFiles(["s.plan.yaml"], { cwd: dir, inlineConfig: false }).diagnostics.map((d) => d.code)).toContain(IDEMPOTENCY);
  });

  it("subtracts a baseline of the findings", () => {
    const dir = workspace({ "b.plan.yaml": BAD });
    const first = lintFiles(["b.plan.yaml"], { cwd: dir });
    writeFileSync(join(dir, "baseline.json"), serializeBaseline(createBaseline(first.findings, "baseline.json", dir)));
    const r = lintFiles(["b.plan.yaml"], { cwd: dir, baseline: "baseline.json" });
    expect(r.diagnostics).toEqual([]);
    expect(r.findings).toHaveLength(2);
  });

  it("checks a revised plan against its original", () => {
    const dir = workspace({ "orig.plan.yaml": CLEAN, "rev.plan.yaml": CLEAN.replace(/^goal: .*$/m, "goal: Delete the input file.") });
    expect(codes(lintFiles(["rev.plan.yaml"], { cwd: dir, against: "orig.plan.yaml" }))).toEqual(["rev.plan.yaml:3 error goal-drift"]);
  });

  it("marks an unreadable plan as an input error", () => {
    const dir = workspace({ "q.plan.yaml": "steps: [unclosed\n" });
    expect(lintFiles(["q.plan.yaml"], { cwd: dir })).toMatchObject({ inputError: true });
  });

  it("throws LintFilesError for a path naming nothing, a bad config and a bad baseline", () => {
    const dir = workspace({ "b.plan.yaml": BAD, "bad/p.plan.yaml": CLEAN, "bad/planspec.config.yaml": "rules: { nope: off }\n", "b.json": "[]" });
    const err = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e as LintFilesError;
      }
      throw new Error("did not throw");
    };
    const paths = err(() => lintFiles(["missing", "b.plan.yaml"], { cwd: dir }));
    expect(paths).toBeInstanceOf(LintFilesError);
    expect(paths).toMatchObject({ reason: "paths", unmatched: [{ arg: "missing", reason: "no such file or directory" }] });
    const config = err(() => lintFiles(["bad"], { cwd: dir }));
    expect(config.reason).toBe("config");
    expect(config.diagnostics[0]).toMatchObject({ file: "bad/planspec.config.yaml", line: 1 });
    expect(err(() => lintFiles(["b.plan.yaml"], { cwd: dir, baseline: "b.json" })).message).toMatch(/^baseline b\.json is not a planspec baseline/);
  });
});
