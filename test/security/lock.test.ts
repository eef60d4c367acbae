/**
 * One writer per run: many processes resuming the same run at once, and read-only
 * commands (status, report, runs) in a loop beside a live run. Real child processes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { readEvents, readState, tempDir } from "../runtime/helpers.js";
import { fileLines, killHard, planspec, ROOT, startPlanspec, waitFor } from "../cli/run-helpers.js";
import { planspecAsync, snapshot, STACK, workspace } from "./helpers.js";

const HELD = (approval: boolean) => `planspec: 1
name: held
goal: Prepare and pay an invoice
tools:
  echo: { risk: read }
  gate: { risk: write }
  ledger: { risk: external }
limits: { max_tool_calls: 50 }
steps:
  load: { kind: read, goal: Load the invoice, tool: echo, with: { amount: 42 }, output: invoice }
  prepare:
    kind: write
    goal: Prepare the payment
    needs: [load]
    tool: gate
    risk: write
    idempotency_key: "\${{ run.id }}:prepare"
    with: { release: release }
    output: prepared${approval ? "\n    approval: { required: true }" : ""}
  pay:
    kind: external
    goal: Pay the invoice
    needs: [prepare]
    tool: ledger
    risk: external
    idempotency_key: "\${{ run.id }}:pay"
    with: { entry: "\${{ steps.load.output.amount }}" }
    output: payment
`;

const N = 50;

/** Starts N resumes at once; waits until all but the one holding the run have exited; releases it. */
async function stampede(ws: string, id: string, extra: string[]) {
  // A start line: every process loads the CLI's modules, then waits for "go" before the
  // CLI runs, so all N reach the lock within milliseconds of each other.
  const barrier = join(ws, "barrier.mjs");
  const warm = ["cli/main.js", "cli/resume.js", "cli/store.js", "cli/runs.js", "runtime/run.js", "runtime/inputs.js"].map((m) => `await import(${JSON.stringify(join(ROOT, "dist", m))});`).join("\n");
  writeFileSync(barrier, `import { appendFileSync, existsSync } from "node:fs";\n${warm}\nconst s = new Int32Array(new SharedArrayBuffer(4));\nappendFileSync(${JSON.stringify(join(ws, "ready"))}, "x");\nwhile (!existsSync(${JSON.stringify(join(ws, "go"))})) Atomics.wait(s, 0, 0, 1);\n`);
  const env = { NODE_OPTIONS: `--import=${barrier}` };
  const results = Array.from({ length: N }, () => planspecAsync(ws, ["resume", id, ...extra], env));
  await waitFor(() => existsSync(join(ws, "ready")) && readFileSync(join(ws, "ready"), "utf8").length >= N, 120_000);
  writeFileSync(join(ws, "go"), "");
  const settled: Array<Awaited<(typeof results)[number]>> = [];
  results.forEach((p) => void p.then((r) => settled.push(r)));
  // Losers exit at once; the winner blocks in the gate until "release" exists (more than
  // one would, if more than one got through: then wait until no one else exits).
  let seen = -1;
  let quietSince = Date.now();
  await waitFor(() => {
    if (settled.length !== seen) [seen, quietSince] = [settled.length, Date.now()];
    return settled.length >= N - 1 || Date.now() - quietSince > 5000;
  }, 120_000);
  await new Promise((r) => setTimeout(r, 500));
  writeFileSync(join(ws, "release"), "");
  const all = await Promise.all(results);
  return all;
}

const payCalls = (ws: string) => fileLines(join(ws, "calls.log")).filter((c) => c === "ledger:pay").length;

function checkOneWriter(ws: string, id: string, all: Array<{ code: number | null; stderr: string }>) {
  const runDir = join(ws, ".planspec/runs", id);
  const proceeded = all.filter((r) => r.code === 0);
  const refused = all.filter((r) => r.code === 2 && /in use by process \d+/.test(r.stderr));
  const seqs = readEvents(runDir).map((e) => e.seq);
  const resumed = readEvents(runDir).filter((e) => e.type === "run.resumed").length;
  console.log(`[race] ${N} simultaneous resumes of ${id}: ${proceeded.length} proceeded, ${refused.length} refused, ${resumed} run.resumed events, ${seqs.length - new Set(seqs).size} duplicate seq numbers, ledger calls ${payCalls(ws)}`);
  expect(proceeded, all.map((r) => `${r.code} ${r.stderr}`).join("\n")).toHaveLength(1);
  expect(refused).toHaveLength(N - 1);
  expect(resumed).toBe(1);
  expect(seqs).toEqual(seqs.map((_s, i) => i));
  expect(fileLines(join(ws, "ledger.txt"))).toEqual([`${id}:pay 42`]);
  expect(payCalls(ws)).toBe(1);
  expect(readState(runDir).status).toBe("done");
  for (const r of all) expect(r.stderr).not.toMatch(STACK);
}

