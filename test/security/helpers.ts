/** Helpers for the attack tests: a temp workspace, a plan and tool module in it, the real CLI. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../runtime/helpers.js";

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
