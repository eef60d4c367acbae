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

describe("R, julia and Tcl: the files their code removes and writes, a Tcl program on stdin", () => {
  it.each([
    `Rscript -e 'unlink("/data", recursive=TRUE)'`,
    `Rscript -e 'unlink("/data/x.csv")'`,
    `Rscript -e 'file.remove("x.csv")'`,
    `R -e 'unlink("x", recursive = TRUE)'`,
    `R --vanilla -e 'file.remove(list.files("/data", full.names=TRUE))'`,
    `Rscript -e 'fs::dir_delete("/data")'`,
    `R --no-save <<< 'unlink("/data", recursive=TRUE)'`,
    `Rscript -e 'system(paste("rm -rf", "/data"))'`,
    `julia -e 'rm("/data"; recursive=true)'`,
    `julia -e 'rm("/data", recursive=true, force=true)'`,
    `julia -e 'Base.Filesystem.rm("/data"; recursive=true)'`,
    "julia -e 'read(`rm -rf /data`, String)'",
    "julia -E 'success(`rm -rf /data`)'",
    `julia <<< 'rm("/data"; recursive=true)'`,
    `lua -e 'os.remove("/data/x")'`,
    "tclsh <<< 'file delete -force x'",
    "tclsh <<< 'exec rm -rf x'",
    "echo 'file delete -force /data' | tclsh",
    "printf 'puts 1\\nfile delete -force /data\\n' | tclsh",
    "wish <<< 'file delete -force x'",
    "expect -c 'file delete -force /data'",
    // Besides: the stores whose commands a pipe feeds (`redis-cli <<< FLUSHALL` was read before, the pipe was not).
    "echo 'FLUSHALL' | redis-cli",
    "echo 'db.dropDatabase()' | mongosh",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // As before.
    `Rscript -e 'system("rm -rf /data")'`,
    "julia -e 'run(`rm -rf /data`)'",
    "redis-cli <<< 'FLUSHALL'",
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    `Rscript -e 'writeLines("a", "x.txt")'`,
    `Rscript -e 'write.csv(df, "/data/out.csv")'`,
    `julia -e 'mkpath("/data/out")'`,
    "tclsh <<< 'file rename a b'",
  ])("%s: a write that destroys nothing", (command) => {
    expect(verdict(command)).toEqual(["write", false]);
  });

  it.each([
    `Rscript -e 'print(file.exists("x"))'`,
    `Rscript -e 'print(unlink)'`,
    `Rscript -e 'cat("unlink(x) would remove it")'`,
    `Rscript -e 'x <- read.csv("/data/a.csv"); print(summary(x))'`,
    `Rscript analysis.R <<< 'unlink("x")'`,
    "julia -e 'run(`ls`)'",
    `julia -e 'println(readdir("/data"))'`,
    `julia -e 'write(stdout, "hello")'`,
    `julia -e 'println("rm(x) is a call")'`,
    "tclsh <<< 'puts [glob *]'",
    "echo 'puts [file exists x]' | tclsh",
    "tclsh script.tcl <<< 'file delete x'",
    "echo 'GET k' | redis-cli",
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("vim's and ex's commands that write or delete, besides `:!`", () => {
  it.each([
    `vim -c ':call delete("x")' -c ':q'`,
    `vim -c 'call delete("/data", "rf")' -c q`,
    `nvim --headless -c 'call delete("x","rf")' -c q`,
    "ex -sc '%d|x' file",
    "vim -es +'%d' +'wq' file",
    "ex -s file <<< $'%d\\nwq'",
    "printf '%%d\\nwq\\n' | ex -s file",
    `vim -es -c 'call system("rm -rf /data")' -c q`,
    `vim -es -c 'exe "!rm -rf /data"' -c q`,
    "vim -es -c 'w|!rm -rf /data' file",
    "vim -c '%!rm -rf /data' file",
    "vim -es -c 'r !rm -rf /data' -c q file",
    `vim -es -c 'call system(g:cmd)' -c q`,
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // As before.
    "vim -es -c 'silent !rm -rf x' -c q",
    "vim -c ':!rm -rf /data' -c q",
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // Saving the buffer writes its file (or another: `w! /etc/x` overwrites it, as `cp` and `>` are read).
    "vim -es -c 'w! /etc/x' -c q",
    "vim -es -c '%s/a/b/g|wq' file",
    "ex -sc 'g/foo/d|x' file",
    "vim -c 'w /tmp/copy' -c 'q' file",
    `vim -es -c 'call writefile(["a"], "/etc/x")' -c q`,
    "ex -s file <<< $'%s/a/b/g\\nwq'",
  ])("%s: a write that destroys nothing", (command) => {
    expect(verdict(command)).toEqual(["write", false]);
  });

  it.each([
    "vim -c ':q' file",
    "vim -R -c ':q' file",
    "view file",
    "vim -es -c 'echo 1' -c 'q!' file",
    "ex -sc '%p|q' file",
    `vim -es -c 'echo "delete(x) w! /etc/x"' -c 'q!' file`,
    "vim -c ':!ls' -c q",
    "ex -s file <<< $'%p\\nq'",
    "vim -es -c 'g/foo/p' -c 'q!' file",
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});