/** N processes that load the run lock, wait at a start line, then all try to take it at once. */
async function lockRace(dir: string, stale: boolean): Promise<number> {
  const lock = join(dir, "lock");
  if (stale) writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 7, startedAt: new Date(0).toISOString(), host: hostname() }));
  const script = join(dir, "contender.mjs");
  writeFileSync(
    script,
    `import { appendFileSync, existsSync } from "node:fs";
import { acquireLock, releaseLock } from ${JSON.stringify(join(ROOT, "dist/runtime/lock.js"))};
const s = new Int32Array(new SharedArrayBuffer(4));
appendFileSync(${JSON.stringify(join(dir, "ready"))}, "x");
while (!existsSync(${JSON.stringify(join(dir, "go"))})) Atomics.wait(s, 0, 0, 1);
try { acquireLock(${JSON.stringify(lock)}); } catch { process.exit(2); }
appendFileSync(${JSON.stringify(join(dir, "winners"))}, process.pid + "\\n");
Atomics.wait(s, 0, 0, 1500);
releaseLock(${JSON.stringify(lock)});
`,
  );
  const children = Array.from({ length: N }, () => new Promise<number | null>((res) => spawn(process.execPath, [script], { stdio: "ignore" }).on("close", res)));
  await waitFor(() => existsSync(join(dir, "ready")) && readFileSync(join(dir, "ready"), "utf8").length >= N, 120_000);
  writeFileSync(join(dir, "go"), "");
  await Promise.all(children);
  return fileLines(join(dir, "winners")).length;
}

