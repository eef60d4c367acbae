#!/usr/bin/env node
/**
 * Runtime benchmark (SPEC §9 "Runtime"): linear plans of a trivial user tool run by the real
 * runtime (dist/), in-process (startRun) and whole-process (`planspec run`), beside the floor
 * (one durable atomic write of a state.json of the same size, measured right after each run);
 * state.json and run-directory sizes; resume of a finished and of a SIGKILLed run; and the
 * LangGraph JS + SqliteSaver peer when it is installed under bench/peers.
 *
 *   npm run build && node bench/runtime.mjs [--sizes 50,200,800,3000] [--big 10000] [--no-peer]
 *
 * 10,000 steps (`--big`) runs only if 3,000 steps predicts it finishes in under 3 minutes.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchWorkspace, dirSize, floorSamples, linearPlan, stateText } from "./lib/runtime-plan.mjs";
import { loadPeer, runPeer } from "./lib/runtime-peer.mjs";
import { machine, median, ms, table } from "./lib/measure.mjs";

const root = join(import.meta.dirname, "..");
const dist = (p) => import(join(root, "dist", p));
const { compileSource } = await dist("compiler/index.js");
const { startRun, resumeRun } = await dist("runtime/run.js");
const { writeFileAtomic } = await dist("runtime/atomic.js");

const argOf = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SIZES = argOf("sizes", "50,200,800,3000").split(",").map(Number);
const BIG = Number(argOf("big", "10000"));
const PEER = !process.argv.includes("--no-peer");
const m = machine();
const { ws, tools } = benchWorkspace();
const log = (s) => process.stderr.write(`${s}\n`);
const kb = (b) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MB` : `${(b / 1024).toFixed(1)} KB`);
const cli = (args, env = {}) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(root, "bin", "planspec"), ...args], { cwd: ws, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  return { wallMs: Number(process.hrtime.bigint() - t0) / 1e6, status: r.status, signal: r.signal, stderr: String(r.stderr) };
};
let seq = 0;

/** One in-process run of a linear plan; returns ms/step, state writes and the floor measured right after. */
async function inProcess(n, tool = "tiny") {
  const ir = compileSource(`linear${n}.plan.yaml`, linearPlan(n, tool)).ir;
  const runDir = join(ws, `ip-${n}-${tool}-${++seq}`);
  let writes = 0;
  // The machine is shared and drifts: the floor is sampled just before the run (on a text of
  // about the final state.json's size, ~290 B per node) and just after it (on the real one).
  const before = floorSamples(writeFileAtomic, "x".repeat(n * 290), 15);
  const t0 = process.hrtime.bigint();
  const r = await startRun({ plan: ir, runDir, cwd: ws, inputs: {}, toolModules: [tools], afterStateWrite: () => writes++ });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.outcome.status !== "done") throw new Error(`run of ${n} steps ended ${r.outcome.status}`);
  const text = stateText(runDir);
  const floor = median([...before, ...floorSamples(writeFileAtomic, text, 15)]);
  return { runDir, perStep: wallMs / n, ratio: wallMs / n / floor, writesPerStep: writes / n, stateBytes: Buffer.byteLength(text), floor, size: dirSize(runDir) };
}

/** One whole-process `planspec run`; returns wall ms. */
function wholeProcess(n, env = {}) {
  const plan = join(ws, `linear${n}.plan.yaml`);
  writeFileSync(plan, linearPlan(n));
  const runDir = join(ws, `wp-${n}-${++seq}`);
  const r = cli(["run", plan, "--tools", tools, "--run-dir", runDir], env);
  return { ...r, runDir };
}

async function timed(fn) {
  const t0 = process.hrtime.bigint();
  const out = await fn();
  return { wallMs: Number(process.hrtime.bigint() - t0) / 1e6, out };
}

log(`machine: ${m.describe()}`);
const fixed = median([1, 2, 3].map(() => wholeProcess(1).wallMs));
log(`whole-process fixed cost (1-step plan): ${ms(fixed)} ms`);
await inProcess(20); // warm the module cache and the JIT

