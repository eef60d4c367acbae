#!/usr/bin/env node
/**
 * PostgreSQL store benchmark (issue 8): runs per second with 1, 2, 4 and 8 worker
 * processes on short plans; per-step overhead of one run on the PostgreSQL store beside
 * the file store; and how long a SIGKILLed worker's run waits before another worker takes
 * it over. Needs `npm run build` and a PostgreSQL server (PLANSPEC_BENCH_PG, default
 * postgres://postgres@127.0.0.1:5432/postgres); works in a fresh database it drops after.
 *
 *   node bench/pg.mjs [--runs 200] [--steps 5]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { median } from "./lib/measure.mjs";

const root = join(import.meta.dirname, "..");
const dist = (p) => import(join(root, "dist", p));
const { compileSource } = await dist("compiler/index.js");
const { startRun } = await dist("runtime/run.js");
const { PgDatabase } = await dist("runtime/pg/db.js");
const { PgStore } = await dist("runtime/pg/pg-store.js");
const { submitRun } = await dist("runtime/pg/submit.js");

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg("runs", 200);
const STEPS = arg("steps", 5);
const ADMIN = process.env.PLANSPEC_BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";

const ws = mkdtempSync(join(tmpdir(), "planspec-bench-pg-"));
const tools = join(ws, "tools.mjs");
writeFileSync(
  tools,
  `import { existsSync } from "node:fs";
export default {
  echo: { risk: "read", run: (args) => args },
  gate: { risk: "read", run: async (args, ctx) => { while (!existsSync(args.file)) await new Promise((r) => setTimeout(r, 20)); return {}; } },
};`,
);
const linear = (n) =>
  `planspec: 1\nname: short\ngoal: a short linear plan\ntools: { echo: { risk: read } }\nlimits: { max_tool_calls: ${n + 5} }\nsteps:\n` +
  Array.from({ length: n }, (_, i) => `  s${i}: { kind: read, goal: step ${i}, tool: echo, with: { i: ${i} }${i ? `, needs: [s${i - 1}]` : ""} }\n`).join("");
const ir = (yaml) => compileSource("bench.plan.yaml", yaml).ir;

const name = `planspec_bench_${process.pid}`;
const admin = new pg.Client({ connectionString: ADMIN });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const u = new URL(ADMIN);
u.pathname = `/${name}`;
const url = u.toString();
const db = await PgDatabase.open(url, { check: false });
await db.migrate();

const out = [];
const log = (s) => {
  out.push(s);
  console.log(s);
};

try {
  // 1. One run in-process: ms per step, PostgreSQL store beside the file store.
  const plan50 = ir(linear(50));
  const perStep = { file: [], pg: [] };
  for (let round = 0; round < 5; round++) {
    let t = performance.now();
    await startRun({ plan: plan50, cwd: ws, inputs: {}, toolModules: [tools], runDir: `f${round}` });
    perStep.file.push((performance.now() - t) / 50);
    t = performance.now();
    await startRun({ plan: plan50, cwd: ws, inputs: {}, toolModules: [tools], store: new PgStore(db, `p${round}`) });
    perStep.pg.push((performance.now() - t) / 50);
  }
  log(`| store | ms per step (50-step linear run, median of 5) |\n|---|---|\n| file (state.json, fsync) | ${median(perStep.file).toFixed(2)} |\n| PostgreSQL (one statement per step boundary) | ${median(perStep.pg).toFixed(2)} |\n`);

  // 2. Runs per second with W worker processes on RUNS short runs.
  const plan = ir(linear(STEPS));
  const rows = [];
  for (const workers of [1, 2, 4, 8]) {
    await db.pool.query("TRUNCATE planspec.runs CASCADE");
    for (let i = 0; i < RUNS; i++) await submitRun({ db, plan, cwd: ws, inputs: {}, toolModules: [tools], runId: `w${workers}-${i}`, concurrency: 1 });
    const t = performance.now();
    await Promise.all(
      Array.from({ length: workers }, () => new Promise((res, rej) => {
        const c = spawn(process.execPath, [join(root, "bin/planspec"), "worker", "--store", url, "--concurrency", "4", "--poll", "20ms", "--exit-when-idle"], { stdio: "ignore" });
        c.once("exit", (code) => (code === 0 ? res() : rej(new Error(`worker exited ${code}`))));
      })),
    );
    const s = (performance.now() - t) / 1000;
    const done = (await db.pool.query("SELECT count(*)::int AS n FROM planspec.runs WHERE status = 'done'")).rows[0].n;
    rows.push(`| ${workers} | ${done}/${RUNS} | ${s.toFixed(2)} | ${(RUNS / s).toFixed(0)} | ${((s * 1000 * workers * 4) / (RUNS * STEPS)).toFixed(2)} |`);
  }
  // The file store beside it: the same runs one after another in one process.
  const tf = performance.now();
  for (let i = 0; i < RUNS; i++) await startRun({ plan, cwd: ws, inputs: {}, toolModules: [tools], runDir: `file-${i}`, concurrency: 1 });
  const sf = (performance.now() - tf) / 1000;
  log(`| workers (4 runs each) | done | seconds | runs/s | ms per step per slot |\n|---|---|---|---|---|\n${rows.join("\n")}\n| file store, 1 process, sequential | ${RUNS}/${RUNS} | ${sf.toFixed(2)} | ${(RUNS / sf).toFixed(0)} | ${((sf * 1000) / (RUNS * STEPS)).toFixed(2)} |\n`);

  // 3. Takeover: a worker is SIGKILLed mid-run; how long until another worker holds the run.
  const gated = ir(`planspec: 1\nname: held\ngoal: wait on a file\ntools: { gate: { risk: read } }\nlimits: { max_tool_calls: 5 }\nsteps:\n  g: { kind: read, goal: wait, tool: gate, with: { file: "${join(ws, "go")}" } }\n`);
  const take = [];
  for (const lease of [1000, 2000, 5000]) {
    await db.pool.query("TRUNCATE planspec.runs CASCADE");
    await submitRun({ db, plan: gated, cwd: ws, inputs: {}, toolModules: [tools], runId: `t${lease}` });
    const w = ["worker", "--store", url, "--lease", `${lease}ms`, "--poll", "100ms"];
    const first = spawn(process.execPath, [join(root, "bin/planspec"), ...w], { stdio: "ignore" });
    const gen = async () => Number((await db.pool.query("SELECT lease_generation AS g FROM planspec.runs")).rows[0].g);
    while ((await gen()) < 1) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 300));
    first.kill("SIGKILL");
    const t = performance.now();
    const second = spawn(process.execPath, [join(root, "bin/planspec"), ...w], { stdio: "ignore" });
    while ((await gen()) < 2) await new Promise((r) => setTimeout(r, 10));
    take.push(`| ${lease} | ${(performance.now() - t).toFixed(0)} |`);
    second.kill("SIGKILL");
  }
  log(`| lease (ms) | SIGKILL to takeover (ms; poll 100 ms) |\n|---|---|\n${take.join("\n")}\n`);
} finally {
  await db.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
