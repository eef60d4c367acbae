/**
 * Attacks on the run directory's journal (records written into room laid ahead as
 * newlines) and on its lazily made artifacts/: real `planspec` processes, real files,
 * SIGKILL at every state write of a run with an approval pause and outputs stored as
 * files; crafted journals; a symlinked artifacts/.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_TOOLS, readState, tempDir, writeFile } from "../runtime/helpers.js";
import { fileLines, planspec } from "./run-helpers.js";
import { CHAIN_PLAN, GATED_PLAN } from "../runtime/crash-plans.js";


function workspace(): string {
  const ws = tempDir("planspec-journal-attack-");
  writeFile(ws, "tools.mjs", TEST_TOOLS);
  writeFile(ws, "gated.plan.yaml", GATED_PLAN);
  return ws;
}

const runArgs = (id: string) => ["run", "gated.plan.yaml", "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate"];

/** Resumes (approving when asked, re-running an interrupted call) until the run is done. */
function driveToEnd(ws: string, id: string): void {
  for (let i = 0; i < 6; i++) {
    const state = readState(join(ws, ".planspec/runs", id));
    if (state.status === "done") return;
    if (state.nodes.pay!.status !== "done" && state.nodes.pay!.awaiting?.kind === "approval") {
      const a = planspec(ws, ["approve", id, "pay", "--by", "ops"]);
      expect(a.code, a.stderr).toBe(0);
    }
    let r = planspec(ws, ["resume", id]);
    if (r.code === 3 && /interrupted mid-call/.test(r.stderr)) r = planspec(ws, ["resume", id, "--rerun-interrupted"]);
    expect([0, 3], `resume ${id}: ${r.stderr}`).toContain(r.code);
  }
  expect(readState(join(ws, ".planspec/runs", id)).status).toBe("done");
}

describe("a run with an approval pause and file outputs, killed after every state write", () => {
  it("resumes to the same end from each kill, its keyed payment once", () => {
    const ws = workspace();
    const clean = planspec(ws, runArgs("clean"));
    expect(clean.code, clean.stderr).toBe(3);
    driveToEnd(ws, "clean");
    const ref = readState(join(ws, ".planspec/runs/clean"));
    const writes = ref.stateVersion;
    // big's output and after's (keyed: durable) are files.
    expect(readdirSync(join(ws, ".planspec/runs/clean/artifacts")).length).toBe(2);
    // Kill the first session after each of its writes, then each later session's too (the env var holds for them all).
    let kills = 0;
    for (let v = 1; v < writes; v++) {
      const id = `k${v}`;
      let killed = false;
      let r = planspec(ws, runArgs(id), { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: String(v) });
      killed ||= r.signal === "SIGKILL";
      for (let i = 0; i < 6 && !killed; i++) {
        const st = readState(join(ws, ".planspec/runs", id));
        if (st.status === "done") break;
        if (st.nodes.pay!.awaiting?.kind === "approval") planspec(ws, ["approve", id, "pay", "--by", "ops"]);
        r = planspec(ws, ["resume", id, "--rerun-interrupted"], { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: String(v) });
        killed ||= r.signal === "SIGKILL";
      }
      if (killed) kills++;
      driveToEnd(ws, id);
      const end = readState(join(ws, ".planspec/runs", id));
      expect(Object.values(end.nodes).map((n) => n.status), `kill at ${v}`).toEqual(["done", "done", "done"]);
      expect(end.nodes.after!.outputHash, `kill at ${v}`).toBe(ref.nodes.after!.outputHash);
      expect(fileLines(join(ws, "ledger.txt")).filter((l) => l.startsWith(`${id}:pay `)), `pay after a kill at ${v}`).toEqual([`${id}:pay 9`]);
      expect(statSync(join(ws, ".planspec/runs", id, "journal.jsonl")).size).toBe(0);
    }
    // Every write but approve's (no kill hook there) killed a session.
    expect(kills).toBeGreaterThanOrEqual(writes - 2);
  });
});

