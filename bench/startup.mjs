#!/usr/bin/env node
/**
 * What start-up costs (SPEC §9 cold start, and the fixed part of every compile or lint):
 * whole-process time of importing each heavy module alone, beside `node -e 0`, and of the
 * CLI doing nothing (`--version`) or the least real work (compile/lint of a 5-step plan).
 *
 *   npm run build && node bench/startup.mjs [--runs 15]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generatePlan, toYaml } from "./lib/gen-plan.mjs";
import { interleave, machine, ms, processTask, table } from "./lib/measure.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "planspec");
const at = process.argv.indexOf("--runs");
const runs = at > 0 ? Number(process.argv[at + 1]) : 15;
const dir = mkdtempSync(join(tmpdir(), "planspec-bench-startup-"));
try {
  const plan = join(dir, "small.plan.yaml");
  writeFileSync(plan, toYaml(generatePlan(5)));
  const importOnly = (spec) => processTask(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(spec)})`]);
  // ESM resolution, as our dist/ modules import them.
  const dep = (name) => import.meta.resolve(name);
  const ours = (path) => pathToFileURL(join(root, "dist", path)).href;
  const tasks = {
    "`node -e 0`": processTask(process.execPath, ["-e", "0"]),
    "import commander": importOnly(dep("commander")),
    "import ajv": importOnly(dep("ajv")),
    "import chevrotain (package entry, lib/src/api.js)": importOnly(dep("chevrotain")),
    "import chevrotain/lib/chevrotain.min.mjs (the bundle)": importOnly(pathToFileURL(join(dirname(dirname(fileURLToPath(dep("chevrotain")))), "chevrotain.min.mjs")).href),
    "import yaml": importOnly(dep("yaml")),
    "import js-yaml": importOnly(dep("js-yaml")),
    "import dist/cli/commands.js (every command's wiring)": importOnly(ours("cli/commands.js")),
    "import dist/compiler/index.js": importOnly(ours("compiler/index.js")),
    "import dist/lint/engine.js": importOnly(ours("lint/engine.js")),
    "`planspec --version`": processTask(process.execPath, [bin, "--version"]),
    "`planspec compile` 5-step plan": processTask(process.execPath, [bin, "compile", plan, "-o", "/dev/null"]),
    "`planspec lint` 5-step plan": processTask(process.execPath, [bin, "lint", plan, "--format", "json", "-o", "/dev/null"], { okCodes: [0, 1] }),
  };
  console.log(`# start-up costs\n\n${machine().describe()}\n`);
  const r = interleave(tasks, { warmup: 1, runs });
  const floor = r["`node -e 0`"];
  console.log(`Whole process, median of ${runs} interleaved rounds.\n`);
  console.log(
    table(
      ["what", "wall ms", "CPU ms", "wall − `node -e 0`"],
      Object.entries(r).map(([k, v]) => [k, ms(v.wallMs), ms(v.cpuMs), ms(v.wallMs - floor.wallMs)]),
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
