#!/usr/bin/env node
/**
 * Where a step's wall time goes (issue 15, "per-step overhead"): a linear plan run
 * in-process, the run's journal syncs and its tool's calls timed with `performance.now`,
 * and each step cut into three phases:
 *
 * - sync: the record's `fdatasync` (the floor a durable step pays);
 * - set-up: from the sync's return to the tool's call (the attempt, the gateway's checks,
 *   the call's event): work that needs no durability and could overlap the sync;
 * - book-keeping: from the tool's return to the next record's sync (the output checked and
 *   stored, the step settled, the next one prepared, the record encoded and written).
 *
 *   npm run build && node bench/step-phases.mjs [--planspec DIR] [--steps 800] [--runs 8]
 *
 * The syncs are timed by wrapping `fs.fdatasyncSync` and `fs.fdatasync` (callback form, for
 * a build that syncs on libuv's threads) before the runtime is imported
 * (`syncBuiltinESMExports`); the tool is `tiny`'s body, timed inside. The first 3 runs warm
 * the JIT and are not counted. Medians and means in µs over every step of the counted runs.
 */
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join, resolve } from "node:path";
import { benchWorkspace, linearPlan } from "./lib/runtime-plan.mjs";
import { machine, table } from "./lib/measure.mjs";

const argOf = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const root = resolve(argOf("planspec", join(import.meta.dirname, "..")));
const STEPS = Number(argOf("steps", "800"));
const RUNS = Number(argOf("runs", "8"));
const WARM = 3;

/** Marks in time order: "s0"/"s1" a sync's start and end, "t0"/"t1" a tool call's. */
const marks = [];
const mark = (what) => marks.push(what, performance.now());
const { fdatasyncSync, fdatasync } = fs;
fs.fdatasyncSync = (fd) => {
  mark("s0");
  fdatasyncSync(fd);
  mark("s1");
};
fs.fdatasync = (fd, cb) => {
  mark("s0");
  fdatasync(fd, (err) => {
    mark("s1");
    cb(err);
  });
};
syncBuiltinESMExports();
globalThis.__planspecMark = mark;

const { compileSource } = await import(join(root, "dist", "compiler", "index.js"));
const { startRun } = await import(join(root, "dist", "runtime", "run.js"));
const { ws } = benchWorkspace();
const tools = join(ws, "marked-tools.mjs");
fs.writeFileSync(tools, `export default { tiny: { risk: "read", run: (args) => { globalThis.__planspecMark("t0"); const r = { i: args.i, ok: true }; globalThis.__planspecMark("t1"); return r; } } };\n`);

const ir = compileSource("bench.plan.yaml", linearPlan(STEPS)).ir;
const phases = { sync: [], "set-up": [], "book-keeping": [] };
const between = { "s0 s1": "sync", "s1 t0": "set-up", "t1 s0": "book-keeping" };
for (let r = 0; r < WARM + RUNS; r++) {
  marks.length = 0;
  const runDir = join(ws, `run-${r}`);
  const result = await startRun({ plan: ir, runDir, cwd: ws, inputs: {}, toolModules: [tools], concurrency: 4 });
  if (result.outcome.status !== "done") throw new Error(`run ${r} ended ${result.outcome.status}`);
  fs.rmSync(runDir, { recursive: true, force: true });
  if (r < WARM) continue;
  for (let i = 0; i + 3 < marks.length; i += 2) {
    const phase = between[`${marks[i]} ${marks[i + 2]}`];
    if (phase) phases[phase].push((marks[i + 3] - marks[i + 1]) * 1000);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`Machine: ${machine().describe()}. planspec ${root}; ${RUNS} runs of ${STEPS} steps after ${WARM} to warm up.\n`);
console.log(table(["phase", "median µs", "mean µs", "count"], Object.entries(phases).map(([k, xs]) => [k, median(xs).toFixed(1), mean(xs).toFixed(1), xs.length])));