describe("artifacts/, made at the first output stored as a file", () => {
  it("is refused when it is a symlink planted before that output: nothing is written outside the run directory", () => {
    const ws = workspace();
    // A plan whose first long output comes after the approval pause.
    writeFile(ws, "late.plan.yaml", `planspec: 1
name: late
goal: Wait for a person, then load a long text
tools: { echo: { risk: read } }
limits: { max_tool_calls: 10 }
steps:
  one: { kind: read, goal: One, tool: echo, with: { n: 1 }, output: a, approval: { required: true, approvers: [ops] } }
  two: { kind: read, goal: Two, needs: [one], tool: echo, with: { text: "${"y".repeat(300)}" }, output: b }
`);
    const r = planspec(ws, ["run", "late.plan.yaml", "--tools", "tools.mjs", "--run-id", "s", "--no-lint-gate"]);
    expect(r.code, r.stderr).toBe(3);
    const dir = join(ws, ".planspec/runs/s");
    expect(existsSync(join(dir, "artifacts"))).toBe(false);
    const outside = tempDir("planspec-outside-");
    symlinkSync(outside, join(dir, "artifacts"));
    expect(planspec(ws, ["approve", "s", "one", "--by", "ops"]).code).toBe(0);
    const resumed = planspec(ws, ["resume", "s"]);
    expect(readdirSync(outside), resumed.stderr).toEqual([]);
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toMatch(/artifacts/);
  });
});

describe("a crafted journal", () => {
  /** A run killed after its fourth write: a snapshot (creation) and three records after it. */
  function pausedWithRecords(): { ws: string; dir: string; journal: Buffer } {
    const ws = workspace();
    writeFile(ws, "chain.plan.yaml", CHAIN_PLAN);
    const dir = join(ws, ".planspec/runs/c");
    const r = planspec(ws, ["run", "chain.plan.yaml", "--tools", "tools.mjs", "--run-id", "c", "--no-lint-gate"], { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: "4" });
    expect(r.signal, r.stderr).toBe("SIGKILL");
    const journal = readFileSync(join(dir, "journal.jsonl"));
    expect(journal.toString().split("\n").filter(Boolean).length).toBeGreaterThanOrEqual(2);
    return { ws, dir, journal };
  }

  it("with an empty line between two records is refused by status and resume", () => {
    const { ws, dir, journal } = pausedWithRecords();
    const first = journal.indexOf(10) + 1;
    writeFileSync(join(dir, "journal.jsonl"), Buffer.concat([journal.subarray(0, first), Buffer.from("\n\n\n"), journal.subarray(first)]));
    const status = planspec(ws, ["status", "c"]);
    expect(status.code).not.toBe(0);
    expect(status.stderr).toMatch(/journal\.jsonl is damaged .*line 2: an empty line before a record/);
    expect(planspec(ws, ["resume", "c"]).stderr).toMatch(/journal\.jsonl is damaged/);
  });

  it("with a line whose checksum matches but which is not JSON names the journal and the line, not state.json", () => {
    const { ws, dir, journal } = pausedWithRecords();
    const first = journal.indexOf(10) + 1;
    const text = '{"v":3,"n":{';
    const line = `${text} ${createHash("sha256").update(text).digest("hex")}\n`;
    writeFileSync(join(dir, "journal.jsonl"), Buffer.concat([journal.subarray(0, first), Buffer.from(line)]));
    for (const cmd of [["status", "c"], ["resume", "c"]]) {
      const r = planspec(ws, cmd);
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toMatch(/journal\.jsonl is damaged or was edited outside planspec \(line 2: its checksum matches but it is not JSON\)/);
      expect(r.stderr).not.toMatch(/state\.json|\n\s+at /);
    }
  });

  it("whose later records sit after a hole of zeros (room lost, the writer went on) is refused, not read as a torn tail", () => {
    const { ws, dir, journal } = pausedWithRecords();
    const first = journal.indexOf(10) + 1;
    writeFileSync(join(dir, "journal.jsonl"), Buffer.concat([journal.subarray(0, first), Buffer.alloc(5000), journal.subarray(first)]));
    const status = planspec(ws, ["status", "c"]);
    expect(status.code, status.stdout).not.toBe(0);
    expect(status.stderr).toMatch(/journal\.jsonl is damaged/);
  });

  it("larger than a file can be read (3 GiB, sparse) is refused as damage, not an internal error", () => {
    const { ws, dir } = pausedWithRecords();
    truncateSync(join(dir, "journal.jsonl"), 3 * 2 ** 30);
    const status = planspec(ws, ["status", "c"]);
    expect(status.code).not.toBe(0);
    expect(status.stderr).toMatch(/journal\.jsonl is damaged .*larger than planspec ever writes one/);
    expect(status.stderr).not.toMatch(/internal error/);
  });

  it("ending in a line longer than a string can be (600 MB of zeros, sparse) reads it as a torn tail, not an internal error", () => {
    const { ws, dir } = pausedWithRecords();
    const before = readState(dir);
    truncateSync(join(dir, "journal.jsonl"), 600 * 2 ** 20);
    const status = planspec(ws, ["status", "c"]);
    expect(status.stderr).not.toMatch(/internal error/);
    expect(status.code, status.stderr).toBe(0);
    expect(readState(dir)).toEqual(before);
  });

  it("with megabytes of room after its records is read as the records alone", () => {
    const { ws, dir, journal } = pausedWithRecords();
    const before = readState(dir);
    writeFileSync(join(dir, "journal.jsonl"), Buffer.concat([journal, Buffer.alloc(64 << 20, 10)]));
    const status = planspec(ws, ["status", "c"]);
    expect(status.code, status.stderr).toBe(0);
    expect(readState(dir)).toEqual(before);
    const done = planspec(ws, ["resume", "c"]);
    expect(done.code, done.stderr).toBe(0);
    expect(readState(dir).status).toBe("done");
    expect(statSync(join(dir, "journal.jsonl")).size).toBe(0);
  });
});

