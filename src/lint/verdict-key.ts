/**
 * The key of a lint verdict on a run's recorded plan, apart from the linter so a resume
 * that finds the verdict still standing never loads the rules.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { planspecVersion } from "../util/version.js";

/** Whether a plan file is compiled IR (`*.ir.json`) rather than DSL. */
export function isIRFile(file: string): boolean {
  return /\.ir\.json$/i.test(file);
}

/**
 * What a recorded plan's verdict depends on: planspec's version (its rules), the plan
 * (its hash) and the bytes of the plan file it was started from (its suppressions), or
 * `ir` when there is none to read.
 */
export function verdictKey(planHash: string, planFile: string | undefined, cwd = process.cwd()): string {
  let source = "ir";
  if (planFile !== undefined && !isIRFile(planFile)) {
    try {
      source = createHash("sha256").update(readFileSync(resolve(cwd, planFile))).digest("hex");
    } catch {
      // The plan file is gone: the recorded IR is what gets linted.
    }
  }
  return `${planspecVersion()} ${planHash} ${source}`;
}

/**
 * For `resumeRun`'s `gateStands`: the recorded gate still holds (or the run was started
 * with the gate overridden), so resuming needs no lint.
 */
export function verdictStands(cwd = process.cwd()): (planHash: string, recorded: string | undefined, config: { lintGate?: boolean; planFile?: string }) => boolean {
  return (planHash, recorded, config) => config.lintGate === false || (recorded !== undefined && recorded === verdictKey(planHash, config.planFile, cwd));
}
