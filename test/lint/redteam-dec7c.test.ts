/**
 * The gate's leftovers of 7 December, late evening (bench/README.md, "The gate: wrapper chains, interpreter code
 * and SQL"): a wrapper's option value looked up only in the first wrapper's table (`nice -n 5 sudo -u root $(echo rm)
 * -rf x`), what R, julia, Tcl and vim's ex commands do besides running a command line, and a red team of the
 * interpreter-code and SQL readers in forms the earlier tables do not hold. Every escape row failed at 0a4d1ea (read
 * as a read or as a write that destroys nothing) unless marked "as before"; the reads are hard negatives and must stay.
 */
import { describe, expect, it } from "vitest";
import { commandEffects } from "../../src/lint/risk-shell.js";
import { commandVerdict as verdict } from "./step-risk.js";

describe("a chain of wrappers: each option's value by its own wrapper's table", () => {
  it.each([
    "nice -n 5 sudo -u root $(echo rm) -rf x",
    "timeout 5 sudo -u root $(echo rm) -rf x",
    "timeout -s KILL 5 sudo -u root $(echo rm) -rf x",
    "timeout --signal=KILL 5s nice $(echo rm) -rf x",
    "env -i sudo -g wheel $(echo rm) -rf x",
    "nice -n 5 ionice -c 3 $(echo rm) -rf x",
    "timeout 5 nice -n 5 $(echo rm) -rf x",
    "env -i nice -n 5 $(echo rm) -rf x",
    "sudo -u root nice -n 5 $(echo rm) -rf x",
    "stdbuf -o0 sudo -u root $(echo rm) -rf x",
    "nice -n 5 doas -u root $(echo rm) -rf x",
    "nice -n 5 sudo -u root `echo rm` -rf x",
    "timeout 5 sudo -u root $(printf rm) -rf x",
    // The wrappers that take an operand before the command: chroot's directory, flock's lock file, a mask, a priority.
    "chroot /x sudo -u root $(echo rm) -rf x",
    "chroot /srv/x $(echo rm) -rf x",
    "flock /tmp/l $(echo rm) -rf x",
    "taskset -c 0 $(echo rm) -rf x",
    "chrt -f 10 $(echo rm) -rf x",
    // A substitution alone in double quotes still stands in the command's place.
    '"$(echo rm)" -rf x',
    'sudo "$(echo rm)" -rf x',
    'nice -n 5 sudo -u root "$(echo rm)" -rf x',
    // Output the plan does not show, in the command's place behind a chain.
    "timeout 5 sudo -u root $(cat cmd.txt) x",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // As before.
    "env -i sudo -E $(echo rm) -rf x",
    "sudo -u root $(echo rm) -rf x",
    "nice -n 5 sudo -u root rm -rf x",
    "ionice -c 3 nice -n 5 $(echo rm) -rf x",
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    "nice -n 5 sudo -u root $(echo ls) -l x",
    'nice -n 5 sudo -u root "$(echo ls)" -l x',
    "timeout 5 $(which python3) x.py",
    "timeout 5 $(echo ls) -l",
    'echo "$(echo rm)" -rf x',
    'x="$(echo rm)"; echo "$x"',
    "chroot /x $(echo ls)",
    'nice -n 5 echo "$(date)"',
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});
