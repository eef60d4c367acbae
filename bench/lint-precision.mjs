#!/usr/bin/env node
/**
 * Lint precision and recall on the labelled corpus (specs/lint/corpus/): the per-family
 * table, the gate figures (escapes, false blocks, blocked plans with no finding), the
 * per-rule table, and every miss and false alarm, in Markdown for bench/README.md.
 *
 *   node bench/lint-precision.mjs [--json out.json]
 *
 * The scoring lives in test/lint/corpus.ts (TypeScript, run against src/ by vitest), so
 * this runs test/lint/corpus.test.ts once with PLANSPEC_CORPUS_REPORT set and prints the
 * report it writes. The figures are deterministic; nothing here is timed.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write("usage: node bench/lint-precision.mjs [--json out.json]\n\n  $ node bench/lint-precision.mjs > corpus-report.md\n");
  process.exit(0);
}
const jsonAt = args.indexOf("--json");
const jsonOut = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
if (jsonAt >= 0 && !jsonOut) fail("--json expects a file name");

const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
if (!existsSync(vitest)) fail("vitest is not installed; run `npm ci` first");
const dir = mkdtempSync(join(tmpdir(), "planspec-lint-precision-"));
const report = join(dir, "report.md");
try {
  // The floors may fail (that is a finding, not a reason to print nothing): the report is
  // written before the assertions run, so print it whenever it exists.
  const run = spawnSync(process.execPath, [vitest, "run", "test/lint/corpus.test.ts"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, PLANSPEC_CORPUS_REPORT: report, NO_COLOR: "1" },
  });
  if (!existsSync(report)) fail(`the corpus test did not run (exit ${run.status}):\n${run.stdout}${run.stderr}`);
  process.stdout.write(`# lint precision on the labelled corpus\n\n${readFileSync(report, "utf8")}`);
  if (jsonOut) copyFileSync(`${report}.json`, jsonOut);
  if (run.status !== 0) process.stderr.write(`note: test/lint/corpus.test.ts failed (exit ${run.status}); a floor or a corpus check no longer holds\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function fail(message) {
  process.stderr.write(`lint-precision: ${message}\n`);
  process.exit(2);
}
