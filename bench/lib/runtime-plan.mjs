/**
 * Fixtures and measures for the runtime benchmark: linear plans, the trivial tool module,
 * run-directory sizes and the floor (one durable atomic write of a state.json-sized file).
 */
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
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

/** The state.json text of a run directory. */
export function stateText(runDir) {
  return readFileSync(join(runDir, "state.json"), "utf8");
}

/** A fresh scratch directory for one benchmark session. */
export function scratchDir() {
  return mkdtempSync(join(tmpdir(), "planspec-bench-rt-"));
}
