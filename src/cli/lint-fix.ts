/** `planspec lint --fix` / `--fix-dry-run`: rewrite plan files with the mechanical fixes of their findings. */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { CompileResult } from "../compiler/index.js";
import type { ResolvedConfig } from "../lint/config.js";
import type { Rule } from "../lint/rule.js";
import { type CliIO, UsageError, write } from "./io.js";

export interface FixTarget {
  file: string;
  config: ResolvedConfig;
}

/** Fixes each file (or prints the diff); returns how many files changed. */
export async function runFixes(
  targets: readonly FixTarget[],
  opts: { cwd: string; rules: readonly Rule[]; dryRun: boolean; /** The original a revised plan is linted against (`--against`). */ originalOf?: (file: string) => CompileResult | undefined },
  io: CliIO,
): Promise<number> {
  const [{ fixSource }, { unifiedDiff }] = await Promise.all([import("../lint/fix.js"), import("../diff/unified.js")]);
  let changed = 0;
  for (const t of targets) {
    const path = resolve(opts.cwd, t.file);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      continue; // the lint pass reports the unreadable file
    }
    const original = opts.originalOf?.(t.file);
    const fixed = fixSource(t.file, text, { cwd: opts.cwd, config: t.config, rules: opts.rules, ...(original ? { original } : {}) });
    if (fixed.text === text) continue;
    changed++;
    if (opts.dryRun) {
      await write(io.stdout, unifiedDiff(t.file, text, fixed.text));
      continue;
    }
    try {
      // In place: a symlinked plan stays a symlink and the file keeps its mode.
      writeFileSync(path, fixed.text);
    } catch (err) {
      throw new UsageError(`cannot write ${t.file}: ${(err as Error).message}`);
    }
    const n = fixed.applied.length;
    await write(io.stderr, `fixed ${t.file}: ${n} fix${n === 1 ? "" : "es"} (${fixed.applied.map((f) => f.description).join("; ")})\n`);
  }
  return changed;
}
