/**
 * Timing helpers shared by the benchmarks: whole-process runs (wall and CPU time),
 * in-process runs, medians, the machine description and Markdown tables.
 *
 * The reference machine is shared, so its speed drifts during a run. Measurements that are
 * compared with each other (a command and its floor) are therefore interleaved: each round
 * runs every task once, and medians are taken over rounds.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";

/** The median of a list of numbers (the mean of the middle two for even lengths). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// GNU time reports the child's user+sys CPU; on a shared machine CPU time is steadier than wall time.
const GNU_TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const STACK_TRACE = /^\s+at .+:\d+:\d+\)?$/m;
const scratch = mkdtempSync(join(tmpdir(), "planspec-bench-time-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

/** A task that runs `cmd args` once as a child process and returns its wall and CPU ms. */
export function processTask(cmd, args, { cwd, okCodes = [0] } = {}) {
  const timeFile = join(scratch, "t");
  return () => {
    const argv = GNU_TIME ? ["-f", "%U %S", "-o", timeFile, cmd, ...args] : args;
    const t0 = process.hrtime.bigint();
    const r = spawnSync(GNU_TIME ?? cmd, argv, { cwd, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 64 << 20 });
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.error) throw r.error;
    // An uncaught exception also exits 1, which lint uses for "found errors": a stack trace tells them apart.
    if (!okCodes.includes(r.status) || STACK_TRACE.test(String(r.stderr))) {
      throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${String(r.stderr).slice(0, 600)}`);
    }
    let cpuMs;
    if (GNU_TIME) {
      // With a non-zero exit GNU time writes a "Command exited..." line first; the figures are last.
      const [u, s] = readFileSync(timeFile, "utf8").trim().split(/\s+/).slice(-2).map(Number);
      cpuMs = (u + s) * 1000;
    }
    return { wallMs, cpuMs };
  };
}

/** A task that calls `fn` once in this process and returns its wall and CPU ms (and result). */
export function inProcessTask(fn) {
  return () => {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const result = fn();
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const c = process.cpuUsage(c0);
    return { wallMs, cpuMs: (c.user + c.system) / 1000, result };
  };
}

/**
 * Runs `warmup` untimed rounds, then `runs` timed rounds; each round runs every task once,
 * in order (a task named in `only` runs in the first `only[name]` rounds only). Returns, per
 * task, the median wall and CPU ms, the wall samples and the last result.
 */
export function interleave(tasks, { warmup = 0, runs = 5, only = {} } = {}) {
  const names = Object.keys(tasks);
  for (let i = 0; i < warmup; i++) for (const n of names) tasks[n]();
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < runs; i++) for (const n of names) if (i < (only[n] ?? runs)) samples[n].push(tasks[n]());
  const out = {};
  for (const n of names) {
    const s = samples[n];
    const cpu = s.map((x) => x.cpuMs).filter((x) => x !== undefined);
    out[n] = {
      wallMs: median(s.map((x) => x.wallMs)),
      cpuMs: cpu.length ? median(cpu) : undefined,
      // The best round is the least disturbed by other jobs: a check on medians taken under load.
      // (Wall, not CPU: CPU time is counted in scheduler ticks, too coarse for a 10 ms call.)
      minWallMs: Math.min(...s.map((x) => x.wallMs)),
      samples: s.map((x) => x.wallMs),
      result: s.at(-1)?.result,
    };
  }
  return out;
}

/** One line describing the machine and its load, printed beside every table. */
export function machine() {
  const c = cpus();
  const [l1, l5] = loadavg();
  return {
    nproc: c.length,
    cpu: c[0]?.model?.trim() ?? "unknown",
    node: process.version,
    load: `${l1.toFixed(2)} / ${l5.toFixed(2)}`,
    describe() {
      return `nproc ${this.nproc} (${this.cpu}), node ${this.node}, load average (1m/5m) at start ${this.load}`;
    },
  };
}

/** Milliseconds, to a precision that fits the magnitude. */
export function ms(x) {
  if (x === undefined || Number.isNaN(x)) return "–";
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/** A Markdown table from a header row and rows of cells. */
export function table(header, rows, align) {
  const a = align ?? header.map((_, i) => (i === 0 ? "---" : "---:"));
  return [header, a, ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
}
