/** Helpers for the attack tests: temp workspaces with the shared test tools, real CLI children, directory snapshots. */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { TEST_TOOLS, tempDir, writeFile } from "../runtime/helpers.js";
import { BIN, planspec, type Result } from "../cli/run-helpers.js";

export { planspec, startPlanspec, waitFor } from "../cli/run-helpers.js";
export { writeFile as put } from "../runtime/helpers.js";

/** A fresh temp directory: `prefix` and 6 random letters or digits (mkdtemp's). */
export const scratch = (prefix = "planspec-sec-"): string => tempDir(prefix);

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

/** Everything a run left where people and programs read: its directory, the terminal, `status --json`. */
export function everything(ws: string, runDir: string, outputs: string[]): string {
  const status = planspec(ws, ["status", runDir, "--json"]);
  return [...outputs, status.stdout, status.stderr, ...filesUnder(join(ws, runDir)).map((f) => readFileSync(f, "utf8"))].join("\n");
}

/**
 * Asserts that `text` holds no `needle`, and says where it does: a failed `not.toContain`
 * prints all of `text`, over 1 MiB with an exec step's artifact, and its one line is lost.
 */
export function absent(text: string, needle: string): void {
  const at = text.indexOf(needle);
  expect(at, at < 0 ? undefined : `${JSON.stringify(needle)} in …${JSON.stringify(text.slice(Math.max(0, at - 80), at + needle.length + 40))}…`).toBe(-1);
}

/** An executable shell script `dir/name`. */
export function program(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** The `approval.voided` events of the run in `ws/r`. */
export const voided = (ws: string) => events(join(ws, "r")).filter((e) => e.type === "approval.voided");

/** A plan that runs the workspace's node program `file` (read first, for a reviewer) with the secret APP_PASSWORD in its environment. */
export const secretPrintPlan = (file: string): string => `planspec: 1
name: print
goal: run the report program
secrets: [APP_PASSWORD]
tools: { fs.read: { risk: read }, exec: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  read_program:
    kind: read
    goal: read the report program
    tool: fs.read
    with: { path: ${file} }
    output: program
  report:
    kind: write
    needs: [read_program]
    goal: run the report program that was read
    tool: exec
    with: { command: ${process.execPath}, args: [${file}], env: { BYTES: "\${{ steps.read_program.output.bytes }}" } }
    output: log
`;
