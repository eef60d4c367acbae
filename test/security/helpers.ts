/** Helpers for the attack tests: workspaces with the shared test tools, real CLI children, directory snapshots. */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { TEST_TOOLS, tempDir, writeFile } from "../runtime/helpers.js";
import { BIN, type Result } from "../cli/run-helpers.js";

/** A workspace holding the test tools and one plan file. */
export function workspace(planName: string, planText: string, prefix = "planspec-sec-"): string {
  const ws = tempDir(prefix);
  writeFile(ws, "tools.mjs", TEST_TOOLS);
  writeFile(ws, planName, planText);
  return ws;
}

/** Runs `planspec args...` in `cwd` without blocking the test's event loop. */
export function planspecAsync(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: "1", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Every file under `dir` with the sha256 of its content (a before/after picture of a run directory). */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p, r);
      else out[r] = `${createHash("sha256").update(readFileSync(p)).digest("hex")} ${statSync(p).mtimeMs}`;
    }
  };
  walk(dir, "");
  return out;
}

/** A stack trace line in output: user-facing errors must never show one. */
export const STACK = /^\s+at .+:\d+:\d+\)?$/m;
