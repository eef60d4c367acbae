/**
 * `renderEvalHtml`: an eval score (and a baseline) written as HTML and opened in headless
 * Chromium: the scores with deltas, one row per case, and the per-case drill-down.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarise, type CaseScore, type SuiteScore } from "../../src/eval/score.js";
import { renderEvalHtml } from "../../src/report/eval-html.js";
import { tempDir } from "../runtime/helpers.js";
import { Browser, SKIP_BROWSER, screenshot, screenshotDir } from "./browser.js";

function caseScore(id: string, over: Partial<CaseScore>): CaseScore {
  return {
    id,
    plan: `plans/${id}.plan.yaml`,
    status: "ok",
    problems: [],
    coverage: 1,
    uncovered: [],
    forbidden: [],
    redundancy: 0,
    duplicates: [],
    dead: [],
    nodeF1: 1,
    edgeF1: 1,
    node: { tp: 3, fp: 0, fn: 0 },
    edge: { tp: 2, fp: 0, fn: 0 },
    riskAccuracy: 1,
    mislabelled: [],
    lintPass: true,
    lintErrors: [],
    hallucinated: [],
    ...over,
  };
}

function suite(cases: CaseScore[]): SuiteScore {
  return { suite: "code-fixes", cases, summary: summarise(cases) };
}

let browser: Browser;
beforeAll(async () => {
  if (!SKIP_BROWSER) browser = await Browser.launch();
});
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(SKIP_BROWSER)("renderEvalHtml", () => {
  it("shows the scores with deltas against a baseline and drills down into each case", async () => {
    const now = suite([
      caseScore("fix-login", {}),
      caseScore("triage-<b>x</b>", {
        coverage: 0.5,
        uncovered: ["verify:exec -> output tests"],
        redundancy: 0.25,
        duplicates: [{ step: "read_again", of: "read_log" }],
        dead: ["peek"],
        lintPass: false,
        lintErrors: ["write-without-evidence"],
        mislabelled: [{ step: "deploy", declared: "read", required: "external" }],
      }),
      caseScore("missing-one", { status: "missing", plan: undefined, coverage: 0, uncovered: ["read:fs.read"], redundancy: null, nodeF1: null, edgeF1: null, node: undefined, edge: undefined, riskAccuracy: null, lintPass: false }),
    ]);
    const before = suite([caseScore("fix-login", {}), caseScore("triage-<b>x</b>", { coverage: 1 }), caseScore("missing-one", { coverage: 0.5, redundancy: 0.5 })]);
    const file = join(tempDir("planspec-eval-html-"), "eval.html");
    writeFileSync(file, renderEvalHtml(now, { baseline: before }));
    const { page, errors, requests } = await browser.open(file);
    await screenshot(page, join(screenshotDir(), "eval.png"));

    const rows = await page.$$eval("table.summary-table tbody tr", (trs) => Object.fromEntries(trs.map((tr) => [tr.getAttribute("data-metric"), [...tr.children].map((td) => td.textContent)])));
    expect(rows.coverage).toEqual(["coverage", "0.500", "0.833", "−0.333 ▼"]);
    expect(rows.lint_pass![3]).toBe("−0.667 ▼");
    const redundancyDelta = await page.$eval('tr[data-metric="redundancy"] td:last-child', (td) => ({ text: td.textContent, cls: td.className }));
    // 0.125 now (mean of the scored plans) against 0.167: lower redundancy is better.
    expect(redundancyDelta).toEqual({ text: "−0.042 ▲", cls: "num delta-up" });

    expect(await page.$$eval("tr.case-row", (trs) => trs.map((t) => t.getAttribute("data-case")))).toEqual(["fix-login", "triage-<b>x</b>", "missing-one"]);
    expect(await page.$$eval("main b", (b) => b.length)).toBe(0);
    const triage = await page.$eval('[id="case-triage-<b>x</b>"]', (d) => ({ open: (d as HTMLDetailsElement).open, text: d.textContent }));
    expect(triage.open).toBe(true);
    expect(triage.text).toContain("Required steps missed (1)verify:exec -> output tests");
    expect(triage.text).toContain("read_again repeats read_log");
    expect(triage.text).toContain("Dead steps (output unused) (1)peek");
    expect(triage.text).toContain("deploy: declared read, needs external");
    expect(triage.text).toContain("write-without-evidence");
    expect(triage.text).toContain("coverage was 1.000 in the baseline");
    const fine = await page.$eval("#case-fix-login", (d) => ({ open: (d as HTMLDetailsElement).open, text: d.textContent }));
    expect(fine.open).toBe(false);
    expect(fine.text).toContain("nothing missed, redundant or mislabelled");
    expect(await page.$eval("#case-missing-one", (d) => d.textContent)).toContain("No plan for this case");
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
  });

  it("leaves out the baseline columns without a baseline", async () => {
    const file = join(tempDir("planspec-eval-html-"), "eval.html");
    writeFileSync(file, renderEvalHtml(suite([caseScore("only", {})])));
    const { page, errors } = await browser.open(file);
    expect(await page.$$eval("table.summary-table thead th", (th) => th.map((t) => t.textContent))).toEqual(["metric", "value"]);
    expect(await page.$eval('tr[data-metric="coverage"]', (tr) => tr.textContent)).toBe("coverage1.000");
    expect(errors).toEqual([]);
  });
});
