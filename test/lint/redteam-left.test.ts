/**
 * The five escapes bench/README.md listed as still left after 0b60ee6 (a here-string
 * concatenated from pieces, awk's system() with escapes in its string, `eval` hiding a
 * production variable, `docker run IMAGE rm -rf …` read as a write that destroys nothing,
 * sftp past five ssh hops), with their near kin found while closing them. Every escape row
 * (the first table of each block, and each production expectation) failed at 3b8a99e: read
 * as a read, as a write not destructive, or naming no production. The reads, the
 * non-destructive writes and the unnamed production are hard negatives that held at
 * 3b8a99e and must stay as they are.
 */
import { describe, expect, it } from "vitest";
import { commandEffects } from "../../src/lint/risk-shell.js";
import { runCommand } from "./step-risk.js";

const verdict = (command: string) => {
  const r = runCommand(command);
  return [r.risk, r.destructive];
};
const readVerdict = (command: string) => {
  const r = runCommand(command);
  return [r.risk, r.impacts];
};

describe("awk's system(): its string's escapes undone, strings side by side joined", () => {
  it.each([
    ["awk 'BEGIN { system(\"\\162m -rf /x\") }'", "write", true],
    ["awk 'BEGIN { system(\"\\x72m -rf /x\") }'", "write", true],
    ["awk '{ system(\"\\162m -rf \" $1) }' dirs.txt", "write", true],
    ["awk 'BEGIN { system(\"r\" \"m -rf /x\") }'", "write", true],
    // A command line built in a variable, and the shell a print is piped to, spelt with escapes.
    ["awk 'BEGIN { cmd = \"\\162m -rf /x\"; system(cmd) }'", "write", true],
    ["awk '{ print \"rm -rf \" $1 | \"\\163h\" }' dirs.txt", "write", true],
  ] as const)("%s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });

  it.each(["awk '{ system(\"ls\") }' f", "awk 'BEGIN { system(\"\\154s -l\") }'", "awk 'BEGIN { system(\"l\" \"s -l\") }'"])("reads: %s", (command) => {
    expect(readVerdict(command)).toEqual(["read", []]);
  });

  it("stays linear on long runs of strings and escapes in system()", () => {
    expect(commandEffects(`awk 'BEGIN { system(${'"a" '.repeat(30000)}) }'`)).toEqual([]);
    expect(commandEffects(`awk 'BEGIN { system("${"\\101".repeat(30000)}") }'`)).toEqual([]);
  });
});
