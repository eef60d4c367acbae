#!/usr/bin/env node
/**
 * Where the time goes: runs the slow cases under `node --cpu-prof` and prints the self time
 * per area (yaml, ajv, chevrotain, our src/ directories) and the top functions.
 *
 *   npm run build && node bench/profile.mjs [--cases compile-yaml,lint-yaml,compile-json,lint-json,corpus]
 *     [--keep DIR] [--data predictions.jsonl]
 *
 * Cases: compile / lint of the 10,000-step plan of bench/compile.mjs in YAML and JSON form,
 * and `planspec lint` over the imported TaskBench corpus.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarise, summaryMarkdown } from "./lib/cpuprof.mjs";
import { generatePlan, toJson, toYaml } from "./lib/gen-plan.mjs";
import { machine } from "./lib/measure.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "planspec");
const data = join(root, "..", "shared", "data", "taskbench", "multimedia");
const args = {};
for (let i = 2; i < process.argv.length; i++) if (process.argv[i].startsWith("--")) args[process.argv[i].slice(2)] = process.argv[++i];
const dataFile = args.data ?? join(data, "predictions-llama-3.3-70b-instruct.jsonl");
const cases = (args.cases ?? "compile-yaml,lint-yaml,compile-json,lint-json,corpus").split(",");

if (!existsSync(join(root, "dist", "cli", "main.js"))) {
  console.error("bench/profile.mjs: dist/ is missing; run `npm run build` first");
  process.exit(2);
}
const dir = args.keep ?? mkdtempSync(join(tmpdir(), "planspec-bench-prof-"));
mkdirSync(dir, { recursive: true });
try {
  console.log(`# CPU profiles\n\n${machine().describe()}\n`);
  const plan = generatePlan(10000);
  writeFileSync(join(dir, "bench-10000.plan.yaml"), toYaml(plan));
  writeFileSync(join(dir, "bench-10000.plan.json"), toJson(plan));
  const argv = {
    "compile-yaml": ["compile", "bench-10000.plan.yaml", "-o", "/dev/null"],
    "lint-yaml": ["lint", "bench-10000.plan.yaml", "--format", "json", "-o", "/dev/null"],
    "compile-json": ["compile", "bench-10000.plan.json", "-o", "/dev/null"],
    "lint-json": ["lint", "bench-10000.plan.json", "--format", "json", "-o", "/dev/null"],
    corpus: ["lint", "plans", "--format", "json", "-o", "/dev/null"],
  };
  if (cases.includes("corpus")) {
    const r = spawnSync(process.execPath, [bin, "import", "taskbench", dataFile, "--tools", join(dirname(dataFile), "tool_desc.json"), "--out", join(dir, "plans")]);
    if (r.status !== 0) throw new Error(`import failed: ${r.stderr}`);
  }
  for (const c of cases) {
    const profDir = join(dir, `prof-${c}`);
    rmSync(profDir, { recursive: true, force: true });
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir", profDir, bin, ...argv[c]], { cwd: dir, encoding: "utf8" });
    const wall = performance.now() - t0;
    if (r.status !== 0 && r.status !== 1) throw new Error(`${c}: exit ${r.status}: ${r.stderr}`);
    const file = join(profDir, readdirSync(profDir)[0]);
    console.log(`## ${c}: \`planspec ${argv[c].join(" ")}\` (${wall.toFixed(0)} ms wall under the profiler)\n`);
    console.log(summaryMarkdown(summarise(file, 20)) + "\n");
  }
} finally {
  if (!args.keep) rmSync(dir, { recursive: true, force: true });
}
