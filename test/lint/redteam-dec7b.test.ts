/**
 * The shell reader's leftovers of 7 December (bench/README.md, "Left as rare" and "older than
 * these readings"): a parameter expansion's default handed to a shell, a substitution whose
 * output a shell, ssh or eval runs, a single-quoted `bash -c` read with variables the inner
 * shell does not see, a `system(` inside an awk string, a container's environment naming
 * production; and what the evening's red team found beside them. Every escape row failed at
 * 5b8fda5 (read as a read or as a write that destroys nothing); the reads and the production
 * left unnamed are hard negatives, and those marked "as before" held at 5b8fda5 and must stay.
 */
import { describe, expect, it } from "vitest";
import { commandEffects } from "../../src/lint/risk-shell.js";
import { commandVerdict as verdict } from "./step-risk.js";

/** The production each effect of a command line names, by what it is. */
const production = (command: string) => commandEffects(command).map((e) => [e.what, e.production]);

describe("awk's system( inside a string is printed, not called", () => {
  it.each([
    "awk '{ print \"system(\\\"rm\\\")\" }'",
    "awk 'BEGIN { print \"do not call system(\\\"rm -rf /x\\\") here\" }'",
    "awk '{ print \"system(\\\"rm -rf x\\\")\" }' f",
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });

  it.each(["awk 'BEGIN { system(\"rm -rf /x\") }'", "awk 'BEGIN { cmd = \"rm -rf /x\"; system(cmd) }'"])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  // An escape found beside it: the string's `system(` took the real call's text as its argument.
  it("awk '{ print \"system(\"; system(\"rm \" $1) }' f: a destructive write", () => {
    expect(verdict("awk '{ print \"system(\"; system(\"rm \" $1) }' f")).toEqual(["write", true]);
  });
});
