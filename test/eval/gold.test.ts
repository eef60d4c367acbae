/**
 * The suites' gold plans score perfectly, and a plan with one deliberate flaw scores
 * lower on the metric that flaw is about.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { compileSource } from "../../src/compiler/index.js";
import { type CaseScore, compileGold, scoreCase, scoreSuite } from "../../src/eval/score.js";
import { loadSuite, type Suite } from "../../src/eval/suite.js";

const ROOT = join(import.meta.dirname, "../..");
const SUITES = ["csv-data-analysis", "code-change", "approval-workflow", "research-summary", "dailylifeapis"];

function suite(name: string): Suite {
  const r = loadSuite(`evals/${name}.suite.yaml`, ROOT);
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
  return r.suite;
}

describe.each(SUITES)("the gold plans of %s", (name) => {
  it("score coverage 1, redundancy 0, F1 1, risk accuracy 1 and pass lint", async () => {
    const s = suite(name);
    const score = await scoreSuite(s, join(ROOT, "evals", name, "gold"), { cwd: ROOT });
    for (const c of score.cases) {
      expect({ id: c.id, status: c.status, coverage: c.coverage, redundancy: c.redundancy, lint: c.lintErrors, forbidden: c.forbidden, hallucinated: c.hallucinated }).toEqual({
        id: c.id, status: "ok", coverage: 1, redundancy: 0, lint: [], forbidden: [], hallucinated: [],
      });
    }
    expect(score.summary).toMatchObject({ coverage: 1, redundancy: 0, node_f1: 1, edge_f1: 1, risk_accuracy: 1, lint_pass: 1 });
  });
});

type Doc = { steps: Record<string, Record<string, unknown>> };

/** Scores a variant of a case's gold plan made by `mutate`, next to the gold plan's own score. */
function flawed(suiteName: string, caseId: string, mutate: (doc: Doc) => void): { gold: CaseScore; bad: CaseScore } {
  const s = suite(suiteName);
  const c = s.cases.find((x) => x.id === caseId)!;
  const goldResult = compileGold(c, ROOT)!;
  const doc = parse(readFileSync(c.gold!, "utf8")) as Doc;
  mutate(doc);
  const result = compileSource(c.gold!.replace(/\.plan\.yaml$/, ".flawed.plan.yaml"), stringify(doc), { cwd: ROOT });
  expect(result.ir, JSON.stringify(result.diagnostics.map((d) => d.message))).toBeDefined();
  return { gold: scoreCase(s, c, goldResult, goldResult.ir), bad: scoreCase(s, c, result, goldResult.ir) };
}

describe("a deliberately flawed plan scores lower", () => {
  it("a missing step lowers coverage (and node F1)", () => {
    const { gold, bad } = flawed("csv-data-analysis", "anomalous-orders", (doc) => {
      delete doc.steps.validate;
      doc.steps.filter!.needs = ["load"];
      doc.steps.filter!.with = { load: "${{ steps.load.output }}" };
    });
    expect(bad.coverage).toBeLessThan(gold.coverage);
    expect(bad.uncovered).toContain("validate: tool=data.validate");
    expect(bad.nodeF1!).toBeLessThan(1);
  });

  it("a duplicate step raises redundancy", () => {
    const { gold, bad } = flawed("code-change", "fix-null-check", (doc) => {
      doc.steps.find_again = { ...doc.steps.find!, goal: "Find it once more", output: "find_again_out" };
    });
    expect(gold.redundancy).toBe(0);
    expect(bad.redundancy!).toBeGreaterThan(0);
    expect(bad.duplicates).toEqual([{ step: "find_again", of: "find" }]);
  });

  it("a mislabelled risk lowers risk-label accuracy (and fails lint)", () => {
    const { gold, bad } = flawed("approval-workflow", "pay-invoice", (doc) => {
      doc.steps.pay!.risk = "write";
    });
    expect(gold.riskAccuracy).toBe(1);
    expect(bad.riskAccuracy!).toBeLessThan(1);
    expect(bad.mislabelled).toEqual([{ step: "pay", declared: "write", required: "external" }]);
    expect(bad.lintErrors).toContain("risk-under-labelled");
  });

  it("an unkeyed side effect fails lint (the recovery test shows it repeating)", () => {
    const { gold, bad } = flawed("approval-workflow", "pay-invoice", (doc) => {
      delete doc.steps.remit!.idempotency_key;
    });
    expect(gold.lintPass).toBe(true);
    expect(bad.lintPass).toBe(false);
    expect(bad.lintErrors).toContain("side-effect-without-idempotency-key");
  });

  it("a dailylifeapis booking without its key or gate, or labelled write, is caught", () => {
    const unkeyed = flawed("dailylifeapis", "flight-email-doctor-30531459", (doc) => {
      delete doc.steps.book_flight!.idempotency_key;
      delete doc.steps.book_flight!.approval;
    });
    expect(unkeyed.gold.lintPass).toBe(true);
    expect(unkeyed.bad.lintErrors).toContain("side-effect-without-idempotency-key");
    const mislabelled = flawed("dailylifeapis", "pay-card-3456-14021300", (doc) => {
      doc.steps.pay_card!.risk = "write";
    });
    expect(mislabelled.bad.mislabelled).toEqual([{ step: "pay_card", declared: "write", required: "external" }]);
  });

  it("a forbidden step is reported", () => {
    const { gold, bad } = flawed("code-change", "fix-null-check", (doc) => {
      doc.steps.open_pr = { kind: "external", goal: "Open a pull request", needs: ["test"], tool: "pr.open", risk: "external", idempotency_key: "k", output: "pr" };
    });
    expect(gold.forbidden).toEqual([]);
    expect(bad.forbidden).toEqual(["tool=pr.open"]);
  });
});
