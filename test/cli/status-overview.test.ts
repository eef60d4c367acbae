/**
 * `status` of a run killed mid-step (state.json plus a journal tail, no kept summary)
 * reads the writer's overview (`overview.json`: each step's status as of a journal record,
 * the few steps' states it shows) and the journal after that record, not the whole
 * snapshot. It must print exactly what the whole read prints, and an overview that is
 * damaged, forged onto another journal, or older than the snapshot is never believed.
 * Real CLI child processes, a real SIGKILL at random points.
 */
import { cpSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checksummedLine } from "../../src/runtime/journal.js";
import { killHard, planspec, startPlanspec, waitFor } from "./run-helpers.js";
import { exists, STACK, workspace } from "../security/helpers.js";

const STEPS = 400;
const plan =
  `planspec: 1\nname: long\ngoal: A long line that stops at a gate\ntools: { slow: { risk: read }, gate: { risk: write } }\nlimits: { max_tool_calls: ${STEPS + 10} }\nsteps:\n` +
  Array.from({ length: STEPS }, (_, i) => `  s${i}: { kind: analyze, goal: step ${i}, tool: slow, with: { i: ${i}, ms: 4 }${i ? `, needs: [s${i - 1}]` : ""}, output: r${i} }\n`).join("") +
  `  hold: { kind: write, goal: wait at the gate, tool: gate, risk: write, with: { release: go }, needs: [s${STEPS - 1}] }\n`;

const runs = (ws: string) => join(ws, ".planspec/runs");

/** What `status` prints for a copy of the run without its overview: the whole read. */
function wholeRead(ws: string, id: string): string {
  const copy = `${id}-whole`;
  rmSync(join(runs(ws), copy), { recursive: true, force: true });
  cpSync(join(runs(ws), id), join(runs(ws), copy), { recursive: true });
  rmSync(join(runs(ws), copy, "overview.json"), { force: true });
  const r = planspec(ws, ["status", copy]);
  expect(r.stderr).not.toMatch(STACK);
  return r.stdout.replace(`run ${copy} (`, `run ${id} (`);
}

function status(ws: string, id: string): string {
  const r = planspec(ws, ["status", id]);
  expect(r.stderr).not.toMatch(STACK);
  return r.stdout;
}

/**
 * What status prints with the overview re-sealed (a new checksum) with its first left-out
 * done step marked untouched: one more step pending than the truth if the overview was read.
 */
function believed(dir: string, print: () => string): string {
  const file = join(dir, "overview.json");
  const original = readFileSync(file, "utf8");
  const doc = JSON.parse(original.slice(0, original.lastIndexOf(" "))) as { marks: string };
  expect(doc.marks).toContain("d");
  doc.marks = doc.marks.replace("d", "p");
  writeFileSync(file, checksummedLine(JSON.stringify(doc)));
  try {
    return print();
  } finally {
    writeFileSync(file, original);
  }
}

/** The count line's "N done", which a believed forgery lowers by one. */
const doneCount = (text: string) => Number(/steps: ([\d,]+) done/.exec(text)![1]!.replace(/,/g, ""));

async function killedRun(ws: string, id: string, after: () => boolean): Promise<string> {
  const child = startPlanspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate"]);
  await waitFor(after, 20_000);
  await killHard(child);
  return join(runs(ws), id);
}

