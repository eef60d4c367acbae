#!/usr/bin/env node
/**
 * Lint precision and recall on the labelled corpus (specs/lint/corpus/), or with
 * --holdout on the held-out corpus (specs/lint/holdout/, plans the rules were not tuned
 * on), or with --holdout2 on the second held-out corpus (specs/lint/holdout2/), or with
 * --holdout3 / --holdout4 on the third / fourth: the per-family table, the gate figures
 * (escapes, false blocks, blocked plans with no finding), the per-rule table, and every
 * miss and false alarm, in Markdown for bench/README.md.
 *
 *   node bench/lint-precision.mjs [--holdout | --holdout2 | --holdout3 | --holdout4] [--json out.json]
 *
 * The scoring lives in test/lint/corpus.ts (TypeScript, run against src/ by vitest), so
 * this runs test/lint/corpus.test.ts (or holdout.test.ts, holdout2.test.ts,
 * holdout3.test.ts, holdout4.test.ts) once with the report variable set and prints the report it writes.
 * The figures are deterministic; nothing here is timed.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
/** The corpora by flag: the labelled (tuning) corpus and the held-out ones, oldest first. */
const SUITES = {
  "": { test: "test/lint/corpus.test.ts", env: "PLANSPEC_CORPUS_REPORT", title: "the labelled corpus" },
  "--holdout": { test: "test/lint/holdout.test.ts", env: "PLANSPEC_HOLDOUT_REPORT", title: "the held-out corpus", dir: "specs/lint/holdout/" },
  "--holdout2": { test: "test/lint/holdout2.test.ts", env: "PLANSPEC_HOLDOUT2_REPORT", title: "the second held-out corpus", dir: "specs/lint/holdout2/" },
  "--holdout3": { test: "test/lint/holdout3.test.ts", env: "PLANSPEC_HOLDOUT3_REPORT", title: "the third held-out corpus", dir: "specs/lint/holdout3/" },
  "--holdout4": { test: "test/lint/holdout4.test.ts", env: "PLANSPEC_HOLDOUT4_REPORT", title: "the fourth held-out corpus", dir: "specs/lint/holdout4/" },
  "--holdout5": { test: "test/lint/holdout5.test.ts", env: "PLANSPEC_HOLDOUT5_REPORT", title: "the fifth held-out corpus", dir: "specs/lint/holdout5/" },
  "--holdout6": { test: "test/lint/holdout6.test.ts", env: "PLANSPEC_HOLDOUT6_REPORT", title: "the sixth held-out corpus", dir: "specs/lint/holdout6/" },
  "--holdout7": { test: "test/lint/holdout7.test.ts", env: "PLANSPEC_HOLDOUT7_REPORT", title: "the seventh held-out corpus", dir: "specs/lint/holdout7/" },
  "--holdout8": { test: "test/lint/holdout8.test.ts", env: "PLANSPEC_HOLDOUT8_REPORT", title: "the eighth held-out corpus", dir: "specs/lint/holdout8/" },
};
const flags = Object.keys(SUITES).filter((f) => f !== "");
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(
    `usage: node bench/lint-precision.mjs [${flags.join(" | ")}] [--json out.json]\n\n` +
      "  (no flag)        score the labelled corpus (specs/lint/corpus/)\n" +
      flags.map((f) => `  ${f.padEnd(16)} score ${SUITES[f].title} (${SUITES[f].dir})\n`).join("") +
      "  --json FILE      also write the score and every case's findings as JSON\n\n" +
      ["", ...flags].map((f) => `  $ node bench/lint-precision.mjs${f ? ` ${f}` : " > corpus-report.md"}\n`).join(""),
  );
  process.exit(0);
}
const chosen = flags.filter((f) => args.includes(f));
if (chosen.length > 1) fail(`${chosen.join(" and ")} score different corpora; give one`);
const suite = SUITES[chosen[0] ?? ""];
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
  const run = spawnSync(process.execPath, [vitest, "run", suite.test], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, [suite.env]: report, NO_COLOR: "1" },
  });
  if (!existsSync(report)) fail(`${suite.test} did not run (exit ${run.status}):\n${run.stdout}${run.stderr}`);
  process.stdout.write(`# lint precision on ${suite.title}\n\n${readFileSync(report, "utf8")}`);
  if (jsonOut) copyFileSync(`${report}.json`, jsonOut);
  if (run.status !== 0) process.stderr.write(`note: ${suite.test} failed (exit ${run.status}); a floor or a corpus check no longer holds\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function fail(message) {
  process.stderr.write(`lint-precision: ${message}\n`);
  process.exit(2);
}
