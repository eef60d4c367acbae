/**
 * The tests every held-out lint corpus gets (specs/lint/holdout*): its shape, that every
 * plan compiles, that labels name real rules and steps, that the CLI's gate agrees with the
 * in-process scorer, and that the score stays within the corpus's floors. Each
 * holdout*.test.ts keeps its own floors and their history; this is the rest.
 */
import { describe, expect, it } from "vitest";
import { registeredRules } from "../../src/lint/engine.js";
import { type Floors, belowFloors, cliDisagreements, labelProblems, loadCorpus, renderReport, runCorpus, writeReport } from "./corpus.js";

export interface HeldOut {
  /** "the second held-out corpus". */
  title: string;
  dir: string;
  floors: Floors;
  /** The variable that makes the run also write the report: PLANSPEC_HOLDOUT2_REPORT. */
  reportEnv: string;
  /** Cases whose gate the CLI must give as the scorer does: an escape, a revision case, a hard negative. */
  cliCases: readonly string[];
  /** Corpora whose domains this one must not repeat. */
  newDomainsAgainst?: readonly string[];
  /** The corpus's make-up, when not the usual 15 blocked, 9 good, at least 4 revision pairs. */
  shape?: { blocked: number; good: number; revisionPairs: number };
}

export function heldOutSuite(h: HeldOut): void {
  const { linted, score } = runCorpus(h.dir);
  const report = renderReport(score, h.dir);
  const out = process.env[h.reportEnv];
  if (out) writeReport(out, score, linted, h.dir);

  describe(h.title, () => {
    const cases = loadCorpus(h.dir);

    const shape = h.shape ?? { blocked: 15, good: 9, revisionPairs: 4 };
    it(`has 24 plans: ${shape.blocked} a reviewer blocks, ${shape.good} good ones, at least ${shape.revisionPairs} revision pairs, at least 10 domains`, () => {
      expect(cases.length).toBe(24);
      expect(cases.filter((c) => c.gate === "fail").length).toBe(shape.blocked);
      expect(cases.filter((c) => c.gate === "pass").length).toBe(shape.good);
      expect(cases.filter((c) => c.original).length).toBeGreaterThanOrEqual(shape.revisionPairs);
      expect(new Set(cases.map((c) => c.domain)).size).toBeGreaterThanOrEqual(10);
    });

    if (h.newDomainsAgainst?.length) {
      it(`uses no domain of ${h.newDomainsAgainst.join(", ")}`, () => {
        const earlier = new Set(h.newDomainsAgainst!.flatMap((d) => loadCorpus(d)).map((c) => c.domain));
        expect(cases.map((c) => c.domain).filter((d) => earlier.has(d))).toEqual([]);
      });
    }

    it("compiles every plan and original without a diagnostic", () => {
      expect(linted.flatMap((l) => l.compileProblems)).toEqual([]);
    });

    it("labels only registered rule ids, and only steps the plans have", () => {
      expect(labelProblems(cases, new Set(registeredRules().map((r) => r.id)))).toEqual([]);
    });

    it("gives the same gate in process as the CLI does (an escape, a revision case, a hard negative)", () => {
      expect(cliDisagreements(linted, h.cliCases)).toEqual([]);
    });
  });

  describe(`${h.title}: score`, () => {
    it("prints the figures", () => {
      // The report is the point of these files: vitest shows it with the run.
      console.log(report);
      expect(score.cases).toBe(24);
    });

    it("stays within the floors: precision, recall (overall and per family), gate accuracy, escapes, false blocks", () => {
      expect(belowFloors(score, h.floors)).toEqual([]);
    });
  });
}