/** Steps started so far: a journal record each (one step's end and the next one's start), after the room's newlines. */
const started = (ws: string, id: string) => {
  const file = join(runs(ws), id, "journal.jsonl");
  return exists(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0;
};

describe("status of a killed run from the writer's overview and the journal's tail", () => {
  it("prints what the whole read prints, at kill points across the run and at the gate", async () => {
    const ws = workspace("p.plan.yaml", plan);
    // Kill points (4 ms a step; the overview is first written a second in and then about
    // once a second): right after the first, with a tail after it, near the end, then
    // blocked at the gate.
    for (const [k, at] of [0, 300, 390].entries()) {
      const dir = await killedRun(ws, `k${k}`, () => exists(join(runs(ws), `k${k}`, "overview.json")) && started(ws, `k${k}`) >= at);
      expect(readFileSync(join(dir, "journal.jsonl"), "utf8").trim()).not.toBe("");
      // The writer keeps an overview of a run in progress.
      expect(exists(join(dir, "overview.json"))).toBe(true);
      const fast = status(ws, `k${k}`);
      expect(fast).toMatch(/running/);
      expect(fast).toBe(wholeRead(ws, `k${k}`));
      expect(doneCount(believed(dir, () => status(ws, `k${k}`)))).toBe(doneCount(fast) - 1);
    }

    // A resumed session goes on from the records the last overview names: k1, resumed and
    // killed again at the gate, reads true from the overview (the first session's, or the
    // resumed one's if it ran past a second) with the records of both sessions after it.
    const child = startPlanspec(ws, ["resume", "k1"]);
    await waitFor(() => exists(join(ws, "gate-entered")), 20_000);
    await killHard(child);
    const again = status(ws, "k1");
    expect(again).toMatch(/hold\s+running/);
    expect(again).toBe(wholeRead(ws, "k1"));
    expect(doneCount(believed(join(runs(ws), "k1"), () => status(ws, "k1")))).toBe(doneCount(again) - 1);
    rmSync(join(ws, "gate-entered"));

    const dir = await killedRun(ws, "gate", () => exists(join(ws, "gate-entered")));
    expect(exists(join(dir, "overview.json"))).toBe(true);
    const fast = status(ws, "gate");
    expect(fast).toMatch(/hold\s+running/);
    expect(fast).toMatch(/401 steps: 400 done, 1 running; \d+ shown/);
    expect(fast).toBe(wholeRead(ws, "gate"));

  });

  it("an overview that is damaged, re-sealed onto another record, of another journal or snapshot, or a link is not believed", async () => {
    const ws = workspace("p.plan.yaml", plan);
    const dir = await killedRun(ws, "k", () => exists(join(ws, "gate-entered")));
    const file = join(dir, "overview.json");
    const original = readFileSync(file, "utf8");
    const truth = wholeRead(ws, "k");
    expect(status(ws, "k")).toBe(truth);
    const json = original.slice(0, original.lastIndexOf(" "));
    const body = JSON.parse(json) as { stateVersion: number; recordAt: number; journalBytes: number; head: { runId: string } };

    // One byte changed, checksum left: a torn or edited cache, read past.
    writeFileSync(file, original.replace('"marks":"', '"marks":"*'));
    expect(status(ws, "k")).toBe(truth);

    // Re-sealed (a new checksum) with another run's name: the overview is a
    // cache with a checksum, not a signature, like state.json. While it names the journal's
    // own record and the snapshot it was made on, it is believed — the difference shows
    // that each check below is what refuses it.
    const forged = (edit: (b: typeof body) => void) => {
      const b = JSON.parse(json) as typeof body;
      b.head.runId = "forged";
      edit(b);
      writeFileSync(file, checksummedLine(JSON.stringify(b)));
      return status(ws, "k");
    };
    const sealed = forged(() => {});
    expect(sealed).not.toBe(truth);
    expect(sealed).toMatch(/^run forged \(long\)/);
    // Not at a record's end, or not the version of the record there: the whole read.
    expect(forged((b) => (b.journalBytes -= 1))).toBe(truth);
    expect(forged((b) => (b.stateVersion -= 1))).toBe(truth);
    expect(forged((b) => (b.stateVersion += 1))).toBe(truth);
    expect(forged((b) => (b.recordAt += 1))).toBe(truth);
    expect(forged((b) => ((b.recordAt = 0), (b.journalBytes = 0)))).toBe(truth);
    // A symlink in its place, to an overview that would be believed, is not followed.
    forged(() => {});
    writeFileSync(join(ws, "elsewhere.json"), readFileSync(file));
    rmSync(file);
    symlinkSync(join(ws, "elsewhere.json"), file);
    expect(status(ws, "k")).toBe(truth);
    rmSync(file);

    // The journal saved anew (an editor's way: same bytes, another file): its earlier
    // records are no longer the ones the overview summed up.
    forged(() => {});
    const jf = join(dir, "journal.jsonl");
    writeFileSync(`${jf}.new`, readFileSync(jf));
    renameSync(`${jf}.new`, jf);
    expect(status(ws, "k")).toBe(truth);

    // Made on another snapshot (state.json replaced since: same bytes, a new change time).
    forged(() => {});
    const st = join(dir, "state.json");
    writeFileSync(st, readFileSync(st));
    expect(status(ws, "k")).toBe(truth);
  });

  it("runs lists a killed run from its overview as from its whole state", async () => {
    const ws = workspace("p.plan.yaml", plan);
    const dir = await killedRun(ws, "k", () => exists(join(runs(ws), "k", "overview.json")) && started(ws, "k") >= 300);
    const listed = () => JSON.parse(planspec(ws, ["runs", "--json"]).stdout) as Array<Record<string, unknown>>;
    const fast = listed();
    const file = join(dir, "overview.json");
    const original = readFileSync(file, "utf8");
    rmSync(file);
    const whole = listed();
    expect(fast).toEqual(whole);
    expect(whole).toEqual([expect.objectContaining({ id: "k", status: "running", plan: "long", total: 401 })]);
    // The overview is what was read: one left-out done step re-sealed as untouched shows one done fewer.
    writeFileSync(file, original);
    const doc = JSON.parse(original.slice(0, original.lastIndexOf(" "))) as { marks: string };
    writeFileSync(file, checksummedLine(JSON.stringify({ ...doc, marks: doc.marks.replace("d", "p") })));
    expect(listed()[0]!.done).toBe((whole[0]!.done as number) - 1);
  });

  it("a run directory rebuilt from links to another's files is refused, as the whole read refuses it", async () => {
    const ws = workspace("p.plan.yaml", plan);
    const real = await killedRun(ws, "k", () => exists(join(ws, "gate-entered")));
    // The run moved aside (its files keep their inode, size and change time) and a directory
    // made in its place: state.json a symlink to the real one, the journal a hard link.
    const moved = join(runs(ws), "k.real");
    renameSync(real, moved);
    mkdirSync(real);
    symlinkSync(join(moved, "state.json"), join(real, "state.json"));
    linkSync(join(moved, "journal.jsonl"), join(real, "journal.jsonl"));
    for (const f of ["plan.ir.json", "config.json", "overview.json"]) cpSync(join(moved, f), join(real, f));
    const r = planspec(ws, ["status", "k"]);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/state\.json is a symlink/);
  });

  it("a directory planted where the caches go fails nothing: the run ends, status reads the whole state", async () => {
    const ws = workspace("p.plan.yaml", plan.replace(/  hold: .*\n/, ""));
    const dir = join(ws, "planted");
    mkdirSync(join(dir, "overview.json"), { recursive: true });
    mkdirSync(join(dir, "overview-plan.idx"));
    const r = planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", dir, "--no-lint-gate"]);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.code, r.stderr).toBe(0);
    const s = planspec(ws, ["status", dir]);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout).toMatch(/400 steps: 400 done/);
  });

  it("a finished run has no overview left behind: its kept summary answers", async () => {
    const ws = workspace("p.plan.yaml", plan.replace(/  hold: .*\n/, ""));
    const r = planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", "fin", "--no-lint-gate"]);
    expect(r.code, r.stderr).toBe(0);
    expect(exists(join(runs(ws), "fin", "overview.json"))).toBe(false);
    expect(exists(join(runs(ws), "fin", "overview-plan.idx"))).toBe(false);
    expect(status(ws, "fin")).toMatch(/400 steps: 400 done/);
  });
});
