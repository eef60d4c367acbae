/**
 * The red team of f51d35f (the session's gate commits): what a read shell step hands a
 * shell or sftp through wrappers, `cat`, groups and here-strings, what a tool's Docker image
 * runs, and a production path reached without `$`. Every escape row read as `read` (or
 * named no production) at f51d35f; rows 1–4 of the docker table and the production rows
 * were regressions of that session's own commits (1feb39e, efec7dc), caught there.
 */
import { describe, expect, it } from "vitest";
import { commandEffects } from "../../src/lint/risk-shell.js";
import { runCommand } from "./step-risk.js";

describe("red team of f51d35f: a tool's image, wrappers, cat, redirects and here-strings", () => {
  it.each([
    // A tool's image runs whatever it is given (liquibase's entrypoint runs an OS command as its first argument): a container run is a write, as every `docker run` is.
    ["docker run --rm -v /srv:/srv liquibase/liquibase rm -rf /srv/data", "write"],
    ["docker run --rm liquibase/liquibase sh -c 'rm -rf /liquibase/changelog'", "write"],
    ["docker run --rm --volume-driver migrate/migrate alpine rm -rf /data", "write"],
    ["docker run --rm liquibase/liquibase drop-all --url jdbc:postgresql://db/app", "write"],
    ["docker run --rm liquibase/liquibase execute-sql --sql 'DROP TABLE users'", "write"],
    ["docker run --rm migrate/migrate -version", "write"],
    // Wrappers in front of the shell or sftp that read stdin.
    ["echo 'rm -rf /x' | sudo -u app sh", "write"],
    ["echo 'rm -rf /x' | sudo -u app -g app bash", "write"],
    ["echo 'rm -rf /x' | setsid sh", "write"],
    ["echo 'rm -rf /x' | stdbuf -o0 sh", "write"],
    ["echo 'rm -rf /x' | ionice -c3 sh", "write"],
    ["echo 'rm -rf /x' | chrt -i 0 sh", "write"],
    ["echo 'rm -rf /x' | busybox sh", "write"],
    ["echo 'rm -rf /x' | source /dev/stdin", "write"],
    ["echo 'rm -rf /x' | . /dev/stdin", "write"],
    ["echo 'rm a' | timeout 30 sftp backup.example", "external"],
    ["echo 'rm a' | stdbuf -oL sftp backup.example", "external"],
    // cat hands its stdin on.
    ['echo "rm -rf /x" | cat | sh', "write"],
    ["echo 'rm a' | cat | sftp backup.example", "external"],
    // A quoted `>` is a word echo prints, not a redirect; `>/dev/stdout` and `|&` still feed the pipe.
    ["echo rm -rf /x '>/dev/null' | sh", "write"],
    ["(echo ls; echo rm -rf /x '>/dev/null') | sh", "write"],
    ["{ echo rm -rf /x > /dev/stdout; echo ls; } | sh", "write"],
    ["(echo ls; echo rm -rf /x 1>&2) |& sh", "write"],
    // Here-strings: unquoted, with arguments, through cat, from a substitution.
    ["sh <<< rm\\ -rf\\ /x", "write"],
    ["sh -s -- a <<< 'rm -rf /x'", "write"],
    ["cat <<< 'rm -rf /x' | sh", "write"],
    ['sh <<< "$(cat steps.txt)"', "write"],
    ["sftp backup.example <<< rm\\ a", "external"],
  ] as const)("%s", (command, risk) => {
    expect(runCommand(command).risk).toBe(risk);
  });

  it.each([
    "echo 'rm -rf /x' | sh -n",
    "echo 'rm -rf /x' | bash --noexec",
    "(echo 'rm -rf /x') | sh -n",
    "echo 'ls -l /srv' | sudo -u app sh",
    "echo 'ls' | cat | sh",
    "sh <<< 'ls -l /srv'",
    "cat <<< 'ls -l' | sh",
    "echo 'ls' | stdbuf -oL sftp backup.example",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  // Output sent to a file by an unquoted redirect, or piped to a program that is no shell: the file is written, nothing is run.
  it.each(["(echo rm -rf /x > /tmp/plan.txt; echo ls) | sh", "echo 'rm -rf /x' | sudo -u app tee /tmp/plan.txt"])("a write, not destructive: %s", (command) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual(["write", false]);
  });

  it("stays linear on wrappers before a shell, pass-through cats and here-strings", () => {
    expect(commandEffects(`echo ls | ${"sudo -u app ".repeat(20000)}sh`)).toEqual([]);
    expect(commandEffects(`echo ls | ${"sudo -u sudo -u ".repeat(20000)}x`)).toEqual([]);
    expect(commandEffects(`echo ls | ${"nice -n 1 ".repeat(20000)}tee f`).map((e) => e.what)).toEqual(["`tee`"]);
    expect(commandEffects(`${"| sudo -a ".repeat(20000)}`).length).toBeLessThan(3);
    expect(commandEffects(`echo 'rm -rf /x' ${"| cat ".repeat(20000)}| sh`).map((e) => e.what)).toEqual(["`rm -rf`"]);
    expect(commandEffects(`sh -s ${"a ".repeat(30000)}<<< ${"x\\ ".repeat(30000)}y`).length).toBeLessThan(3);
    // Each shell after the first runs what the one before printed: code the plan does not show, once per stage.
    expect(new Set(commandEffects(`echo 'rm -rf /x' ${"| xargs -0 sh -c ".repeat(20000)}`).map((e) => e.what))).toEqual(new Set(["`rm -rf`", "`sh | sh` (code the plan does not show)"]));
    expect(commandEffects(`${"<<< 'ls' sh; ".repeat(20000)}`)).toEqual([]);
    expect(commandEffects(`${"cat <<< 'ls' | sh; ".repeat(20000)}cat <<< 'rm -rf /x' | sh`).map((e) => e.what)).toEqual(["`rm -rf`"]);
  });

  it("a production path reached without `$` (`~`, bare `cd`, `cd -`, CDPATH) or read by name (printenv, ${!X}, env printing them) still names production for a file program", () => {
    const production = (command: string) => commandEffects(command).find((e) => e.what === "`rm -rf`")?.production;
    for (const command of [
      "export HOME=/srv/production && rm -rf ~/tmp",
      "export HOME=/srv/production; cd && rm -rf tmp",
      "export CDPATH=/srv/production; cd data && rm -rf tmp",
      "export OLDPWD=/srv/production; cd - && rm -rf tmp",
      'export D=/srv/production; rm -rf "$(printenv D)/tmp"',
      'X=D; export D=/srv/production; rm -rf "${!X}/tmp"',
      "export D=/srv/production; env | sed -n 's/^D=//p' | xargs -I{} rm -rf {}/tmp",
    ]) expect(production(command), command).toBe("/srv/production");
    // The narrowing of efec7dc still holds where nothing reads the variable.
    expect(production("export NODE_ENV=production && rm -rf dist/tmp")).toBeUndefined();
  });
});

describe("red team of f51d35f, after the first fixes: here-strings in their other spellings", () => {
  it.each([
    // A `$"…"` string is a double-quoted one (translated by the locale), `0<<<` names stdin, and a substitution's output is a program the plan does not show.
    ['sh <<< $"rm -rf /x"', "write"],
    ["sh 0<<< 'rm -rf /x'", "write"],
    ['sh <<< "$(cat steps.txt)"', "write"],
    ['sh <<< "$(echo rm -rf /x)"', "write"],
    ['sftp backup.example <<< $"rm a"', "external"],
  ] as const)("%s", (command, risk) => {
    expect(runCommand(command).risk).toBe(risk);
  });

  it.each(['sh <<< "ls -l /srv"', 'sh <<< $"ls -l /srv"', "sh 0<<< 'ls -l /srv'"])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });
});

describe("red team of f51d35f, the last of its list: a here-string before its command, xargs running a shell on its input", () => {
  it.each([
    ["<<< 'rm -rf /x' sh", "write"],
    ["<<< 'rm -rf /x' sudo bash", "write"],
    ["<<< 'rm a' sftp backup.example", "external"],
    ["<<< 'DELETE FROM users' psql app", "write"],
    ['echo "rm -rf /x" | xargs -0 sh -c', "write"],
    ["printf 'rm -rf /x' | xargs -0 bash -c", "write"],
  ] as const)("%s", (command, risk) => {
    expect(runCommand(command).risk).toBe(risk);
  });

  it.each(["<<< 'ls -l /srv' sh", "<<< 'SELECT 1' psql app", "<<< 'ls' sftp backup.example", 'echo "ls -l" | xargs -0 sh -c', "ls | xargs -0 wc -l"])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });
});
