/**
 * Red-team rows: encodings that hide a command piped into a shell or sftp (printf's and
 * echo's escapes, printf's conversions, awk's string escapes), `go run` of a main.go file,
 * and sqlite's quoted names, comments, dot-commands, options and functions. Each row was
 * read as a read at 71a37a4 (`%.0s` as a write, `.load` as a write not destructive); the
 * reads are hard negatives that must stay reads.
 */
import { describe, expect, it } from "vitest";
import { commandEffects } from "../../src/lint/risk-shell.js";
import { runCommand } from "./step-risk.js";

describe("escapes and conversions in what is piped into a shell or sftp", () => {
  it.each([
    // printf's format undoes octal `\NNN` (1–3 digits) and hex `\xHH`.
    ["printf '\\162m -rf /x\\n' | sh", "write", true],
    ["printf '\\x72m -rf /x\\n' | sh", "write", true],
    ["printf 'ls\\n\\162m -rf /x\\n' | sh", "write", true],
    ["printf '\\162m a\\n' | sftp host", "external", true],
    // `%b`'s argument gets its escapes undone (`\\0NNN` and `\\NNN`, `\\xHH`).
    ["printf '%b\\n' 'ls\\nrm -rf /x' | sh", "write", true],
    ["printf '%b' 'ls\\nrm -rf /x' | sh", "write", true],
    ["printf '%b\\n' 'rm\\040-rf /x' | sh", "write", true],
    ["printf '%b\\n' 'rm\\x20-rf /x' | sh", "write", true],
    ["printf '%b\\n' 'ls\\nrm a' | sftp host", "external", true],
    // `%*s` takes its width from an argument first; `%c` prints its argument's first character; `.N` cuts.
    ["printf '%*s\\n' 0 'rm -rf /x' | sh", "write", true],
    ["printf '%-*s\\n' 3 'rm -rf /x' | sh", "write", true],
    ["printf '%c%c -rf /x\\n' rm mx | sh", "write", true],
    ["printf '%.2s -rf /x\\n' rmate | sh", "write", true],
    // echo: `-e` undoes hex, sh's echo (dash's) `\\0NNN`, a `$'…'` string octal.
    ["echo -e '\\x72m -rf /x' | sh", "write", true],
    ["echo -e 'rm\\x20-rf /x' | sh", "write", true],
    ["echo '\\0162m -rf /x' | sh", "write", true],
    ["echo $'\\162m -rf /x' | sh", "write", true],
    ["sh <<< $'\\162m -rf /x'", "write", true],
    ["echo -e 'ls\\x0arm a' | sftp host", "external", true],
    // awk's strings undo octal and hex escapes.
    ["awk '{ print \"\\162m -rf \" $0 }' f | sh", "write", true],
    ["awk '{ print \"\\x72m -rf \" $0 }' f | sh", "write", true],
  ] as const)("%s", (command, risk, destructive) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
  });

  it.each([
    // `%.0s` prints nothing of its argument: only `ls` runs.
    "printf '%.0sls\\n' 'rm -rf /x' | sh",
    "printf '%c%c\\n' ls rx | sh",
    "printf '\\154s -l\\n' | sh",
    "echo -e '\\x6cs -l' | sh",
    "awk '{ print \"\\154s -l \" $0 }' f | sh",
    "printf '%b\\n' 'ls\\040-l' | sftp host",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it("stays linear on long runs of escapes and conversions", () => {
    expect(commandEffects(`printf '${"\\101".repeat(30000)}\\n' | sh`).map((e) => e.what)).toEqual([]);
    expect(commandEffects(`printf '${"%*s".repeat(30000)}\\n' ${"1 a ".repeat(30000)}| sh`)).toEqual([]);
    expect(commandEffects(`printf '%b\\n' '${"\\x41".repeat(30000)}' | sh`)).toEqual([]);
    expect(commandEffects(`echo -e '${"\\0101".repeat(30000)}' | sh`)).toEqual([]);
    expect(commandEffects(`awk '{ print "${"\\101".repeat(30000)}" $0 }' f | sh`)).toEqual([]);
  });
});

describe("go run of a main.go file", () => {
  it.each([
    ["go run ./cmd/migrate/main.go -path m -database x drop -f", "write", true],
    ["go run cmd/migrate/main.go drop -f", "write", true],
  ] as const)("%s", (command, risk, destructive) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
  });

  it.each(["go run ./cmd/report/main.go -n 5", "go run cmd/report/main.go"])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });
});

describe("sqlite: quoted names, comments, dot-commands, options", () => {
  it.each([
    ["sqlite3 app.db 'PRAGMA \"user_version\" = 3'", "write", false],
    ["sqlite3 app.db 'PRAGMA [user_version] = 3'", "write", false],
    ["sqlite3 app.db 'PRAGMA `journal_mode`=WAL'", "write", false],
    ["sqlite3 app.db \"VACUUM \\\"main\\\" INTO '/tmp/x.db'\"", "write", false],
    ["sqlite3 app.db \"SELECT writefile/**/('/tmp/x','y')\"", "write", false],
    ["sqlite3 app.db \"SELECT \\\"writefile\\\"('/tmp/x','y')\"", "write", false],
    ["sqlite3 x.sqlar --Ax", "write", false],
    ["sqlite3 x.sqlar --A -x", "write", false],
    ["sqlite3 app.db \".log 'my log.txt'\"", "write", false],
    // Native code the plan does not show; an editor opened.
    ["sqlite3 app.db \"SELECT load_extension('./evil.so')\"", "write", true],
    ["sqlite3 app.db '.load ./evil'", "write", true],
    ["sqlite3 app.db 'SELECT edit(body) FROM notes'", "write", false],
  ] as const)("%s", (command, risk, destructive) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
  });

  it.each([
    "sqlite3 app.db 'PRAGMA table_info(\"users\")'",
    "sqlite3 app.db 'PRAGMA \"user_version\"'",
    "sqlite3 app.db \"SELECT 'writefile(' AS s\"",
    "sqlite3 app.db \"SELECT \\\"edit\\\" FROM notes\"",
    "sqlite3 app.db '.log off'",
    "sqlite3 app.db '.log stdout'",
    "sqlite3 x.sqlar --At",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });
});

describe("sqlite: stays linear", () => {
  it("on long runs of escaped quotes, quoted names, brackets and comments", () => {
    expect(commandEffects(`sqlite3 app.db "SELECT ${'\\"a\\" '.repeat(30000)}"`)).toEqual([]);
    expect(commandEffects(`sqlite3 app.db 'SELECT ${"[a] [".repeat(30000)}1'`)).toEqual([]);
    expect(commandEffects(`sqlite3 app.db 'SELECT ${"writefile/* ".repeat(30000)}'`).map((e) => e.what)).toEqual([]);
    expect(commandEffects(`sqlite3 app.db "${".log 'a\n".repeat(30000)}"`)).toEqual([]);
  });
});
