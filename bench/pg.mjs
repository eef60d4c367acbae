#!/usr/bin/env node
/**
 * PostgreSQL store benchmark (issues 8 and 15): bytes sent to the server and ms per step
 * of one linear run at several sizes (with `--baseline DIR`, another checkout's build
 * beside this one, interleaved round by round, each in its own database); runs per second
 * with 1, 2, 4 and 8 worker processes on short plans; per-step overhead beside the file
 * store; and how long a SIGKILLed worker's run waits before another worker takes it over.
 * Needs `npm run build` (in DIR too) and a PostgreSQL server (PLANSPEC_BENCH_PG, default
 * postgres://postgres@127.0.0.1:5432/postgres); works in fresh databases it drops after.
 *
 *   node bench/pg.mjs [--runs 200] [--steps 5] [--sizes 50,200,800,3000] [--baseline DIR [--baseline-label main]] [--only sizes,store,workers,takeover]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { median } from "./lib/measure.mjs";

const root = join(import.meta.dirname, "..");
const dist = (p) => import(join(root, "dist", p));
const { compileSource } = await dist("compiler/index.js");
const { startRun } = await dist("runtime/run.js");
const { PgDatabase } = await dist("runtime/pg/db.js");
const { PgStore } = await dist("runtime/pg/pg-store.js");
const { submitRun } = await dist("runtime/pg/submit.js");

const text = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const arg = (name, dflt) => Number(text(name, dflt));
const RUNS = arg("runs", 200);
const STEPS = arg("steps", 5);
const SIZES = text("sizes", "50,200,800,3000").split(",").map(Number);
const BASELINE = text("baseline", undefined);
const BASELINE_LABEL = text("baseline-label", BASELINE);
const ONLY = text("only", undefined);
const ADMIN = process.env.PLANSPEC_BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";

// Bytes this process writes to the server: every socket to its port, whichever build's driver owns it.
const pgPort = Number(new URL(ADMIN).port || 5432);
let sent = 0;
const write = Socket.prototype.write;
Socket.prototype.write = function (chunk, ...rest) {
  if (this.remotePort === pgPort) sent += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
  return write.call(this, chunk, ...rest);
};

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

const admin = new pg.Client({ connectionString: ADMIN });
await admin.connect();
const databases = [];
/** A fresh database migrated by `Db` (a build's PgDatabase): its URL and the open database. */
async function freshDb(suffix, Db) {
  const name = `planspec_bench_${process.pid}${suffix}`;
  await admin.query(`CREATE DATABASE ${name}`);
  databases.push(name);
  const u = new URL(ADMIN);
  u.pathname = `/${name}`;
  const db = await Db.open(u.toString(), { check: false });
  await db.migrate();
  return { url: u.toString(), db };
}
const { url, db } = await freshDb("", PgDatabase);

const out = [];
const log = (s) => {
  out.push(s);
  console.log(s);
};

/** This build and, with --baseline, another checkout's: each with its own database (their schemas may differ). */
async function builds() {
  const list = [{ label: "this build", compileSource, startRun, PgStore, db }];
  if (BASELINE) {
    const d = (p) => import(join(resolve(BASELINE), "dist", p));
    const other = { label: BASELINE_LABEL, compileSource: (await d("compiler/index.js")).compileSource, startRun: (await d("runtime/run.js")).startRun, PgStore: (await d("runtime/pg/pg-store.js")).PgStore };
    other.db = (await freshDb("_base", (await d("runtime/pg/db.js")).PgDatabase)).db;
    list.unshift(other);
  }
  return list;
}

/** Bytes sent per step and ms per step of one linear run per size; builds take turns, the first alternating by round. */
async function perSize() {
  const list = await builds();
  const rows = [];
  for (const n of SIZES) {
    const rounds = n >= 3000 ? 1 : 3;
    const got = list.map(() => ({ ms: [], bytes: [] }));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [...list.keys()].reverse() : [...list.keys()];
      for (const i of order) {
        const b = list[i];
        const plan = b.compileSource("bench.plan.yaml", linear(n)).ir;
        const before = sent;
        const t = performance.now();
        const r = await b.startRun({ plan, cwd: ws, inputs: {}, toolModules: [tools], store: new b.PgStore(b.db, `size${n}-${round}`) });
        if (r.outcome.status !== "done") throw new Error(`${b.label}: ${n}-step run ended ${r.outcome.status}`);
        got[i].ms.push((performance.now() - t) / n);
        got[i].bytes.push((sent - before) / n);
      }
    }
    rows.push(`| ${n} | ${list.map((_b, i) => `${median(got[i].ms).toFixed(2)} | ${Math.round(median(got[i].bytes)).toLocaleString("en-US")}`).join(" | ")} |`);
  }
  for (const b of list) if (b.db !== db) await b.db.close();
  const head = list.map((b) => `${b.label} ms/step | ${b.label} bytes sent/step`).join(" | ");
  log(`| steps | ${head} |\n|---|${list.map(() => "---|---|").join("")}\n${rows.join("\n")}\n`);
}

/** One 50-step run in-process: ms per step, the PostgreSQL store beside the file store. */
async function beside() {
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
}

/** Runs per second with W worker processes on RUNS short runs, the file store beside them. */
async function workerThroughput() {
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
}

/** A worker is SIGKILLed mid-run: how long until another worker holds the run. */
async function takeover() {
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
}

const SECTIONS = { sizes: perSize, store: beside, workers: workerThroughput, takeover };

try {
  for (const [name, section] of Object.entries(SECTIONS)) if (!ONLY || ONLY.split(",").includes(name)) await section();
} finally {
  await db.close();
  for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
