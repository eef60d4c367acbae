/** Helpers for the MCP tests: real servers from npm, the SDK fixture server, the real CLI. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { planspec, ROOT } from "../cli/run-helpers.js";
import type { RunEvent } from "../../src/runtime/store.js";

export const FS_SERVER = join(ROOT, "node_modules/.bin/mcp-server-filesystem");
export const MEMORY_SERVER = join(ROOT, "node_modules/.bin/mcp-server-memory");
export const FIXTURE_SERVER = join(ROOT, "test/mcp/fixtures/stdio-server.mjs");

/** `planspec import mcp NAME -o NAME.catalog.yaml -- COMMAND...` in `cwd`; returns the parsed catalogue. */
export function importCatalogue(cwd: string, name: string, command: string[], env: Record<string, string> = {}): { tools: Record<string, Record<string, unknown>> } {
  const r = planspec(cwd, ["import", "mcp", name, "-o", `${name}.catalog.yaml`, "--", ...command], env);
  if (r.code !== 0) throw new Error(`import mcp failed (${r.code}): ${r.stderr}`);
  return parse(readFileSync(join(cwd, `${name}.catalog.yaml`), "utf8"));
}

/** The single run directory under `cwd/.planspec/runs`. */
export function onlyRunDir(cwd: string): string {
  const root = join(cwd, ".planspec/runs");
  const dirs = readdirSync(root);
  if (dirs.length !== 1) throw new Error(`expected one run in ${root}, found ${dirs.join(", ")}`);
  return join(root, dirs[0]!);
}

export function events(runDir: string): RunEvent[] {
  return readFileSync(join(runDir, "events.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RunEvent);
}

/** Calls of `tool` the runtime made, over every session of a run. */
export function toolCalls(runDir: string, tool: string): number {
  return events(runDir).filter((e) => e.type === "tool.call" && (e.data as { tool: string }).tool === tool).length;
}

/** Every file below `dir` (relative paths), skipping `.planspec`. */
export function filesBelow(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (rel === ".planspec") continue;
    if (e.isDirectory()) out.push(...filesBelow(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}
