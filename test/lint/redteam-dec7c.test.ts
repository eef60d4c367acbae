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
    // The output of a command run as one, in quotes as without (`echo $($(cat cmd.txt))` was read so before).
    'echo "$("$(cat cmd.txt)")"',
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

describe("interpreter code: names by other routes, functions handed on as values, commands the code builds", () => {
  it.each([
    // Python.
    `python3 -c "from subprocess import run; run(['rm', '-rf', '/data'])"`,
    `python3 -c "from subprocess import call, run; call(['rm', '-rf', '/data'])"`,
    `python3 -c "import os; list(map(os.remove, ['a', 'b']))"`,
    `python3 -c "import shutil; list(map(shutil.rmtree, ['/a', '/b']))"`,
    `python3 -c "from pathlib import Path; list(map(Path.unlink, Path('/data').glob('*')))"`,
    `python3 -c "import os, sys; getattr(os, sys.argv[1])('x')" remove`,
    `python3 -c "import os, sys; os.system(sys.argv[1])" 'rm -rf /data'`,
    `python3 -c "import subprocess, sys; subprocess.run(sys.argv[1:])" rm -rf /data`,
    `python3 -c "import os; cmd = 'rm -rf /data'; os.system(cmd)"`,
    `python3 -c "import subprocess; args = ['rm', '-rf', '/data']; subprocess.run(args)"`,
    `python3 -c "import asyncio; asyncio.run(asyncio.create_subprocess_exec('rm', '-rf', '/data'))"`,
    `python3 -c "import asyncio; asyncio.run(asyncio.create_subprocess_shell('rm -rf /data'))"`,
    `python3 -c "import sh; sh.rm('-rf', '/data')"`,
    `python3 -c "from plumbum import local; local['rm']('-rf', '/data')"`,
    // Node, deno.
    `node -e "const cp = require('child_process'); cp.exec('rm -rf /data')"`,
    `node --input-type=module -e "import {execSync as e} from 'node:child_process'; e('rm -rf /data')"`,
    `node -e "require('fs').readdirSync('.').map(require('fs').unlinkSync)"`,
    `node -e "const fs = require('fs'); ['a', 'b'].forEach(fs.rmSync)"`,
    `node -e "require('child_process').execSync(process.argv[1])" 'rm -rf /data'`,
    `node -e "const fs = require('fs'); fs[process.argv[1]]('/data', {recursive: true})" rmSync`,
    `deno eval "Deno.removeSync('/data', {recursive: true})"`,
    `deno eval "await Deno.remove('/data', {recursive: true})"`,
    `deno eval "new Deno.Command('rm', {args: ['-rf', '/data']}).outputSync()"`,
    // Ruby.
    `ruby -e 'exec "rm -rf /data"'`,
    `ruby -e 'system "rm -rf /data"'`,
    `ruby -e 'require "open3"; Open3.capture2("rm -rf /data")'`,
    `ruby -e 'Open3.popen3("rm", "-rf", "/data") { }'`,
    `ruby -e 'require "pathname"; Pathname.new("/data").rmtree'`,
    `ruby -e 'FileUtils.send(:rm_rf, "/data")'`,
    `ruby -e 'FileUtils.public_send("rm_rf", "/data")'`,
    `ruby -e 'system(ARGV[0])' 'rm -rf /data'`,
    // Perl.
    `perl -e 'open(my $p, "|-", "rm", "-rf", "/data")'`,
    `perl -e 'open(my $p, "-|", "rm -rf /data"); print <$p>'`,
    `perl -e 'open(my $p, "rm -rf /data |"); print <$p>'`,
    `perl -e 'open(P, "| sh"); print P "rm -rf /data"'`,
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // As before, and now for what the string says: the code a name was given, run with exec.
    `python3 -c "code = 'import shutil; shutil.rmtree(\\'/data\\')'; exec(code)"`,
    `python3 -c "import sys; exec(sys.argv[1])" 'import shutil'`,
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // As before (the tables of earlier rounds, in these forms).
    `python3 -c "import shutil; getattr(shutil,'rmtree')('/data')"`,
    `python3 -c "__import__('os').system('rm -rf /data')"`,
    `python3 -c "import importlib; importlib.import_module('shutil').rmtree('/data')"`,
    `python3 -c "import subprocess; subprocess.run(['rm', '-rf', '/data'])"`,
    `python3 -c "import pathlib; pathlib.Path('/data/x').unlink()"`,
    `python3 -c "from shutil import rmtree as r; r('/data')"`,
    `node -e "require('child_process').execSync('rm -rf /data')"`,
    `node --input-type=module -e "import cp from 'child_process'; cp.execSync('rm -rf /data')"`,
    `node -e "require('fs').promises.rm('/data', {recursive: true})"`,
    `node -e "import('fs').then(fs => fs.rmSync('/data', {recursive: true}))"`,
    `ruby -e 'FileUtils.rm_rf Dir.glob("/data/*")'`,
    `ruby -e '\`rm -rf /data\`'`,
    `perl -e 'unlink glob "/data/*"'`,
    `perl -e 'system "rm -rf /data"'`,
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    `ruby -e 'File.truncate("x", 0)'`,
    `perl -e 'truncate "x", 0'`,
    `deno eval "Deno.writeTextFileSync('/etc/x', 'a')"`,
  ])("%s: a write that destroys nothing", (command) => {
    expect(verdict(command)).toEqual(["write", false]);
  });

  it.each([
    `python3 -c "from subprocess import run; run(['ls', '-l', '/data'])"`,
    `python3 -c "import os; cmd = 'ls /data'; os.system(cmd)"`,
    `python3 -c "import subprocess; args = ['git', 'status']; subprocess.run(args)"`,
    `python3 -c "from os import path; print(path.exists('x'))"`,
    `python3 -c "import os; print(list(map(os.path.basename, ['a/b'])))"`,
    `python3 -c "import os; print(getattr(os, 'sep'))"`,
    `node -e "const cp = require('child_process'); console.log(cp.execSync('git status').toString())"`,
    `node --input-type=module -e "import {readFileSync as r} from 'node:fs'; console.log(r('x', 'utf8'))"`,
    `node -e "console.log(require('fs').readdirSync('/data'))"`,
    `node -e "console.log(/x/.exec('x'))"`,
    `deno eval "console.log(Deno.readTextFileSync('x'))"`,
    `ruby -e 'puts File.read("x")'`,
    `ruby -e 'puts Open3.capture2("git status")[0]'`,
    `python3 -c "exec('import os; print(os.listdir())')"`,
    `perl -e 'open(my $p, "-|", "git", "status"); print <$p>'`,
    `perl -e 'print "unlink this\\n"'`,
    // False alarms at 0a4d1ea, read now as the reads they are: a pattern that names a call, a module's name after -M,
    // a file named like a mode, code exec'd from a name given a string.
    `perl -e 'open(my $f, "<", "x"); print <$f>'`,
    `perl -e 'open(my $f, "<", "a"); print <$f>'`,
    `python3 -c "code = 'print(1)'; exec(code)"`,
    `perl -ne 'print if /unlink/' file`,
    `perl -ne 'print if m/rmtree/' file`,
    `perl -MFile::Path -e 'print 1'`,
    `perl -Mstrict -e 'print 1'`,
    `perl -Ilib -e 'print 1'`,
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });

  it("perl's -i after switches that take nothing still edits in place", () => {
    expect(verdict("perl -pi -e 's/a/b/' f")).toEqual(["write", false]);
    expect(verdict("perl -0777 -ni -e 'print' f")).toEqual(["write", false]);
  });
});

