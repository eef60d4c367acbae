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
import { commandVerdict as verdict, runCommand } from "./step-risk.js";

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

describe("eval, and a shell's -c, run with the line's variables", () => {
  it.each([["RM=rm; eval \"\\$RM -rf /x\"", "write", true]] as const)("%s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });

  it("name the production the line's assignments hand them", () => {
    const production = (command: string) => commandEffects(command).filter((e) => e.production !== undefined).map((e) => [e.what, e.production]);
    expect(production('X=production; eval "./deploy.sh --env \\$X"')).toEqual([["`deploy.sh`", "production"]]);
    expect(production('CTX=prod-eu-1; eval "kubectl --context $CTX delete pod web-1"')).toEqual([["`kubectl delete`", "prod-eu-1"]]);
    expect(production("CTX=prod-eu-1; eval 'kubectl --context $CTX delete pod web-1'")).toEqual([["`kubectl delete`", "prod-eu-1"]]);
    expect(production('export D=/srv/production; eval "rm -rf \\$D/tmp"')).toEqual([["`rm -rf`", "/srv/production"]]);
    expect(production('CTX=prod-eu-1; bash -c "kubectl --context $CTX delete pod web-1"')).toEqual([["`kubectl delete`", "prod-eu-1"]]);
    expect(runCommand('X=production; eval "./deploy.sh --env \\$X"').impacts).toContain("production");
  });

  it.each(['X=production; eval "echo $X"', 'X=production; eval "ls -l /srv/$X"'])("reads: %s", (command) => {
    expect(readVerdict(command)).toEqual(["read", []]);
  });

  it("a production name a file program is not handed stays unnamed through eval", () => {
    expect(commandEffects('export NODE_ENV=production; eval "rm -rf dist/tmp"').map((e) => [e.what, e.production])).toEqual([["`rm -rf`", undefined]]);
  });
});

describe("a here-string of pieces side by side is one word", () => {
  it.each([
    // Adjacent quoted, `$'…'` and unquoted pieces, joined as a shell joins them.
    ["sh <<< 'ls'$'\\n''rm -rf /x'", "write", true],
    ['bash <<< "ls"$\'\\n\'"rm -rf /x"', "write", true],
    ["sh <<< ls$'\\n'rm\\ -rf\\ /x", "write", true],
    ["sh <<< 'r'\"m -rf /x\"", "write", true],
    ["sh <<< $'ls\\n''rm -rf /x'", "write", true],
    ["sh -s <<< 'ls'$'\\n''rm -rf /x'", "write", true],
    ["<<< 'ls'$'\\n''rm -rf /x' sh", "write", true],
    ["cat <<< 'ls'$'\\n''rm -rf /x' | sh", "write", true],
    ["sftp backup.example <<< 'ls'$'\\n''rm a'", "external", true],
    ["psql app <<< 'SELECT 1;'$'\\n''DROP TABLE users'", "write", true],
    ["python3 - <<< 'import shutil'$'\\n''shutil.rmtree(\"/x\")'", "write", true],
    // A substitution's output in the word: code the plan does not show.
    ["sh <<< 'ls; '\"$(cat steps.txt)\"", "write", true],
    // at's job, joined or a `$'…'` string.
    ["at now <<< 'ls'$'\\n''rm -rf /x'", "write", true],
    ["at now <<< $'rm -rf /x'", "write", true],
  ] as const)("%s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });

  it.each([
    "sh <<< 'ls'$'\\n''pwd'",
    'bash <<< "ls"$\'\\n\'"pwd"',
    "sh <<< ls$'\\n'pwd",
    "<<< 'ls'$'\\n''pwd' sh",
    "sftp backup.example <<< 'ls'$'\\n''pwd'",
    "psql app <<< 'SELECT 1;'$'\\n''SELECT 2'",
    "grep -c x <<< 'rm'$'\\n''-rf /x'",
    "at now <<< $'ls -l /srv'",
  ])("reads: %s", (command) => {
    expect(readVerdict(command)).toEqual(["read", []]);
  });

  it("stays linear on long words, many of them, and `<<<` inside one", () => {
    expect(commandEffects(`sh <<< ${"'a'\"b\"".repeat(20000)}`)).toEqual([]);
    expect(commandEffects(`${"sh <<< 'ls'$'\\n''pwd'; ".repeat(20000)}`)).toEqual([]);
    expect(commandEffects(`sh <<< 'x'${'"<<< \'a\'"'.repeat(20000)}`)).toEqual([]);
    expect(commandEffects(`sftp h <<< ${"'ls'$'\\n'".repeat(20000)}'rm a'`).map((e) => e.what)).toEqual(["`sftp rm`"]);
  });
});

describe("what a container runs", () => {
  it.each([
    ["docker run alpine rm -rf /data", "write", true],
    ["docker run --rm -v /srv:/srv alpine rm -rf /srv/data", "write", true],
    ["docker run --rm alpine sh -c 'rm -rf /data'", "write", true],
    ["docker container run -it --name x alpine rm -rf /data", "write", true],
    ["podman run --rm alpine rm -rf /data", "write", true],
    ["docker run --rm --entrypoint sh alpine -c 'rm -rf /data'", "write", true],
    ["docker run --rm --entrypoint=/bin/rm alpine -rf /data", "write", true],
    // liquibase's entrypoint runs an OS command given as its first argument.
    ["docker run --rm liquibase/liquibase rm -rf /liquibase/changelog", "write", true],
    ["docker exec -u root web rm -rf /data", "write", true],
    ["docker exec db psql -c 'DROP TABLE users'", "write", true],
    ["docker compose exec db psql -U app -c 'DELETE FROM users'", "write", true],
    ["docker compose run --rm web sh -c 'rm -rf /app/tmp'", "write", true],
    ["docker compose -f ops.yml exec db psql -c 'DROP TABLE users'", "write", true],
  ] as const)("%s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });

  it.each([
    "docker run alpine ls",
    "docker run --rm alpine sh -c 'ls /data'",
    "docker run --rm -v /srv:/srv alpine cat /srv/rm",
    "docker run --rm alpine echo rm -rf /x",
    "docker run -d nginx",
    "docker run --rm migrate/migrate -version",
  ])("a write, not destructive: %s", (command) => {
    expect(verdict(command)).toEqual(["write", false]);
  });

  // A container that is there runs the command and nothing else: its effect is the command's (redteam-dec7.test.ts).
  it.each(["docker exec web ls /data", "docker compose exec db psql -U app -c 'SELECT 1'", "docker compose -f ops.yml exec db psql -c 'SELECT 1'"])("a read: %s", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });

  it("stays linear on a chain of container runs", () => {
    // What the twenty-thousandth container runs is past the depth read: code the plan does not show.
    expect(new Set(commandEffects(`${"docker run alpine ".repeat(20000)}rm -rf /x`).map((e) => e.what))).toEqual(new Set(["`docker run`", "a command line nested more than 6 levels deep (code the plan does not show)"]));
  });
});

describe("every ssh hop", () => {
  it.each([
    ["echo 'rm a' | ssh h1 ssh h2 ssh h3 ssh h4 ssh h5 ssh h6 sftp b", "external", true],
    ["printf 'rm a\\n' | ssh h1 ssh h2 ssh h3 ssh h4 ssh h5 ssh h6 ssh h7 ssh h8 sftp b", "external", true],
    ["ssh h1 ssh h2 ssh h3 ssh h4 ssh h5 ssh h6 rm -rf /x", "write", true],
    // The far end's ssh hands its stdin on to the next host's shell.
    ["echo 'rm -rf /x' | ssh h1 ssh h2 bash", "write", true],
    ["cat steps.txt | ssh h1 ssh -p 2222 h2", "write", true],
  ] as const)("%s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });

  it.each(["echo 'ls' | ssh h1 ssh h2 ssh h3 ssh h4 ssh h5 ssh h6 sftp b", "ssh h1 ssh h2 ssh h3 ssh h4 ssh h5 ssh h6 ls -l /srv", "echo 'ls' | ssh h1 ssh h2 bash"])("reads: %s", (command) => {
    expect(readVerdict(command)).toEqual(["read", []]);
  });

  it("names the production host nearest the command", () => {
    expect(commandEffects("ssh jump ssh db.prod.internal ssh h3 ssh h4 ssh h5 ssh h6 rm -rf /x").map((e) => e.production)).toEqual(["db.prod.internal"]);
  });

  it("stays linear on chains of twenty thousand hops", () => {
    expect(commandEffects(`echo 'rm a' | ${"ssh a ".repeat(20000)}sftp b`).map((e) => e.what)).toEqual(["`sftp rm`"]);
    expect(commandEffects(`${"ssh a ".repeat(20000)}rm -rf /x`).map((e) => e.what)).toEqual(["`rm -rf`"]);
    expect(commandEffects(`echo 'rm -rf /x' | ${"ssh a ".repeat(20000)}bash`).map((e) => e.what)).toEqual(["`rm -rf`"]);
  });
});
