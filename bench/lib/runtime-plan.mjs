/**
 * Fixtures and measures for the runtime benchmarks: linear and fan-out plans, the trivial tool
 * module, run-directory sizes, I/O counters and the floors (one durable atomic write of a
 * state.json-sized file; one fdatasync'ed append of a small record).
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The user tool module. `tiny` returns a small object; `big` returns ~100 KB that differs per
 * step (artifacts are content-addressed, so equal outputs would be stored once). With
 * BENCH_KILL_AT=<step id> the process SIGKILLs itself inside that step: a crash mid-run.
 */
export const TOOLS_MODULE = `
const pad = "x".repeat(100 * 1024);
const maybeDie = (ctx) => {
  if (process.env.BENCH_KILL_AT === ctx.stepId) process.kill(process.pid, "SIGKILL");
};
export default {
  tiny: { risk: "read", run: (args, ctx) => { maybeDie(ctx); return { i: args.i, ok: true }; } },
  // Longer than a reference (64 bytes of JSON): stored as an artifact file, not in the state.
  medium: { risk: "read", run: (args, ctx) => { maybeDie(ctx); return { i: args.i, text: "m".repeat(100) }; } },
  big: { risk: "read", run: (args, ctx) => { maybeDie(ctx); return { i: args.i, blob: args.i + pad }; } },
};
`;

/** A linear plan of `n` read steps, each calling `tool` and depending on the one before. */
export function linearPlan(n, tool = "tiny") {
  const head =
    `planspec: 1\nname: linear${n}\ngoal: a linear chain of ${n} trivial steps\n` +
    `tools: { ${tool}: { risk: read } }\nlimits: { max_tool_calls: ${n + 10} }\nsteps:\n`;
  const steps = Array.from(
    { length: n },
    (_, i) => `  s${i}: { kind: analyze, goal: step ${i}, tool: ${tool}, with: { i: ${i} }${i ? `, needs: [s${i - 1}]` : ""}, output: r${i} }\n`,
  );
  return head + steps.join("");
}

/**
 * Fan-out 1 -> `width` -> 1: a root step, `width` independent steps that all need it, and a
 * join that needs them all — the shape where steps become ready together (group commit).
 */
export function fanOutPlan(width, tool = "tiny") {
  const n = width + 2;
  const head =
    `planspec: 1\nname: fanout${width}\ngoal: one step fanning out to ${width} parallel steps and back into one\n` +
    `tools: { ${tool}: { risk: read } }\nlimits: { max_tool_calls: ${n + 10} }\nsteps:\n`;
  const step = (id, i, needs) => `  ${id}: { kind: analyze, goal: step ${i}, tool: ${tool}, with: { i: ${i} }${needs}, output: r${i} }\n`;
  const fans = Array.from({ length: width }, (_, i) => step(`f${i}`, i + 1, ", needs: [root]"));
  const join = step("join", width + 1, `, needs: [${fans.map((_, i) => `f${i}`).join(", ")}]`);
  return head + step("root", 0, "") + fans.join("") + join;
}

/** Total bytes of the regular files under `dir`, and how many there are. */
export function dirSize(dir) {
  let bytes = 0;
  let files = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const sub = dirSize(p);
      bytes += sub.bytes;
      files += sub.files;
    } else if (e.isFile()) {
      bytes += statSync(p).size;
      files++;
    }
  }
  return { bytes, files };
}

/**
 * The floor: ms of each of `reps` durable atomic replaces (temp file, fdatasync, rename,
 * fsync of the held-open directory — what the store does per state write) of `text`,
 * using the runtime's own primitive so both sides pay the same syscalls.
 */
export function floorSamples(writeFileAtomic, text, reps = 30) {
  const dir = mkdtempSync(join(tmpdir(), "planspec-bench-floor-"));
  const dirFd = openSync(dir, "r");
  try {
    const file = join(dir, "state.json");
    writeFileSync(file, text);
    const xs = [];
    for (let i = 0; i < reps; i++) {
      const t0 = process.hrtime.bigint();
      writeFileAtomic(file, text, true, dirFd);
      xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    return xs;
  } finally {
    closeSync(dirFd);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The journal floor: the ms of one `fdatasync`ed append of a `record`-byte line to a file held
 * open in append mode — what a journal must pay at least once per durable step. Each of the
 * `blocks` samples is the mean of `reps` appends (a run's ms/step is a mean too, so a slow sync
 * now and then weighs the same on both sides); also returns the bytes the appends caused to be
 * written to storage (/proc/self/io `write_bytes`, whole pages) per append.
 */
export function appendFloorSamples({ blocks = 3, reps = 50, record = 200 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "planspec-bench-floor-"));
  const line = `${"x".repeat(record - 1)}\n`;
  const fd = openSync(join(dir, "journal"), "a");
  try {
    const io0 = procIo();
    const xs = [];
    for (let b = 0; b < blocks; b++) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < reps; i++) {
        writeSync(fd, line);
        fdatasyncSync(fd);
      }
      xs.push(Number(process.hrtime.bigint() - t0) / 1e6 / reps);
    }
    const io1 = procIo();
    return { samples: xs, writeBytesPerAppend: (io1.write_bytes - io0.write_bytes) / (blocks * reps) };
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * This process's I/O counters (/proc/self/io): `wchar` counts the bytes passed to write(2),
 * `write_bytes` the bytes sent to storage (counted per page dirtied, so it sees rewrites).
 */
export function procIo() {
  const out = {};
  for (const line of readFileSync("/proc/self/io", "utf8").trim().split("\n")) {
    const [k, v] = line.split(": ");
    out[k] = Number(v);
  }
  return out;
}

/** The state.json text of a run directory. */
export function stateText(runDir) {
  return readFileSync(join(runDir, "state.json"), "utf8");
}

/** A fresh scratch directory for one benchmark session. */
export function scratchDir() {
  return mkdtempSync(join(tmpdir(), "planspec-bench-rt-"));
}

/** A scratch workspace removed when the process exits, holding the tool module: `{ ws, tools }`. */
export function benchWorkspace() {
  const ws = scratchDir();
  process.on("exit", () => rmSync(ws, { recursive: true, force: true }));
  const tools = join(ws, "tools.mjs");
  writeFileSync(tools, TOOLS_MODULE);
  return { ws, tools };
}
