/**
 * Counts the syncs a whole process makes: `strace -f -c` of fsync and fdatasync (all threads and
 * children, so libuv's thread pool and SQLite's native code are seen too). With
 * `--seccomp-bpf` only those two syscalls stop the tracee, so the run is barely slowed; the
 * counts are exact, the time under strace is not reported.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const STRACE = ["/usr/bin/strace", "/bin/strace"].find((p) => existsSync(p));
const SYNCS = ["fsync", "fdatasync"];

/** Runs `cmd args` under strace; returns its exit status, stderr and the calls per sync syscall. */
export function countSyncs(cmd, args, { cwd, env } = {}) {
  if (!STRACE) throw new Error("strace not found");
  const dir = mkdtempSync(join(tmpdir(), "planspec-bench-strace-"));
  try {
    const out = join(dir, "summary");
    const r = spawnSync(STRACE, ["-f", "-c", "--seccomp-bpf", "-o", out, "-e", `trace=${SYNCS.join(",")}`, cmd, ...args], {
      cwd,
      env: env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 << 20,
    });
    const calls = Object.fromEntries(SYNCS.map((s) => [s, 0]));
    // strace -c rows: % time, seconds, usecs/call, calls, [errors,] syscall.
    for (const line of existsSync(out) ? readFileSync(out, "utf8").split("\n") : []) {
      const f = line.trim().split(/\s+/);
      if (SYNCS.includes(f.at(-1))) calls[f.at(-1)] = Number(f[3]);
    }
    return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr), calls, syncs: calls.fsync + calls.fdatasync };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
