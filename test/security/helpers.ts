/** Helpers for the attack tests: temp workspaces with the shared test tools, real CLI children, directory snapshots. */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { TEST_TOOLS, tempDir, writeFile } from "../runtime/helpers.js";
import { BIN, type Result } from "../cli/run-helpers.js";

export { planspec, startPlanspec, waitFor } from "../cli/run-helpers.js";
export { writeFile as put } from "../runtime/helpers.js";

/** A fresh temp directory. */
export const scratch = (): string => tempDir("planspec-sec-");

/** Every regular file under `dir`, recursively (symlinks are not followed). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

export function json<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

export function events(runDir: string): Array<{ type: string; data: Record<string, unknown> }> {
  return readFileSync(join(runDir, "events.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
}

export function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

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

/**
 * A plan that reads deploy.sh for a reviewer, then runs `command` behind an approval: what
 * the red teams rewrite, re-point or shadow between the approval and the resume.
 */
export const reviewedDeployPlan = (command: string): string => `planspec: 1
name: deploy
goal: deploy the reviewed release
tools: { fs.read: { risk: read }, exec: { risk: external } }
limits: { max_tool_calls: 5 }
steps:
  read_script:
    kind: read
    goal: read the deploy script for the reviewer
    tool: fs.read
    with: { path: deploy.sh }
    output: script
  deploy:
    kind: external
    needs: [read_script]
    goal: run the deploy script that was read and reviewed
    tool: exec
    with: { command: "${command}", env: { BYTES: "\${{ steps.read_script.output.bytes }}" } }
    idempotency_key: "deploy:\${{ run.id }}"
    approval: { required: true, approvers: [release-manager], timeout: 24h }
`;
