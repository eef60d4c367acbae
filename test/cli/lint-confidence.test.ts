/** `planspec lint` findings carry a confidence (JSON, SARIF, text) and `--min-confidence` filters on it. */
import { describe, expect, it } from "vitest";
import { cli } from "../helpers.js";

const REFUNDS = "specs/lint/err/high-impact-without-approval-bulk-refunds.plan.yaml";

describe("planspec lint --min-confidence", () => {
  it("JSON findings carry confidence: verb inference is medium, structure high", () => {
    const r = cli(["lint", REFUNDS, "--format", "json"]);
    expect(r.status).toBe(1);
    const found = (JSON.parse(r.stdout) as Array<{ code: string; confidence: string }>).map((d) => `${d.code} ${d.confidence}`);
    expect(found).toEqual([
      "high-impact-without-approval medium",
      "side-effect-without-idempotency-key medium",
      "risk-under-labelled medium",
    ]);
    const structural = JSON.parse(cli(["lint", "specs/lint/err/excessive-bound.plan.yaml", "--format", "json"]).stdout) as Array<{ confidence: string }>;
    expect(structural.map((d) => d.confidence)).toEqual(["high", "high", "high", "high"]);
  });

  it("filters findings below the level, and the exit code follows what is left", () => {
    const r = cli(["lint", REFUNDS, "--format", "json", "--min-confidence", "high"]);
    // Every error of this plan rests on the tool's name: a team that gates on facts only passes it.
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.status).toBe(0);
    const medium = cli(["lint", REFUNDS, "--format", "json", "--min-confidence", "medium"]);
    expect([JSON.parse(medium.stdout).length, medium.status]).toEqual([3, 1]);
  });

  it("SARIF results carry properties.confidence; text marks findings below high", () => {
    const sarif = JSON.parse(cli(["lint", REFUNDS, "--format", "sarif"]).stdout);
    expect(sarif.runs[0].results.map((x: { properties: { confidence: string } }) => x.properties.confidence)).toEqual(["medium", "medium", "medium"]);
    const text = cli(["lint", REFUNDS]).stdout;
    expect(text).toContain("[high-impact-without-approval] (medium confidence)");
    expect(cli(["lint", "specs/lint/err/excessive-bound.plan.yaml"]).stdout).not.toContain("confidence)");
  });

  it("rejects an unknown level with one line and exit 2", () => {
    const r = cli(["lint", REFUNDS, "--min-confidence", "sure"]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('planspec: --min-confidence expects high, medium or low, got "sure"');
  });
});
