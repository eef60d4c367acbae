#!/usr/bin/env node
/**
 * Issue 15's front-end targets, before against after: two frozen builds (each a directory
 * with bin/, dist/, schemas/, package.json and node_modules) run the same commands in
 * interleaved rounds, whole process, so the machine's drift hits both alike.
 *
 *   node bench/front-compare.mjs --before /work/snap/fbase --after . [--runs 7] [--data predictions.jsonl]
 *
 * Cases: `lint --format json` and `compile` of generated 1,000- and 10,000-step plans in
 * YAML and JSON, lint of a 5-step plan (the fixed cost), `--version`, `node -e 0`, and
 * `lint DIR` over the imported TaskBench corpus (the corpus gate). Prints median (min–max)
 * wall ms and median (min–max) user+sys CPU ms (GNU time), and the CPU per step of the
 * 1,000- and 10,000-step lints after the 5-step lint's fixed cost.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generatePlan, toJson, toYaml } from "./lib/gen-plan.mjs";
import { machine, median, processTask, table } from "./lib/measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const args = {};
for (let i = 2; i < process.argv.length; i++) if (process.argv[i].startsWith("--")) args[process.argv[i].slice(2)] = process.argv[++i];
const runs = Number(args.runs ?? 7);
const builds = { before: resolve(args.before ?? ""), after: resolve(args.after ?? join(here, "..")) };
for (const [k, d] of Object.entries(builds)) {
  if (!existsSync(join(d, "bin", "planspec")) || !existsSync(join(d, "dist", "cli", "main.js"))) {
    console.error(`bench/front-compare.mjs: --${k} ${d} is not a built planspec (bin/planspec, dist/)`);
    process.exit(2);
  }
}
const dataFile = args.data ?? join(here, "..", "..", "shared", "data", "taskbench", "multimedia", "predictions-llama-3.3-70b-instruct.jsonl");

const dir = mkdtempSync(join(tmpdir(), "planspec-bench-front-"));
try {
  const m = machine();
  const plans = {};
  for (const n of [5, 1000, 10000]) {
    const plan = generatePlan(n);
    writeFileSync((plans[`${n}.yaml`] = join(dir, `p${n}.plan.yaml`)), toYaml(plan));
    writeFileSync((plans[`${n}.json`] = join(dir, `p${n}.plan.json`)), toJson(plan));
  }
  const corpus = join(dir, "corpus");
  const hasCorpus = existsSync(dataFile);
  if (hasCorpus) {
    const r = spawnSync(process.execPath, [join(builds.after, "bin", "planspec"), "import", "taskbench", dataFile, "--tools", join(dirname(dataFile), "tool_desc.json"), "--out", corpus]);
    if (r.status !== 0) throw new Error(`import failed: ${r.stderr}`);
  }
  const lint = (file) => ["lint", file, "--format", "json", "-o", "/dev/null"];
  const cases = {
    "lint 10,000 YAML": lint(plans["10000.yaml"]),
    "lint 10,000 JSON": lint(plans["10000.json"]),
    "compile 10,000 YAML": ["compile", plans["10000.yaml"], "-o", "/dev/null"],
    "compile 10,000 JSON": ["compile", plans["10000.json"], "-o", "/dev/null"],
    "lint 1,000 YAML": lint(plans["1000.yaml"]),
    "lint 1,000 JSON": lint(plans["1000.json"]),
    "lint 5 YAML": lint(plans["5.yaml"]),
    "--version": ["--version"],
    ...(hasCorpus ? { "lint corpus DIR": lint(corpus) } : {}),
  };
  const tasks = { "node -e 0": processTask(process.execPath, ["-e", "0"]) };
  for (const [name, argv] of Object.entries(cases)) {
    for (const [b, d] of Object.entries(builds)) tasks[`${name} | ${b}`] = processTask(process.execPath, [join(d, "bin", "planspec"), ...argv], { cwd: dir, okCodes: [0, 1] });
  }
  console.log(`# front end: before ${builds.before} vs after ${builds.after}\n\n${m.describe()}\n`);
  // Each round runs every task once, before and after side by side; the order of the two
  // alternates between rounds so neither always runs first.
  const samples = Object.fromEntries(Object.keys(tasks).map((k) => [k, []]));
  const names = Object.keys(tasks);
  for (const n of names) tasks[n](); // warm the page cache
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i < names.length; i++) {
      const n = names[i];
      if (r % 2 === 1 && n.endsWith("| before") && names[i + 1]?.endsWith("| after")) {
        samples[names[i + 1]].push(tasks[names[i + 1]]());
        samples[n].push(tasks[n]());
        i++;
        continue;
      }
      samples[n].push(tasks[n]());
    }
  }
  const stat = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
  const rows = [];
  const cpuMed = {};
  for (const n of names) {
    const s = samples[n];
    const cpu = s.map((x) => x.cpuMs).filter((x) => x !== undefined);
    cpuMed[n] = cpu.length ? median(cpu) : NaN;
    const [name, build = ""] = n.split(" | ");
    rows.push([name, build, stat(s.map((x) => x.wallMs)), cpu.length ? stat(cpu) : "–"]);
  }
  console.log(`Whole process, ${runs} interleaved rounds; median (min–max). Load average at the end ${machine().load}.\n`);
  console.log(table(["case", "build", "wall ms", "CPU ms (user+sys)"], rows, ["---", "---", "---:", "---:"]));
  console.log("\nCPU per step after the fixed cost (lint of n steps − lint of 5 steps) / (n − 5), µs:\n");
  const perStep = [];
  for (const form of ["YAML", "JSON"]) {
    for (const b of Object.keys(builds)) {
      const fixed = cpuMed[`lint 5 YAML | ${b}`];
      const at = (n, label) => ((cpuMed[`lint ${label} ${form} | ${b}`] - fixed) * 1000) / (n - 5);
      perStep.push([`${form} ${b}`, at(1000, "1,000").toFixed(0), at(10000, "10,000").toFixed(0)]);
    }
  }
  console.log(table(["form build", "1,000 steps", "10,000 steps"], perStep));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
