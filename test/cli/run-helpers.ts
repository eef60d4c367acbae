/** Helpers for CLI run tests: the real `bin/planspec` in a child process (build first: npm run build). */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "../..");
export const BIN = join(ROOT, "bin/planspec");

export interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `planspec args...` in `cwd` and waits for it. */
export function planspec(cwd: string, args: string[], env: Record<string, string> = {}): Result {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, encoding: "utf8", timeout: 30_000 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Starts `planspec args...` without waiting. */
export function startPlanspec(cwd: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: "ignore" });
}

/**
 * Polls `cond` every 20 ms for up to `ms`. 30 s by default, half a test's time: on 2 cores
 * under a full run's load a CLI took more than 10 s to reach its first call.
 */
export async function waitFor(cond: () => boolean, ms = 30_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((res) => {
    child.once("exit", () => res());
    child.kill("SIGKILL");
  });
}

export function fileLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}
