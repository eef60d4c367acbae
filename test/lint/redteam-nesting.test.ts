/**
 * Command lines nested past the depth the gate reads (five levels: `sh -c` in `sh -c`, ssh
 * hops quoted into one word, eval of eval). At 664f5d3 the sixth level was neither read nor
 * flagged: `rm -rf /x` six levels down passed as a read. Past the depth read, the text is
 * code the plan does not show: a destructive write, as `sh -c "$(…)"` is. Up to five
 * levels, what is read stays as it was (the hard negatives).
 */
import { describe, expect, it } from "vitest";
import { commandEffects } from "../../src/lint/risk-shell.js";
import { commandVerdict as verdict } from "./step-risk.js";

/** `inner` quoted into `levels` nested `sh -c '…'`, each level's quotes escaped for the next (POSIX: `'\''`). */
function nestedShells(inner: string, levels: number): string {
  let cmd = inner;
  for (let i = 0; i < levels; i++) cmd = `sh -c '${cmd.replace(/'/g, "'\\''")}'`;
  return cmd;
}
/** `inner` run through `levels` nested `eval "…"`, each level's quotes escaped for the next. */
function nestedEvals(inner: string, levels: number): string {
  let cmd = inner;
  for (let i = 0; i < levels; i++) cmd = `eval "${cmd.replace(/(["\\$`])/g, "\\$1")}"`;
  return cmd;
}

describe("command lines nested past the depth read", () => {
  it.each([
    ["six shells", nestedShells("rm -rf /x", 6)],
    ["eight shells", nestedShells("rm -rf /x", 8)],
    ["six evals", nestedEvals("rm -rf /x", 6)],
    ["seven shells around a read", nestedShells("ls /x", 7)],
  ])("%s: a destructive write (code the plan does not show)", (_name, command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    ["one shell around a read", nestedShells("ls /x", 1), "read", false],
    ["four shells around a read", nestedShells("ls /x", 4), "read", false],
    ["four shells around rm", nestedShells("rm -rf /x", 4), "write", true],
    ["four shells around a write", nestedShells("touch /x", 4), "write", false],
    ["three evals around a read", nestedEvals("ls /x", 3), "read", false],
  ] as const)("%s: read as before", (_name, command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });

  it("says why in the finding", () => {
    const effects = commandEffects(nestedShells("ls /x", 9));
    expect(effects.some((e) => e.destructive && /nested/.test(e.what))).toBe(true);
  });
});
