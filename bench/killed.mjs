/**
 * `status` and `resume` of a run killed mid-step (issue 15: a 100,000-step run, resume ≤ 1 s,
 * status ≤ 0.3 s), whole process, beside `node -e 0`, in interleaved rounds:
 *
 *   node bench/killed.mjs [--steps 100000] [--dir DIR] [--runs 5]
 *
 * The run is a linear plan of trivial read steps (bench/lib/runtime-plan.mjs) whose tool
 * SIGKILLs the process inside step `s<steps-10>` (BENCH_KILL_AT): a crash with state.json,
 * a journal tail, and the writer's overview. It is built once into DIR (default a temp
 * directory; an existing DIR holding one is reused: building 100,000 steps takes ≈ 45 s).
 *
 * Measured: `status` as a user runs it (the overview and the journal's tail), `status` of a
 * copy without overview.json (the whole read, what every status of a killed run did
 * before), and `resume` of a fresh copy each round (the copy is made and synced untimed).
 * `--planspec DIR` measures another checkout's bin/ and dist/ on the same run.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { interleave, machine, ms, processTask, table } from "./lib/measure.mjs";
import { linearPlan, TOOLS_MODULE } from "./lib/runtime-plan.mjs";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const STEPS = Number(arg("steps", "100000"));
const RUNS = Number(arg("runs", "5"));
const root = resolve(import.meta.dirname, "..");
const bin = join(resolve(arg("planspec", root)), "bin/planspec");
const dir = resolve(arg("dir", mkdtempSync(join(tmpdir(), "planspec-bench-killed-"))));
const run = join(dir, "run.orig");

const m = machine();
if (!existsSync(join(run, "state.json"))) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "plan.yaml"), linearPlan(STEPS));
  writeFileSync(join(dir, "tools.mjs"), TOOLS_MODULE);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [bin, "run", "plan.yaml", "--tools", "tools.mjs", "--run-id", "killed", "--run-dir", run, "--no-lint-gate"], {
    cwd: dir,
    env: { ...process.env, BENCH_KILL_AT: `s${STEPS - 10}` },
    stdio: "ignore",
  });
  if (r.signal !== "SIGKILL") throw new Error(`the run was to kill itself at s${STEPS - 10}; it ended with ${r.status ?? r.signal}`);
  console.error(`built a killed ${STEPS}-step run in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${run}`);
}
const whole = join(dir, "run.whole");
rmSync(whole, { recursive: true, force: true });
cpSync(run, whole, { recursive: true });
rmSync(join(whole, "overview.json"), { force: true });

// resume changes the run: each round resumes a fresh copy, made before the timed call.
const fresh = join(dir, "run.resume");
const resume = processTask(process.execPath, [bin, "resume", fresh], { cwd: dir });
const resumeFresh = () => {
  rmSync(fresh, { recursive: true, force: true });
  cpSync(run, fresh, { recursive: true });
  // The copy's 100 MB of dirty pages would otherwise be written back during the resume's syncs.
  spawnSync("sync");
  return resume();
};

const t = interleave(
  {
    node: processTask(process.execPath, ["-e", "0"]),
    status: processTask(process.execPath, [bin, "status", run], { cwd: dir }),
    statusWhole: processTask(process.execPath, [bin, "status", whole], { cwd: dir }),
    resume: resumeFresh,
  },
  { warmup: 1, runs: RUNS },
);
const size = (f) => (existsSync(join(run, f)) ? `${(statSync(join(run, f)).size / 1e6).toFixed(2)} MB` : "–");
console.log(`Machine: ${m.describe()}; load at end ${machine().load}. Run: ${STEPS} steps killed at s${STEPS - 10}; state.json ${size("state.json")}, journal.jsonl ${size("journal.jsonl")}, overview.json ${size("overview.json")}, plan.ir.json ${size("plan.ir.json")}.\n`);
const row = (name, x, target) => [name, ms(x.wallMs), `${ms(Math.min(...x.samples))}–${ms(Math.max(...x.samples))}`, ms(x.cpuMs), target];
console.log(
  table(
    ["whole process", "median wall ms", "range", "CPU ms", "target"],
    [
      row("`node -e 0`", t.node, ""),
      row("`planspec status` (overview + journal tail)", t.status, "≤ 300"),
      row("`planspec status` without overview.json (whole read)", t.statusWhole, ""),
      row("`planspec resume` (a fresh copy each round)", t.resume, "≤ 1000"),
    ],
  ),
);
