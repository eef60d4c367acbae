/**
 * The code a run's calls execute besides planspec: its tool modules (`--tools`) and the
 * files its stdio MCP servers start from. The fs tools refuse these files (run.ts), and an
 * approval is bound to their content (binding.ts): an approved call must not run code that
 * was swapped (`resume --tools other.mjs`) or edited since the approval.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { PlanIR } from "../ir.js";
import { sha256 } from "../compiler/canonical.js";

/**
 * The files a stdio MCP server of the plan is started from: its command when it is a path,
 * and each argument that names an existing file (resolved as the pool resolves them, from
 * the server's `cwd`).
 */
export function serverPrograms(plan: PlanIR, baseDir: string): string[] {
  const out: string[] = [];
  for (const spec of Object.values(plan.mcp ?? {})) {
    if (spec.transport === "http") continue;
    const cwd = resolve(baseDir, spec.cwd ?? ".");
    const candidates = [...(spec.command.includes("/") ? [spec.command] : []), ...spec.args.filter((a) => !a.startsWith("-"))];
    for (const c of candidates) {
      const p = resolve(cwd, c);
      if (statSync(p, { throwIfNoEntry: false })?.isFile()) out.push(p);
    }
  }
  return out;
}

/** A digest of the run's code: each tool module and server program (`serverPrograms`) by path and content (a missing file counts as missing). */
export function codeDigest(modules: readonly string[], programs: readonly string[]): string {
  const files = [...modules.map((m) => resolve(m)), ...programs];
  const parts = files.map((f) => {
    let content: string;
    try {
      content = sha256(readFileSync(f, "utf8"));
    } catch {
      content = "missing";
    }
    return `${f}\n${content}`;
  });
  return sha256(parts.join("\n"));
}

/** Where a run's relative MCP paths are resolved from: its plan file's directory, else `cwd`. */
export function planDir(cwd: string, planFile: string | undefined): string {
  return planFile ? dirname(resolve(cwd, planFile)) : cwd;
}
