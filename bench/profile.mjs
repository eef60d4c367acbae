#!/usr/bin/env node
/**
 * Where the time goes: runs the slow cases under `node --cpu-prof` and prints the self time
 * per area (yaml, ajv, chevrotain, our src/ directories) and the top functions.
 *
 *   npm run build && node bench/profile.mjs [--cases compile-yaml,lint-yaml,compile-json,lint-json,corpus,startup-100]
 *     [--keep DIR] [--data predictions.jsonl]
 *
 * Cases: compile / lint of the 10,000-step plan of bench/compile.mjs in YAML and JSON form,
 * `planspec lint` over the imported TaskBench corpus, and lint of a 100-step plan (start-up).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarise, summaryMarkdown } from "./lib/cpuprof.mjs";
import { generatePlan, toJson, toYaml } from "./lib/gen-plan.mjs";
import { machine, table } from "./lib/measure.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "planspec");
const data = join(root, "..", "shared", "data", "taskbench", "multimedia");
const args = {};
for (let i = 2; i < process.argv.length; i++) if (process.argv[i].startsWith("--")) args[process.argv[i].slice(2)] = process.argv[++i];
const dataFile = args.data ?? join(data, "predictions-llama-3.3-70b-instruct.jsonl");
const cases = (args.cases ?? "compile-yaml,lint-yaml,compile-json,lint-json,corpus,startup-100").split(",");

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
  writeFileSync(join(dir, "bench-100.plan.yaml"), toYaml(generatePlan(100)));
  const argv = {
    "compile-yaml": ["compile", "bench-10000.plan.yaml", "-o", "/dev/null"],
    "lint-yaml": ["lint", "bench-10000.plan.yaml", "--format", "json", "-o", "/dev/null"],
    "compile-json": ["compile", "bench-10000.plan.json", "-o", "/dev/null"],
    "lint-json": ["lint", "bench-10000.plan.json", "--format", "json", "-o", "/dev/null"],
    corpus: ["lint", "plans", "--format", "json", "-o", "/dev/null"],
    // The fixed cost every command pays: module loading, schema compilation, parser set-up.
    "startup-100": ["lint", "bench-100.plan.yaml", "--format", "json", "-o", "/dev/null"],
  };
  if (cases.includes("corpus")) {
    const r = spawnSync(process.execPath, [bin, "import", "taskbench", dataFile, "--tools", join(dirname(dataFile), "tool_desc.json"), "--out", join(dir, "plans")]);
    if (r.status !== 0) throw new Error(`import failed: ${r.stderr}`);
  }
  const summaries = {};
  for (const c of cases) {
    const profDir = join(dir, `prof-${c}`);
    rmSync(profDir, { recursive: true, force: true });
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir", profDir, bin, ...argv[c]], { cwd: dir, encoding: "utf8" });
    const wall = performance.now() - t0;
    if (r.status !== 0 && r.status !== 1) throw new Error(`${c}: exit ${r.status}: ${r.stderr}`);
    const file = join(profDir, readdirSync(profDir)[0]);
    console.log(`## ${c}: \`planspec ${argv[c].join(" ")}\` (${wall.toFixed(0)} ms wall under the profiler)\n`);
    summaries[c] = summarise(file, 20);
    console.log(summaryMarkdown(summaries[c]) + "\n");
  }
  // The cases side by side, as shares of each profile, to compare where each spends its time.
  const stages = [...new Set(Object.values(summaries).flatMap((s) => s.stages.map(([st]) => st)))];
  const share = (s, st) => {
    const ms = s.stages.find(([x]) => x === st)?.[1] ?? 0;
    return `${((100 * ms) / s.totalMs).toFixed(0)}%`;
  };
  console.log("## Stages side by side (% of each profile's samples)\n");
  console.log(
    table(
      ["stage", ...cases],
      [...stages.map((st) => [st, ...cases.map((c) => share(summaries[c], st))]), ["total ms of samples", ...cases.map((c) => summaries[c].totalMs.toFixed(0))]],
    ),
  );
} finally {
  if (!args.keep) rmSync(dir, { recursive: true, force: true });
}