describe("journal.jsonl planted by someone else", () => {
  it("with its last two records edited is refused, not dropped as a torn tail", () => {
    const ws = workspace();
    writeFile(ws, "chain.plan.yaml", CHAIN_PLAN);
    const r = planspec(ws, ["run", "chain.plan.yaml", "--tools", "tools.mjs", "--run-id", "e", "--no-lint-gate"], { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: "4" });
    expect(r.signal).toBe("SIGKILL");
    const file = join(ws, ".planspec/runs/e/journal.jsonl");
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    expect(lines.length).toBe(3);
    // An edit of the last two records (their checksums no longer match).
    const edited = [lines[0], lines[1]!.replace('"done"', '"pending"').replace(/"n":2/, '"n":5'), lines[2]!.replace(/.$/, "0")];
    writeFileSync(file, `${edited.join("\n")}\n`);
    const status = planspec(ws, ["status", "e"]);
    expect(status.code, status.stdout).not.toBe(0);
    expect(status.stderr).toMatch(/journal\.jsonl is damaged/);
  });
});

describe("events.jsonl or journal.jsonl planted by someone else", () => {
  it.each(["events.jsonl", "journal.jsonl"])("%s as a symlink to a file outside the run: no session writes to that file, and resume says why it stops", (name) => {
    const ws = workspace();
    expect(planspec(ws, runArgs("ev")).code).toBe(3);
    const dir = join(ws, ".planspec/runs/ev");
    const victim = join(tempDir("planspec-outside-"), "authorized_keys");
    const keys = "ssh-ed25519 AAAAC3Nza ops@host\n";
    writeFileSync(victim, keys);
    renameSync(join(dir, name), join(dir, `${name}.away`));
    symlinkSync(victim, join(dir, name));
    const approve = planspec(ws, ["approve", "ev", "pay", "--by", "ops"]);
    const resume = planspec(ws, ["resume", "ev"]);
    expect(readFileSync(victim, "utf8"), `${approve.stderr}\n${resume.stderr}`).toBe(keys);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain(`${name} is a symlink, not a file of the run`);
    expect(resume.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it("as a symlink planted before the run is created: the file it points to is untouched", () => {
    const ws = workspace();
    const dir = join(ws, ".planspec/runs/evnew");
    mkdirSync(dir, { recursive: true });
    const victim = join(tempDir("planspec-outside-"), "notes.txt");
    writeFileSync(victim, "keep me\n");
    symlinkSync(victim, join(dir, "events.jsonl"));
    const r = planspec(ws, runArgs("evnew"));
    expect(readFileSync(victim, "utf8"), r.stderr).toBe("keep me\n");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/events\.jsonl is a symlink, not a file of the run/);
  });
});

describe("logs of the run replaced by a FIFO", () => {
  it("events.jsonl as a FIFO: report and resume refuse it at once instead of blocking on it", () => {
    const ws = workspace();
    expect(planspec(ws, runArgs("fifo")).code).toBe(3);
    const dir = join(ws, ".planspec/runs/fifo");
    renameSync(join(dir, "events.jsonl"), join(dir, "events.jsonl.away"));
    execFileSync("mkfifo", [join(dir, "events.jsonl")]);
    const report = planspec(ws, ["report", "fifo", "-o", "report.html"]);
    expect(report.signal, "report blocked on the FIFO until killed").toBeNull();
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(/events\.jsonl is not a regular file/);
    const approve = planspec(ws, ["approve", "fifo", "pay", "--by", "ops"]);
    expect(approve.code).toBe(2);
    expect(approve.stderr).toMatch(/events\.jsonl is not a regular file/);
    const resume = planspec(ws, ["resume", "fifo"]);
    expect(resume.signal, "resume blocked on the FIFO until killed").toBeNull();
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/events\.jsonl is not a regular file/);
  });

  it("journal.jsonl as a FIFO: approve and resume refuse it at once", () => {
    const ws = workspace();
    expect(planspec(ws, runArgs("jfifo")).code).toBe(3);
    const dir = join(ws, ".planspec/runs/jfifo");
    renameSync(join(dir, "journal.jsonl"), join(dir, "journal.jsonl.away"));
    execFileSync("mkfifo", [join(dir, "journal.jsonl")]);
    for (const args of [["approve", "jfifo", "pay", "--by", "ops"], ["resume", "jfifo"]]) {
      const r = planspec(ws, args);
      expect(r.signal, `${args[0]} blocked on the FIFO until killed`).toBeNull();
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr).toMatch(/journal\.jsonl is not a regular file/);
    }
  });
});

