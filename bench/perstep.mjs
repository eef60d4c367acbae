#!/usr/bin/env node
/**
 * Per-step cost of two builds side by side (issue 15, "per-step overhead"): linear plans run
 * in-process by each build in turn, round after round (the order flips every round), so a
 * burst of load or a slow spell of the file system hits both alike.
 *
 *   node bench/perstep.mjs --a DIR --b DIR [--sizes 50,200,800,3000] [--reps 7] [--keep-runs] [--fixed N]
 *
 * DIR is a checkout (or a frozen copy) with dist/ built. Per size and build: the median over
 * rounds of net wall ms/step and net CPU ms/step (user, system; every thread of the process),
 * net of a 1-step run of the same build in the same round, as bench/journal.mjs does (the
 * 1-step run's own wall and CPU ms are printed too, though it may collect the garbage of
 * the long run before it: `--fixed N` first times N rounds of 1-step runs alone), and
 * the floor (one fdatasync'ed 200-byte append, journal.mjs's) sampled at every round.
 * By default every run directory is removed right after its run, as journal.mjs does;
 * `--keep-runs` keeps them until the end. On the bench machine's ext4 this matters: a file
 * created soon after many deletions costs up to ~0.9 ms instead of ~0.05 (bench/README.md).
 */
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { appendFloorSamples, benchWorkspace, linearPlan } from "./lib/runtime-plan.mjs";
import { machine, median, ms, table } from "./lib/measure.mjs";

const argOf = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SIZES = argOf("sizes", "50,200,800,3000").split(",").map(Number);
const REPS = Number(argOf("reps", "7"));
const KEEP = process.argv.includes("--keep-runs");
const builds = [];
for (const label of ["a", "b"]) {
  const dir = argOf(label);
  if (!dir) throw new Error(`--${label} DIR is required`);
  const root = resolve(dir);
  builds.push({
    label,
    root,
    compileSource: (await import(join(root, "dist", "compiler", "index.js"))).compileSource,
    startRun: (await import(join(root, "dist", "runtime", "run.js"))).startRun,
  });
}
const { ws, tools } = benchWorkspace();
let seq = 0;

/** One in-process run of a linear plan of `n` steps by `build`: wall and CPU ms. */
async function run(build, n) {
  const ir = build.compileSource("bench.plan.yaml", linearPlan(n)).ir;
  const runDir = join(ws, `run-${++seq}`);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await build.startRun({ plan: ir, runDir, cwd: ws, inputs: {}, toolModules: [tools], concurrency: 4 });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (r.outcome.status !== "done") throw new Error(`${build.root}: a run of ${n} steps ended ${r.outcome.status}`);
  if (!KEEP) rmSync(runDir, { recursive: true, force: true });
  return { wallMs, userMs: cpu.user / 1000, sysMs: cpu.system / 1000 };
}

const m = machine();
console.log(`Machine: ${m.describe()}. a = ${builds[0].root}, b = ${builds[1].root}; ${REPS} rounds per size; run directories ${KEEP ? "kept to the end" : "removed after each run"}.\n`);
for (const b of builds) await run(b, 200); // the module cache and the JIT
// --fixed N: N rounds of 1-step runs alone, alternating builds (no long run before them,
// whose garbage a 1-step run would otherwise collect): a run's fixed cost.
const FIXED = Number(argOf("fixed", "0"));
if (FIXED > 0) {
  const one = Object.fromEntries(builds.map((b) => [b.label, { wall: [], cpu: [] }]));
  for (let r = 0; r < FIXED; r++) {
    for (const b of r % 2 ? [...builds].reverse() : builds) {
      const x = await run(b, 1);
      one[b.label].wall.push(x.wallMs);
      one[b.label].cpu.push(x.userMs + x.sysMs);
    }
  }
  const [a, b] = builds.map((x) => one[x.label]);
  console.log(table(["1-step runs", "a wall ms", "b wall ms", "b / a", "a CPU ms", "b CPU ms"], [[FIXED, ms(median(a.wall)), ms(median(b.wall)), `${(median(b.wall) / median(a.wall)).toFixed(2)}×`, ms(median(a.cpu)), ms(median(b.cpu))]]));
  console.log("");
}
const rows = [];
for (const n of SIZES) {
  const per = Object.fromEntries(builds.map((b) => [b.label, { wall: [], user: [], sys: [], one: [], oneCpu: [] }]));
  const floor = [];
  for (let r = 0; r < REPS; r++) {
    floor.push(...appendFloorSamples().samples);
    for (const b of r % 2 ? [...builds].reverse() : builds) {
      const one = await run(b, 1);
      const big = await run(b, n);
      const net = (k) => (big[k] - one[k]) / (n - 1);
      per[b.label].wall.push(net("wallMs"));
      per[b.label].user.push(net("userMs"));
      per[b.label].sys.push(net("sysMs"));
      // The 1-step run: what a run costs before its steps count (its fixed cost).
      per[b.label].one.push(one.wallMs);
      per[b.label].oneCpu.push(one.userMs + one.sysMs);
    }
  }
  const [a, b] = builds.map((x) => per[x.label]);
  const cpu = (p) => median(p.user.map((u, i) => u + p.sys[i]));
  const f = median(floor);
  const x = (v) => `${v.toFixed(2)}×`;
  rows.push([n, ms(median(a.wall)), ms(median(b.wall)), x(median(b.wall) / median(a.wall)), ms(f), `${x(median(a.wall) / f)} / ${x(median(b.wall) / f)}`, ms(cpu(a)), ms(cpu(b)), `${ms(median(a.user))} / ${ms(median(b.user))}`, `${ms(median(a.sys))} / ${ms(median(b.sys))}`, `${ms(median(a.one))} / ${ms(median(b.one))}`, `${ms(median(a.oneCpu))} / ${ms(median(b.oneCpu))}`]);
  process.stderr.write(`${n}: ${JSON.stringify(rows.at(-1))}\n`);
}
console.log(table(["steps", "a net ms/step", "b net ms/step", "b / a", "floor ms", "net ratio a / b", "a net CPU ms/step", "b net CPU ms/step", "user a / b", "system a / b", "1-step run ms a / b", "1-step CPU ms a / b"], rows));