const rows = [];
const sizes = [...SIZES];
for (let k = 0; k < sizes.length; k++) {
  const n = sizes[k];
  const reps = n <= 800 ? 3 : 1;
  const ip = [];
  const wp = [];
  for (let r = 0; r < reps; r++) {
    ip.push(await inProcess(n));
    const w = wholeProcess(n);
    if (w.status !== 0) throw new Error(`planspec run (${n}) exited ${w.status}: ${w.stderr.slice(0, 400)}`);
    wp.push(w.wallMs);
    rmSync(w.runDir, { recursive: true, force: true });
  }
  const last = ip.at(-1);
  const resumes = [];
  for (let i = 0; i < 3; i++) resumes.push((await timed(() => resumeRun(last.runDir))).wallMs);
  const resumeIp = median(resumes);
  const resumeWp = cli(["resume", last.runDir]).wallMs;
  const row = {
    n,
    perStep: median(ip.map((x) => x.perStep)),
    floor: median(ip.map((x) => x.floor)),
    ratio: median(ip.map((x) => x.ratio)),
    writes: last.writesPerStep,
    wpPerStep: median(wp) / n,
    wpNet: (median(wp) - fixed) / n,
    stateBytes: last.stateBytes,
    dirBytes: last.size.bytes,
    files: last.size.files,
    resumeIp,
    resumeWp,
  };
  rows.push(row);
  log(`${n}: ${JSON.stringify(row)}`);
  for (const x of ip.slice(0, -1)) rmSync(x.runDir, { recursive: true, force: true });
  if (k === sizes.length - 1 && BIG > n && row.perStep * BIG * 2.2 < 180_000) sizes.push(BIG);
  else if (k === sizes.length - 1 && BIG > n) log(`skipping ${BIG} steps: predicted ${ms((row.perStep * BIG * 2.2) / 1000)} s`);
}

// state.json with 100 KB outputs beside small outputs, same plan length.
const big = await inProcess(200, "big");
const small = rows.find((r) => r.n === 200) ?? (await inProcess(200));

// A run SIGKILLed half-way through, resumed in-process: time until the first step runs again, and in total.
const nKill = rows.at(-1).n;
const killed = wholeProcess(nKill, { BENCH_KILL_AT: `s${nKill >> 1}` });
let firstStepMs;
const t0 = process.hrtime.bigint();
const resumed = await resumeRun(killed.runDir, {
  onEvent: (e) => {
    if (firstStepMs === undefined && e.type === "node.transition" && e.data.to === "running") firstStepMs = Number(process.hrtime.bigint() - t0) / 1e6;
  },
});
const killResumeTotal = Number(process.hrtime.bigint() - t0) / 1e6;

const peerRows = [];
const peer = PEER ? loadPeer() : undefined;
let peerError = peer?.error;
if (peer && !peer.error) {
  try {
    await runPeer(peer, 5, join(ws, "peer-probe.sqlite"));
  } catch (err) {
    peerError = String(err.message ?? err).split("\n")[0];
  }
}
if (peer && !peerError) {
  for (const n of [50, 200, 800]) {
    const xs = [];
    for (let r = 0; r < (n <= 200 ? 3 : 1); r++) xs.push(await runPeer(peer, n, join(ws, `peer-${n}-${r}.sqlite`)));
    const mine = rows.find((x) => x.n === n);
    peerRows.push({ n, perStep: median(xs.map((x) => x.wallMs)) / n, bytes: xs.at(-1).bytes, mine });
    log(`peer ${n}: ${ms(median(xs.map((x) => x.wallMs)) / n)} ms/step, ${kb(xs.at(-1).bytes)}`);
  }
}

const out = [];
out.push(`Machine: ${m.describe()}; load at end ${machine().load}.`, "");
out.push(
  table(
    ["steps", "ms/step in-process", "state writes/step", "floor ms (1 durable write)", "ratio", "ms/step whole-process (net of fixed)", "state.json", "run dir (files)", "bytes/step", "resume done run in-proc / CLI ms"],
    rows.map((r) => [r.n, ms(r.perStep), r.writes.toFixed(2), ms(r.floor), `${r.ratio.toFixed(2)}×`, `${ms(r.wpPerStep)} (${ms(r.wpNet)})`, kb(r.stateBytes), `${kb(r.dirBytes)} (${r.files})`, Math.round(r.dirBytes / r.n), `${ms(r.resumeIp)} / ${ms(r.resumeWp)}`]),
  ),
  "",
  `Whole-process fixed cost (1-step plan): ${ms(fixed)} ms.`,
  `state.json at 200 steps: ${kb(small.stateBytes)} with small outputs, ${kb(big.stateBytes)} with 100 KB outputs (run dir ${kb(small.dirBytes)} vs ${kb(big.size.bytes)}).`,
  `SIGKILL at step ${nKill >> 1} of ${nKill} (exit signal ${killed.signal}), resume in-process: first step runs again after ${ms(firstStepMs)} ms; the remaining steps finish after ${ms(killResumeTotal)} ms (${resumed.outcome.status}, ${resumed.resume.reset.length} reset).`,
);
if (peerRows.length) {
  out.push("", `Peer: ${peer.versions.join(", ")}, linear StateGraph, SqliteSaver (file).`, "");
  out.push(table(["steps", "peer ms/step", "peer DB", "planspec ms/step", "planspec run dir", "speed-up"], peerRows.map((p) => [p.n, ms(p.perStep), kb(p.bytes), ms(p.mine?.perStep), p.mine ? kb(p.mine.dirBytes) : "–", p.mine ? `${(p.perStep / p.mine.perStep).toFixed(1)}×` : "–"])));
} else {
  out.push("", `Peer not measured: ${!PEER ? "--no-peer" : peerError ?? "not installed under bench/peers"}.`);
}
console.log(out.join("\n"));
