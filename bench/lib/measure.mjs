/**
 * Timing helpers shared by the benchmarks: whole-process runs (wall and CPU time),
 * in-process runs after warm-up, medians, the machine description and Markdown tables.
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

/**
 * Runs `cmd args` `runs` times; returns median wall ms, median CPU ms (user+sys, when
 * /usr/bin/time exists), every wall sample and the exit codes seen.
 */
export function timeProcess(cmd, args, { runs = 5, cwd, okCodes = [0] } = {}) {
  const walls = [];
  const cpusMs = [];
  const codes = new Set();
  const scratch = mkdtempSync(join(tmpdir(), "planspec-bench-time-"));
  const timeFile = join(scratch, "t");
  try {
    for (let i = 0; i < runs; i++) {
      const argv = GNU_TIME ? ["-f", "%U %S", "-o", timeFile, cmd, ...args] : args;
      const t0 = process.hrtime.bigint();
      const r = spawnSync(GNU_TIME ?? cmd, argv, { cwd, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 64 << 20 });
      const wall = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.error) throw r.error;
      codes.add(r.status);
      // An uncaught exception also exits 1, which lint uses for "found errors": a stack trace tells them apart.
      if (!okCodes.includes(r.status) || STACK_TRACE.test(String(r.stderr))) {
        throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${String(r.stderr).slice(0, 600)}`);
      }
      walls.push(wall);
      if (GNU_TIME) {
        const [u, s] = readFileSync(timeFile, "utf8").trim().split(/\s+/).slice(-2).map(Number);
        cpusMs.push((u + s) * 1000);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { wallMs: median(walls), cpuMs: cpusMs.length ? median(cpusMs) : undefined, samples: walls, codes: [...codes] };
}

/** Runs `fn` `warmup` times, then `runs` times; returns median wall and CPU ms of the timed runs. */
export function timeInProcess(fn, { warmup = 2, runs = 5 } = {}) {
  for (let i = 0; i < warmup; i++) fn();
  const walls = [];
  const cpuTimes = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    last = fn();
    walls.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    cpuTimes.push((c.user + c.system) / 1000);
  }
  return { wallMs: median(walls), cpuMs: median(cpuTimes), samples: walls, result: last };
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
  if (x === undefined) return "–";
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/** A Markdown table from a header row and rows of cells. */
export function table(header, rows, align) {
  const a = align ?? header.map((_, i) => (i === 0 ? "---" : "---:"));
  return [header, a, ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
}