describe("state.json, config.json, the lock and an artifact replaced by what cannot be read to an end", () => {
  it.each([
    ["state.json", "a FIFO"],
    ["state.json", "a symlink to /dev/zero"],
    ["config.json", "a FIFO"],
    ["lock", "a FIFO"],
  ])("%s as %s: status and report never block on it, resume says so at once", (name, kind) => {
    const ws = workspace();
    const id = "odd";
    expect(planspec(ws, runArgs(id)).code).toBe(3);
    const file = join(ws, ".planspec/runs", id, name);
    rmSync(file, { force: true });
    if (kind === "a FIFO") execFileSync("mkfifo", [file]);
    else symlinkSync("/dev/zero", file);
    const refusal = new RegExp(`${name.replace(".", "\\.")} (is not a regular file|is a symlink, not a file of the run)`);
    for (const args of [["status", id], ["status", id, "--json"], ["report", id, "-o", "r.html"], ["resume", id]]) {
      const r = planspec(ws, args);
      expect(r.signal, `${args.join(" ")} blocked until killed`).toBeNull();
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
      // A command that does not need the file (status answers from state.json's head line, report
      // reads no lock) answers; one that reads it refuses in one line. resume reads them all.
      expect([0, 2, 3], `${args.join(" ")}: ${r.stderr}`).toContain(r.code);
      if (args[0] === "resume" || r.code === 2) {
        expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(refusal);
      }
    }
  });

  it("state.json grown past what a string can hold (600 MB, sparse): status and resume refuse it in one line", () => {
    const ws = workspace();
    expect(planspec(ws, runArgs("huge")).code).toBe(3);
    const file = join(ws, ".planspec/runs/huge/state.json");
    truncateSync(file, 600 * 1024 * 1024);
    for (const args of [["status", "huge"], ["status", "huge", "--json"], ["resume", "huge"]]) {
      const r = planspec(ws, args);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/state\.json was edited outside planspec/);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });

  it("an artifact (a stored output) as a symlink to /dev/zero: status --all and report refuse it at once", () => {
    const ws = workspace();
    expect(planspec(ws, runArgs("art")).code).toBe(3);
    const dir = join(ws, ".planspec/runs/art/artifacts");
    const [name] = readdirSync(dir);
    rmSync(join(dir, name!));
    symlinkSync("/dev/zero", join(dir, name!));
    for (const args of [["status", "art", "--all"], ["report", "art", "-o", "r.html"]]) {
      const r = planspec(ws, args);
      expect(r.signal, `${args.join(" ")} blocked until killed`).toBeNull();
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });
});

describe("a run created where someone planted files first", () => {
  it("plan.ir.json and config.json as symlinks to files outside: the run is created beside them, the files are untouched", () => {
    const ws = workspace();
    const dir = join(ws, ".planspec/runs/p");
    mkdirSync(dir, { recursive: true });
    const outside = tempDir("planspec-outside-");
    for (const name of ["plan.ir.json", "config.json"]) {
      writeFileSync(join(outside, name), "keep me\n");
      symlinkSync(join(outside, name), join(dir, name));
    }
    const r = planspec(ws, runArgs("p"));
    expect(readFileSync(join(outside, "plan.ir.json"), "utf8"), r.stderr).toBe("keep me\n");
    expect(readFileSync(join(outside, "config.json"), "utf8")).toBe("keep me\n");
    expect(r.code, r.stderr).toBe(3);
    expect(readState(dir).status).toBe("paused");
  });
});
