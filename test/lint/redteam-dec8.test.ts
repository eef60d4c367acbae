/**
 * The gate's leftovers of 7 December, late evening (bench/README.md, "The gate: wrapper chains, interpreter code and
 * SQL", "Left (not closed)"): SQL built from pieces that are not literals, a program run through node's internal
 * bindings, a shell given code on a pipe (perl's `open(P, "| sh")`, Tcl's `open "|…"`, `IO.popen("sh", "w")`), a
 * program and its argument vector (`system2("find", c(…))`, `execFileSync("find", […])`), R's `do.call`, vim scripts
 * by name, and sudo's env_reset. Every escape row failed at 61095c6 (read as a read or as a write that destroys
 * nothing) unless marked "as before"; the reads and the writes that destroy nothing are hard negatives and must stay.
 */
import { describe, expect, it } from "vitest";
import { commandEffects } from "../../src/lint/risk-shell.js";
import { commandVerdict as verdict, runSql } from "./step-risk.js";

describe("SQL built from pieces that are not literals: code the plan does not show", () => {
  it.each([
    `psql -c "DO \\$\\$ BEGIN EXECUTE chr(68) || 'ROP TABLE t'; END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE concat('DR', 'OP TABLE t'); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE reverse('t ELBAT PORD'); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE format('%s', current_setting('app.q')); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE v_sql; END \\$\\$"`,
    `psql -c "DO \\$\\$ DECLARE q text := chr(68) || 'ROP TABLE t'; BEGIN EXECUTE q; END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE 'DR' || chr(79) || 'P TABLE t'; END \\$\\$"`,
    `sqlcmd -Q "EXEC('DR' + 'OP TABLE t')"`,
    `sqlcmd -Q "EXECUTE ('DR' + 'OP DATABASE app')"`,
    `sqlcmd -Q "EXEC(CHAR(68) + 'ROP TABLE t')"`,
    `sqlcmd -Q "DECLARE @s nvarchar(100) = 'DR' + 'OP TABLE t'; EXEC(@s)"`,
    `sqlcmd -Q "EXEC sp_executesql @q"`,
    `mysql -e "PREPARE s FROM CONCAT('DR', 'OP TABLE t'); EXECUTE s"`,
    `mysql -e "SET @q = CONCAT('DR','OP TABLE t'); PREPARE s FROM @q; EXECUTE s"`,
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it("through a SQL tool too", () => {
    expect(runSql("DO $$ BEGIN EXECUTE chr(68) || 'ROP TABLE t'; END $$")).toMatchObject({ risk: "write", destructive: true });
    expect(runSql("EXEC(CHAR(68) + 'ROP TABLE t')")).toMatchObject({ risk: "write", destructive: true });
    expect(runSql("DO $$ BEGIN EXECUTE 'SELECT 1'; END $$")).toMatchObject({ risk: "write", destructive: false });
  });

  it.each([
    // As before: the pieces are literals, joined by `||`; a statement named whole.
    `psql -c "DO \\$\\$ BEGIN EXECUTE format('DR' || 'OP TABLE %I', t); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE 'DELETE FROM ' || quote_ident(t); END \\$\\$"`,
    `mysql -e "PREPARE s FROM 'DROP TABLE t'; EXECUTE s"`,
    `sqlcmd -Q "EXEC sp_executesql N'DROP TABLE t'"`,
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // A block or EXECUTE whose statement is shown, and starts with a verb that does not destroy: as before, a write.
    `psql -c "DO \\$\\$ BEGIN EXECUTE 'SELECT 1'; END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE 'VACUUM ' || quote_ident(t); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE format('ANALYZE %I', t); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE 'SELECT count(*) FROM ' || quote_ident(t) INTO n; END \\$\\$"`,
    `psql -c "DO \\$\\$ DECLARE q text := 'SELECT 1'; BEGIN EXECUTE q; END \\$\\$"`,
    `sqlcmd -Q "DECLARE @s nvarchar(100) = 'SELECT ' + '1'; EXEC(@s)"`,
    `mysql -e "PREPARE s FROM 'SELECT 1'; EXECUTE s"`,
    `mysql -e "SET @q = 'SELECT 1'; PREPARE s FROM @q; EXECUTE s"`,
    `psql -c "EXECUTE my_plan(1)"`,
  ])("%s: a write that destroys nothing (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", false]);
  });

  it.each([
    // A statement given whole as a literal is that statement (a write, which destroyed nothing, at 61095c6).
    `sqlcmd -Q "EXEC('SELECT 1')"`,
    `psql -c "EXECUTE 'SELECT 1'"`,
    `sqlcmd -Q "EXEC sp_executesql N'SELECT name FROM sys.tables'"`,
    `sqlcmd -Q "EXEC('SELECT ''a''')"`,
  ])("%s: a read (was a write)", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });

  it.each([
    `sqlcmd -Q "EXEC('UPDATE t SET a = 1 WHERE id = 2')"`,
    `sqlcmd -Q "EXEC('SELECT 1'"`,
  ])("%s: a write that destroys nothing", (command) => {
    expect(verdict(command)).toEqual(["write", false]);
  });

  it.each([
    `sqlcmd -Q "EXEC('SELECT 1; DROP TABLE t')"`,
    `psql -c "EXECUTE 'DELETE FROM t'"`,
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    `psql -c "SELECT chr(68) || 'ROP TABLE t'"`,
    `psql -c "SELECT concat('DR', 'OP TABLE t')"`,
    `sqlcmd -Q "SELECT 'DR' + 'OP TABLE t'"`,
    `mysql -e "SELECT CONCAT('a', 'b')"`,
    `sqlcmd -Q "EXEC sp_helpdb"`,
    `sqlcmd -Q "EXEC dbo.usp_get_orders @id = 1"`,
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("node: a program run through its internal bindings or ChildProcess", () => {
  it.each([
    `node -e "process.binding('spawn_sync').spawn({file: '/bin/sh', args: ['sh', '-c', 'rm -rf /data'], stdio: []})"`,
    `node -e "const run = process._linkedBinding('spawn_sync').spawn; run(o)"`,
    `node -e "const P = process.binding('process_wrap').Process; new P().spawn({file: 'sh', args: ['sh', '-c', 'rm -rf /data']})"`,
    `node -e "const {ChildProcess} = require('child_process'); new ChildProcess().spawn({file: 'sh', args: ['sh', '-c', 'rm -rf /data'], stdio: []})"`,
    `node -e "new (require('child_process').ChildProcess)().spawn({file: 'find', args: ['find', '.', '-delete'], stdio: []})"`,
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // As before (a call named spawn, its first string the program).
    `node -e "const {spawn: s} = process.binding('spawn_sync'); s({file: 'rm', args: ['rm', '-rf', '/data'], stdio: []})"`,
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    `node -e "console.log(process.binding('fs'))"`,
    `node -e "console.log(process.versions.node)"`,
    `node -e "console.log(typeof process.binding)"`,
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("a program and its argument vector; a shell given its code on a pipe", () => {
  it.each([
    // The program's arguments after it, as strings or a list (only the program was read).
    `node -e "require('child_process').execFileSync('find', ['.', '-delete'])"`,
    `node -e "require('child_process').spawnSync('sh', ['-c', 'rm -rf /data'])"`,
    `node -e "require('child_process').spawn('bash', ['-c', 'rm -rf /data'])"`,
    `ruby -e 'system("find", ".", "-delete")'`,
    `perl -e 'system("find", ".", "-delete")'`,
    // A shell with nothing to run but what the code writes to it.
    `perl -e 'open(my $p, "|-", "sh"); print $p "rm -rf /data"'`,
    `perl -e "open(my \\$p, '|-', 'bash -s'); print \\$p 'rm -rf /data'"`,
    `perl -e 'open(my $p, "|-", "/bin/sh", "-s"); print $p "rm -rf /data"'`,
    `perl -e 'open P, "| sh"; print P "rm -rf /data"'`,
    `ruby -e 'IO.popen("sh", "w") { |p| p.puts "rm -rf /data" }'`,
    `ruby -e 'IO.popen(["bash"], "w") { |p| p.write "rm -rf /data" }'`,
    `python3 -c "import os; os.popen('sh', 'w').write('rm -rf /data')"`,
    `python3 -c "import subprocess; p = subprocess.Popen('bash', stdin=subprocess.PIPE); p.communicate(b'rm -rf /data')"`,
    `node -e "require('child_process').spawn('sh').stdin.end('rm -rf /data')"`,
    `php -r '$p = popen("sh", "w"); fwrite($p, "rm -rf /data");'`,
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // As before.
    `perl -e 'open(P, "| sh"); print P "rm -rf /data"'`,
    `perl -e 'open(P, "|/bin/sh -s") or die; print P "rm -rf /data"'`,
    `python3 -c "import subprocess; subprocess.run(['sh'], input=b'rm -rf /data')"`,
    `node -e "require('child_process').execFileSync('rm', ['-rf', '/data'])"`,
    `awk 'BEGIN { print "rm -rf /data" | "sh" }'`,
    `awk '{ print | "sh" }' f`,
    `awk 'BEGIN { "rm -rf /data" | getline }'`,
    `awk 'BEGIN { print "rm -rf /data" |& "sh" }'`,
    `awk 'BEGIN { cmd = "sh"; print "rm -rf /data" | cmd }'`,
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    `perl -e 'open(F, "<", "x"); print <F>'`,
    `perl -e 'open(my $p, "|-", "sort"); print $p "b\\na\\n"'`,
    `perl -e 'open(P, "| sort"); print P "x"'`,
    `perl -e 'open(my $p, "-|", "sh", "-c", "ls"); print <$p>'`,
    `ruby -e 'IO.popen("ls") { |p| puts p.read }'`,
    `ruby -e 'system("git", "status")'`,
    `node -e "require('child_process').execFileSync('git', ['status'])"`,
    `node -e "require('child_process').spawn('ls', ['-l']).stdout.pipe(process.stdout)"`,
    `node -e "require('child_process').exec('ls', {cwd: '/data'})"`,
    `python3 -c "import os; print(os.popen('ls', 'r').read())"`,
    `python3 -c "import subprocess; subprocess.run(['sh', 'check.sh'])"`,
    `awk '{print $1}' f`,
    `awk '{ print $1 | "sort" }' f`,
    `awk 'BEGIN { "date" | getline d; print d }'`,
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("R: system2's argument vector, functions named to do.call and match.fun", () => {
  it.each([
    `Rscript -e 'system2("find", c("/data", "-delete"))'`,
    `Rscript -e 'system2("bash", c("-c", shQuote("rm -rf /data")))'`,
    `Rscript -e 'system2("sh", args)'`,
    `Rscript -e 'do.call("unlink", list("/data", recursive=TRUE))'`,
    `Rscript -e 'do.call(unlink, list("/data", recursive=TRUE))'`,
    `Rscript -e 'do.call(file.remove, as.list(list.files("/data", full.names=TRUE)))'`,
    `Rscript -e 'do.call(system, list("rm -rf /data"))'`,
    `Rscript -e 'do.call("system2", list("rm", c("-rf", "/data")))'`,
    `Rscript -e 'match.fun("unlink")("/data", recursive=TRUE)'`,
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // As before.
    `Rscript -e 'system2("rm", c("-rf", "/data"))'`,
    `Rscript -e 'system(paste("rm -rf", "/data"))'`,
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    `Rscript -e 'print(system.file("x"))'`,
    `Rscript -e 'system2("ls", "-l")'`,
    `Rscript -e 'system2("git", c("status", "--short"), stdout = TRUE)'`,
    `Rscript -e 'do.call(rbind, list(a, b))'`,
    `Rscript -e 'do.call("paste", list("a", "b"))'`,
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("Tcl: open of a command pipe", () => {
  it.each([
    `tclsh <<< 'open "|rm -rf /data"'`,
    `tclsh <<< 'set f [open "|rm -rf /data" r]; close $f'`,
    `echo 'set f [open {|rm -rf /data}]' | tclsh`,
    `tclsh <<< 'set f [open |sh w]; puts $f "rm -rf /data"'`,
    `tclsh <<< 'set f [open "|bash" r+]; puts $f "rm -rf /data"'`,
    `expect -c 'open "|rm -rf /data"'`,
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    `tclsh <<< 'set f [open x r]; puts [read $f]'`,
    `tclsh <<< 'set f [open "|ls -l" r]; puts [read $f]'`,
    `tclsh <<< 'puts "open |rm -rf x"'`,
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("vim and ex: scripts by name, keys typed with :normal", () => {
  it.each([
    "vim -S cleanup.vim file",
    "vim -S",
    "vim -u x.vim -c q",
    "vim -c 'source x.vim' -c q file",
    "vim -c ':so x.vim' file",
    "ex -s file < script",
    "vim -es file < cmds.vim",
    "ex -s file <<< 'source x.vim'",
    `vim -es -c 'exe "normal :!rm -rf /data\\r"' -c q`,
    "vim -c 'normal ggdG' -c x file",
    "vim -es -c 'normal! ggdG' -c wq file",
    "vim -s keys.txt file",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    "vim -c 'normal dd' -c wq file",
    "vim -es -c 'normal! Gdd' -c x file",
  ])("%s: a write that destroys nothing", (command) => {
    expect(verdict(command)).toEqual(["write", false]);
  });

  it.each([
    "vim -R file",
    "view file",
    "vim -u NONE -c q file",
    "vim -c 'normal! gg' -c 'q!' file",
    "ex -s file < /dev/null",
    "vim -e -s -c 'g/x/p' -c 'q!' file",
    `vim -es -c 'echo "source x.vim"' -c 'q!' file`,
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("guile and racket: (system …), files deleted", () => {
  it.each([
    `guile -c '(system "rm -rf /data")'`,
    `guile -c '(system* "rm" "-rf" "/data")'`,
    `guile -c '(delete-file "/data/x")'`,
    `racket -e '(system "rm -rf /data")'`,
    `racket -e '(delete-directory/files "/data")'`,
    `echo '(system "rm -rf /data")' | guile`,
    `guile <<< '(delete-file "/data/x")'`,
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    `guile -c '(display 1)'`,
    `guile -c '(display "(system \\"rm -rf x\\")")'`,
    `racket -e '(system "ls")'`,
    `echo '(display 1)' | guile`,
    `guile script.scm <<< '(delete-file "x")'`,
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("sudo starts its program with a new environment (env_reset), not the line's exported variables", () => {
  it.each([
    // Under sudo X is unset: the child shell runs the default.
    "export X=ls; sudo bash -c '${X:-rm -rf /data}'",
    "export X=ls; sudo -u app sh -c '${X:-rm -rf /data}'",
    "export X=ls; doas sh -c '${X:-rm -rf /data}'",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // Kept: -E, --preserve-env, and what is assigned after sudo.
    "export X=ls; sudo -E bash -c '${X:-rm -rf /data}'",
    "export X=ls; sudo --preserve-env bash -c '${X:-rm -rf /data}'",
    "export X=ls; sudo --preserve-env=X bash -c '${X:-rm -rf /data}'",
    "sudo X=ls bash -c '${X:-rm -rf /data}'",
    "export X=ls; bash -c '${X:-rm -rf /data}'",
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });

  it("a variable naming production is still named under sudo (the sudoers file may keep it)", () => {
    const named = commandEffects("export X=production; sudo bash -c './deploy.sh $X'").filter((e) => e.production !== undefined);
    expect(named.map((e) => e.what)).toEqual(["`deploy.sh`"]);
  });
});

describe("time: the new scans stay linear on 100k characters", () => {
  /** `command`'s effects, read in less than ten seconds (a guard against quadratic paths, not a speed figure). */
  const timed = (command: string) => {
    const t0 = performance.now();
    const effects = commandEffects(command);
    expect(performance.now() - t0).toBeLessThan(10_000);
    return effects.map((e) => e.what);
  };

  it("built SQL, argument vectors, pipes, R, Tcl, vim, scheme", () => {
    const built = (whats: string[]) => whats.some((w) => w.includes("built at run time"));
    expect(timed(`psql -c "DO \\$\\$ BEGIN ${"EXECUTE 'SELECT ' || 'x'; ".repeat(5000)} END \\$\\$"`)).toHaveLength(1);
    expect(built(timed(`psql -c "DO \\$\\$ BEGIN ${"EXECUTE (((".repeat(10000)} END \\$\\$"`))).toBe(true);
    expect(built(timed(`psql -c "${"DO \\$\\$ BEGIN EXECUTE 'SELECT 1'; END \\$\\$; ".repeat(20000)}"`))).toBe(false);
    expect(timed(`sqlcmd -Q "${"EXEC('SELECT 1'); ".repeat(8000)}"`)).toEqual([]);
    expect(timed(`sqlcmd -Q "EXEC('${"''".repeat(60000)}"`)).toHaveLength(1);
    expect(timed(`sqlcmd -Q "${"; EXEC '".repeat(20000)}"`).length).toBeGreaterThan(0);
    expect(built(timed(`mysql -e "${"SET @q = 'SELECT 1'; PREPARE s FROM @q; EXECUTE s; ".repeat(4000)}"`))).toBe(false);
    expect(built(timed(`mysql -e "${"PREPARE s FROM @q; EXECUTE s; ".repeat(6000)}"`))).toBe(true);
    expect(timed(`node -e "${"execFileSync('ls', ['-l']); ".repeat(5000)}"`)).toEqual([]);
    expect(timed(`ruby -e '${'system("ls", "-l", '.repeat(8000)}'`)).toEqual([]);
    expect(timed(`perl -e '${'open(P, "|-", "sort"); '.repeat(5000)}'`)).toEqual([]);
    expect(timed(`Rscript -e '${'system2("ls", c("-l")); '.repeat(8000)}'`)).toEqual([]);
    expect(timed(`Rscript -e '${'system2("ls", c("-l", '.repeat(8000)}'`)).toHaveLength(8000);
    expect(timed(`Rscript -e '${"do.call(paste, list(".repeat(8000)}'`)).toEqual([]);
    expect(timed(`tclsh <<< '${'set f [open "|ls" r]; '.repeat(8000)}'`)).toEqual([]);
    expect(timed(`vim -es ${"-c 'normal! gg' ".repeat(8000)} -c 'q!' f`)).toEqual([]);
    expect(timed(`guile -c '${'(system "ls") '.repeat(8000)}'`)).toEqual([]);
    expect(timed(`${"export X=ls; ".repeat(4000)}sudo bash -c 'echo $X'`)).toEqual([]);
  });
});