describe("one writer per run", () => {
  it(`the run lock: ${N} processes released at one instant, 6 rounds, with and without a stale lock: one holder each round`, async () => {
    const winners: number[] = [];
    for (let round = 0; round < 6; round++) winners.push(await lockRace(tempDir("planspec-lock-"), round % 2 === 0));
    console.log(`[race] lock: ${N} processes x 6 rounds, holders per round: ${winners.join(",")}`);
    expect(winners).toEqual(winners.map(() => 1));
  }, 240_000);

  it("a lock is stale only when its owner is gone: a live pid with another start time (pid reused) is taken over, the same start time is not", async () => {
    const sleeper = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await waitFor(() => existsSync(`/proc/${sleeper.pid}/stat`));
      const stat = readFileSync(`/proc/${sleeper.pid}/stat`, "utf8");
      const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
      const dir = tempDir("planspec-lock-");
      const lock = join(dir, "lock");
      const script = join(dir, "take.mjs");
      writeFileSync(script, `import { acquireLock } from ${JSON.stringify(join(ROOT, "dist/runtime/lock.js"))};\ntry { console.log(acquireLock(${JSON.stringify(lock)}) ? "took over" : "fresh"); } catch (e) { console.log(e.message); process.exit(2); }\n`);
      const take = () => spawnSync(process.execPath, [script], { encoding: "utf8" });
      const owner = (s: string) => writeFileSync(lock, JSON.stringify({ pid: sleeper.pid, start: s, startedAt: new Date().toISOString(), host: hostname() }));
      owner(start);
      const live = take();
      expect(live.status).toBe(2);
      expect(live.stdout).toMatch(new RegExp(`in use by process ${sleeper.pid}`));
      owner(String(Number(start) + 1));
      const reused = take();
      expect(reused.status, reused.stdout).toBe(0);
      expect(reused.stdout.trim()).toBe("took over");
      expect(JSON.parse(readFileSync(lock, "utf8")).pid).not.toBe(sleeper.pid);
    } finally {
      sleeper.kill("SIGKILL");
    }
  });

  const ROUNDS = 2;
  it(`${N} simultaneous resumes of an interrupted run (stale lock of a killed process), ${ROUNDS} rounds: exactly one proceeds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const ws = workspace("held.plan.yaml", HELD(false));
      const id = `interrupted-${round}`;
      const child = startPlanspec(ws, ["run", "held.plan.yaml", "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate"]);
      await waitFor(() => fileLines(join(ws, "gate-entered")).length > 0);
      await killHard(child);
      expect(existsSync(join(ws, ".planspec/runs", id, "lock"))).toBe(true);
      const all = await stampede(ws, id, ["--rerun-interrupted"]);
      checkOneWriter(ws, id, all);
      expect(fileLines(join(ws, "gate-entered"))).toEqual(["prepare", "prepare"]);
    }
  }, 300_000);

  it(`${N} simultaneous resumes of an approved paused run (no lock file yet), ${ROUNDS} rounds: exactly one proceeds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const ws = workspace("held.plan.yaml", HELD(true));
      const id = `approved-${round}`;
      expect(planspec(ws, ["run", "held.plan.yaml", "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate"]).code).toBe(3);
      expect(planspec(ws, ["approve", id, "prepare", "--by", "ops"]).code).toBe(0);
      const all = await stampede(ws, id, []);
      checkOneWriter(ws, id, all);
      expect(fileLines(join(ws, "gate-entered"))).toEqual(["prepare"]);
    }
  }, 300_000);

  it("status, report and runs never change a run directory (a live writer's temp files stay)", () => {
    const ws = workspace("held.plan.yaml", HELD(true));
    expect(planspec(ws, ["run", "held.plan.yaml", "--tools", "tools.mjs", "--run-id", "quiet", "--no-lint-gate"]).code).toBe(3);
    const runDir = join(ws, ".planspec/runs/quiet");
    // What a writer in the middle of an atomic replace has on disk.
    writeFileSync(join(runDir, `.state.json.${process.pid}.7.tmp`), "{");
    // (artifacts/ is made at a run's first output too long for the state.)
    mkdirSync(join(runDir, "artifacts"), { recursive: true });
    writeFileSync(join(runDir, "artifacts", `.${"a".repeat(64)}.json.${process.pid}.8.tmp`), "{");
    const before = snapshot(runDir);
    for (const args of [["status", "quiet"], ["status", "quiet", "--json"], ["report", "quiet", "-o", "r.html"], ["runs"]]) {
      const r = planspec(ws, args);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).not.toBe(2);
      expect(snapshot(runDir), args.join(" ")).toEqual(before);
    }
  });

  it("status and report in a loop beside a live run: no crash, no duplicate effect", async () => {
    const steps = Array.from({ length: 40 }, (_, i) =>
      i % 4 === 3
        ? `  s${i}: { kind: external, goal: Pay ${i}, ${i ? `needs: [s${i - 1}], ` : ""}tool: ledger, risk: external, idempotency_key: "k${i}", with: { entry: ${i} }, output: o${i} }`
        : `  s${i}: { kind: read, goal: Read ${i}, ${i ? `needs: [s${i - 1}], ` : ""}tool: slow, with: { ms: 40, pad: "${"x".repeat(2000)}" }, output: o${i} }`,
    ).join("\n");
    const plan = `planspec: 1\nname: busy\ngoal: Many small steps\ntools:\n  slow: { risk: read }\n  ledger: { risk: external }\nlimits: { max_tool_calls: 200 }\nsteps:\n${steps}\n`;
    let iterations = 0;
    let failures = 0;
    const runs = 4;
    for (let k = 0; k < runs; k++) {
      const ws = workspace("busy.plan.yaml", plan);
      const id = `busy-${k}`;
      const run = planspecAsync(ws, ["run", "busy.plan.yaml", "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate", "--concurrency", "1"]);
      let over = false;
      void run.then(() => (over = true));
      await waitFor(() => existsSync(join(ws, ".planspec/runs", id, "state.json")));
      const loop = async (args: string[]) => {
        while (!over) {
          const r = await planspecAsync(ws, args);
          iterations++;
          expect(r.stderr).not.toMatch(STACK);
          expect([0, 3], `${args.join(" ")}: ${r.stderr}`).toContain(r.code);
        }
      };
      await Promise.all([loop(["status", id]), loop(["report", id, "-o", "r.html"]), loop(["status", id, "--json"])]);
      const r = await run;
      if (r.code !== 0) failures++;
      expect(r.code, r.stderr).toBe(0);
      const ledger = fileLines(join(ws, "ledger.txt"));
      expect(ledger).toHaveLength(10);
      expect(new Set(ledger).size).toBe(10);
      const seqs = readEvents(join(ws, ".planspec/runs", id)).map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_s, i) => i));
    }
    console.log(`[race] status/report loop: ${runs} live runs, ${iterations} read-only commands beside them, ${failures} runs failed`);
  }, 240_000);
});
