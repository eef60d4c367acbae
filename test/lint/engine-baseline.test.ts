import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyBaseline, createBaseline, readBaseline, serializeBaseline, type BaselineFinding } from "../../src/lint/baseline.js";
import type { Diagnostic } from "../../src/diagnostic.js";

function finding(file: string, code: string, message: string, line: number, step?: string): BaselineFinding {
  const diagnostic: Diagnostic = { code, severity: "error", message, file, range: [0, 1], line, col: 1, endLine: line, endCol: 2, docsUrl: "" };
  return step ? { diagnostic, step } : { diagnostic };
}

describe("baselines", () => {
  const cwd = mkdtempSync(join(tmpdir(), "planspec-baseline-"));
  const findings = [
    finding("plans/a.plan.yaml", "unbounded-loop", "no limits", 1),
    finding("plans/a.plan.yaml", "write-without-evidence", 'step "w" writes without evidence', 9, "w"),
    finding("plans/b.plan.yaml", "write-without-evidence", 'step "w" writes without evidence', 4, "w"),
  ];

  it("stores files relative to the baseline, one finding per line, sorted", () => {
    const b = createBaseline([...findings].reverse(), "ci/baseline.json", cwd);
    expect(b.findings.map((e) => `${e.file} ${e.rule} ${e.step ?? "-"}`)).toEqual([
      "../plans/a.plan.yaml unbounded-loop -",
      "../plans/a.plan.yaml write-without-evidence w",
      "../plans/b.plan.yaml write-without-evidence w",
    ]);
    expect(b.findings.every((e) => /^[0-9a-f]{16}$/.test(e.hash))).toBe(true);
    const text = serializeBaseline(b);
    expect(JSON.parse(text)).toEqual(b);
    expect(text.split("\n").filter((l) => l.includes('"rule"'))).toHaveLength(3);
  });

  it("drops matching findings even when their lines moved, and reports stale entries", () => {
    const file = join(cwd, "baseline.json");
    writeFileSync(file, serializeBaseline(createBaseline(findings, "baseline.json", cwd)));
    const loaded = readBaseline("baseline.json", cwd);
    if (typeof loaded === "string") throw new Error(loaded);
    const now = [
      finding("plans/a.plan.yaml", "unbounded-loop", "no limits", 30),
      finding("plans/a.plan.yaml", "write-without-evidence", 'step "w" writes without evidence', 40, "w"),
      finding("plans/a.plan.yaml", "write-without-evidence", 'step "v" writes without evidence', 50, "v"),
    ];
    const { kept, stale } = applyBaseline(now, loaded, cwd);
    expect(kept.map((f) => f.diagnostic.line)).toEqual([50]);
    expect(stale).toHaveLength(1);
    expect(stale[0]).toMatchObject({ code: "stale-baseline-entry", severity: "info", file: "baseline.json", line: 6, col: 5 });
    expect(stale[0]!.message).toBe('baseline entry for write-without-evidence in plans/b.plan.yaml (step "w") matches no finding: "step "w" writes without evidence"');
  });

  it("covers each finding with one entry: a second identical finding is new", () => {
    const file = join(cwd, "one.json");
    writeFileSync(file, serializeBaseline(createBaseline([findings[0]!], "one.json", cwd)));
    const loaded = readBaseline(file, cwd);
    if (typeof loaded === "string") throw new Error(loaded);
    const { kept, stale } = applyBaseline([findings[0]!, findings[0]!], loaded, cwd);
    expect(kept).toHaveLength(1);
    expect(stale).toEqual([]);
  });

  it("explains unreadable and malformed baselines in one line", () => {
    writeFileSync(join(cwd, "bad.json"), "{ nope");
    writeFileSync(join(cwd, "wrong.json"), '{ "version": 2, "findings": [] }');
    expect(readBaseline("missing.json", cwd)).toBe("cannot read baseline missing.json: no such file");
    expect(readBaseline("bad.json", cwd)).toMatch(/^baseline bad.json is not JSON: /);
    expect(readBaseline("wrong.json", cwd)).toMatch(/is not a planspec baseline/);
  });
});