describe("SQL: dynamic statements, rows a MERGE or a mutation deletes, ownership, BigQuery", () => {
  it.each([
    `psql -c "DO \\$\\$ BEGIN EXECUTE 'DR' || 'OP TABLE orders'; END \\$\\$"`,
    `psql -c "SELECT format('DROP TABLE %I', t) FROM tabs \\gexec"`,
    `psql app <<'SQL'\nSELECT format('DROP TABLE %I', tablename) FROM pg_tables WHERE schemaname = 'tmp' \\gexec\nSQL`,
    `psql -c "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE"`,
    `clickhouse-client -q 'ALTER TABLE t DELETE WHERE 1'`,
    `bq query 'DELETE FROM d.t WHERE true'`,
    `bq query --use_legacy_sql=false 'DROP TABLE d.t'`,
    `bq rm -f d.t`,
    `bq rm -r -f -d mydataset`,
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // As before.
    `psql -c 'TRUNCATE TABLE orders CASCADE'`,
    `psql -c 'DROP TABLE orders CASCADE'`,
    `psql -c 'WITH d AS (DELETE FROM orders RETURNING *) SELECT count(*) FROM d'`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE format('DROP TABLE %I', 'orders'); END \\$\\$"`,
    `psql -c "COPY orders TO PROGRAM 'rm -rf /data'"`,
    `psql -c 'ALTER TABLE orders DROP COLUMN total'`,
    `mysql -e 'TRUNCATE orders'`,
    `sqlite3 app.db '.shell rm -rf /data'`,
    `sqlite3 app.db '.system rm -rf /data'`,
    `psql -f cleanup.sql`,
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    `psql -c 'REASSIGN OWNED BY app TO admin'`,
    `psql -c "SELECT format('VACUUM %I', t) FROM tabs \\gexec"`,
    `psql -c "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v"`,
    `clickhouse-client -q 'ALTER TABLE t UPDATE v = 1 WHERE id = 2'`,
    `bq cp d.a d.b`,
  ])("%s: a write that destroys nothing", (command) => {
    expect(verdict(command)).toEqual(["write", false]);
  });

  it.each([
    `psql -c "SELECT 'a' || 'b'"`,
    `psql -c "SELECT 'DR' || 'OP TABLE x' AS s"`,
    `psql -c "SELECT count(*) FROM t" -c '\\gset'`,
    `bq query 'SELECT count(*) FROM d.t'`,
    `bq query --use_legacy_sql=false 'SELECT 1'`,
    `bq ls d`,
    `bq show d.t`,
    `clickhouse-client -q 'SELECT * FROM t WHERE note = $$DELETE$$'`,
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("time: the new scans stay linear on 100k characters", () => {
  /**
   * `command`'s effects, read in less than ten seconds: a guard against a path that grows with the square of the
   * input (minutes at this size), not a speed figure. Each input is 60,000 to 140,000 characters and takes at most
   * ≈ 0.2 s on an idle 2-core machine (bench/README.md, "wrapper chains, interpreter code and SQL").
   */
  const timed = (command: string) => {
    const t0 = performance.now();
    const effects = commandEffects(command);
    expect(performance.now() - t0).toBeLessThan(10_000);
    return effects.map((e) => e.what);
  };

  it("wrapper chains, quoted substitutions, ex commands, foreign code, pipes to readers, code and SQL", () => {
    expect(timed(`${"nice -n 5 ".repeat(10000)}$(echo ls)`)).toEqual([]);
    expect(timed(`${"chroot /x timeout 5 ".repeat(6000)}$(echo ls)`)).toEqual([]);
    expect(timed(`${'"$(echo a)" '.repeat(10000)}`)).toEqual([]);
    expect(timed(`ex -sc '${"w|".repeat(40000)}' f`).every((w) => w === "`vim w`")).toBe(true);
    expect(timed(`ex -sc '${"!ls\\n".repeat(20000)}' f`)).toEqual([]);
    expect(timed(`ex -sc '${'echo "|'.repeat(20000)}' f`)).toEqual([]);
    expect(timed(`vim -c '${'exe "'.repeat(20000)}' f`)).toEqual([]);
    expect(timed(`Rscript -e '${"unlink(".repeat(20000)}'`)).toHaveLength(20000);
    expect(timed(`Rscript -e '${'"a'.repeat(30000)}'`)).toEqual([]);
    expect(timed(`tclsh <<< '${"file delete x;".repeat(8000)}'`)).toHaveLength(8000);
    expect(timed(`${"echo 'a' | ".repeat(8000)}tclsh`)).toEqual([]);
    expect(timed(`${"| a ".repeat(20000)}`)).toEqual([]);
    expect(timed(`python3 -c "${"x = 1; os.system(x);".repeat(4000)}"`)).toHaveLength(1);
    expect(timed(`python3 -c "${"x = 'ls'; os.system(x);".repeat(3000)}"`)).toEqual([]);
    expect(timed(`python3 -c "${"from subprocess import run; ".repeat(4000)}"`)).toEqual([]);
    expect(timed(`node -e "${"import {a as b} from 'fs'; ".repeat(3000)}"`)).toEqual([]);
    expect(timed(`perl -e '${'open(P, "| a"); '.repeat(5000)}'`)).toEqual([]);
    expect(timed(`psql -c "DO \\$\\$ ${"EXECUTE 'a' || 'b'; ".repeat(5000)} \\$\\$"`)).toHaveLength(1);
  });
});
