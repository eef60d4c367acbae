#!/usr/bin/env node
/**
 * Compile benchmark (SPEC §9 "one large plan" and "cold start").
 *
 *   npm run build && node bench/compile.mjs [--sizes 100,1000,10000] [--runs 5] [--json out.json]
 *
 * Generates plans of each size as YAML and as the JSON form, then measures, in one run:
 * whole-process `planspec compile` and `planspec lint` (compile + lint), in-process
 * compileFile and compileFile + lintCompiled, and the floors: yaml.parse / JSON.parse of the
 * same text, yaml.parseDocument (the position-keeping parse the compiler builds on) and
 * `node -e 0`. Prints Markdown tables. Timings are medians; CPU is user+sys.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generatePlan, toJson, toYaml } from "./lib/gen-plan.mjs";
import { machine, ms, table, timeInProcess, timeProcess } from "./lib/measure.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "planspec");
const args = parseArgs(process.argv.slice(2));
const sizes = (args.sizes ?? "100,1000,10000").split(",").map(Number);
const procRuns = Number(args.runs ?? 5);

if (!existsSync(join(root, "dist", "compiler", "index.js"))) {
  console.error("bench/compile.mjs: dist/ is missing; run `npm run build` first");
  process.exit(2);
}
const { compileFile } = await import(pathToFileURL(join(root, "dist", "compiler", "index.js")).href);
const engine = await import(pathToFileURL(join(root, "dist", "lint", "engine.js")).href).catch(() => undefined);
const YAML = await import("yaml");
// A second position-keeping YAML parser, if the peers are installed (Spectral depends on it).
const altParser = await loadAltParser();

const m = machine();
const dir = mkdtempSync(join(tmpdir(), "planspec-bench-compile-"));
const results = { machine: m.describe(), sizes: [] };
try {
  log(`# compile benchmark\n\n${m.describe()}\nplans in ${dir}\n`);
  const nodeFloor = timeProcess(process.execPath, ["-e", "0"], { runs: Math.max(procRuns, 10) });
  const version = timeProcess(process.execPath, [bin, "--version"], { runs: Math.max(procRuns, 10) });
  results.nodeFloor = nodeFloor;
  results.version = version;

  for (const n of sizes) {
    const plan = generatePlan(n);
    for (const form of ["yaml", "json"]) {
      const text = form === "yaml" ? toYaml(plan) : toJson(plan);
      const file = join(dir, `bench-${n}.plan.${form}`);
      writeFileSync(file, text);
      log(`measuring ${n} steps, ${form} (${(statSync(file).size / 1e6).toFixed(2)} MB)...`);
      results.sizes.push(measureOne(n, form, file, text));
    }
  }
  results.loadAtEnd = machine().load;
  printTables(results);
  if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function measureOne(n, form, file, text) {
  // Fewer in-process repetitions for big plans keep the whole bench to a few minutes.
  const inRuns = n >= 10000 ? 5 : n >= 1000 ? 10 : 30;
  const warmup = n >= 10000 ? 1 : 3;
  const cwd = dirname(file);
  const r = { steps: n, form, bytes: statSync(file).size };
  const check = compileFile(file, { cwd });
  const errors = check.diagnostics.filter((d) => d.severity === "error");
  if (!check.ir || errors.length) throw new Error(`generated plan does not compile: ${errors[0]?.message ?? "no IR"}`);
  r.floorParse = timeInProcess(() => (form === "yaml" ? YAML.parse(text) : JSON.parse(text)), { warmup, runs: inRuns });
  if (form === "yaml") {
    r.parseDocument = timeInProcess(() => YAML.parseDocument(text, { uniqueKeys: true }), { warmup, runs: inRuns });
    // yaml's first stage alone (lexer + CST parser, every token has its offset): the floor for a
    // position-keeping compiler that builds its own tree from the CST.
    r.yamlCst = timeInProcess(() => { let k = 0; for (const _ of new YAML.Parser().parse(text)) k++; return k; }, { warmup, runs: inRuns });
    if (altParser) r.altParse = timeInProcess(() => altParser.load(text), { warmup, runs: inRuns });
  }
  r.compile = timeInProcess(() => compileFile(file, { cwd }), { warmup, runs: inRuns });
  if (engine) {
    r.compileLint = timeInProcess(() => engine.lintCompiled(compileFile(file, { cwd })), { warmup, runs: inRuns });
    r.findings = r.compileLint.result.length;
  }
  for (const k of ["floorParse", "parseDocument", "yamlCst", "altParse", "compile", "compileLint"]) if (r[k]) delete r[k].result;
  r.procCompile = timeProcess(process.execPath, [bin, "compile", file, "-o", "/dev/null"], { runs: procRuns, cwd });
  // Lint exits 1 when it finds errors; that is a result, not a failure of the bench.
  r.procLint = timeProcess(process.execPath, [bin, "lint", file, "--format", "json", "-o", "/dev/null"], { runs: procRuns, cwd, okCodes: [0, 1] });
  return r;
}

function printTables(res) {
  const floor = res.nodeFloor;
  const perStep = (x, n) => ((x * 1000) / n).toFixed(1);
  log(`\n## Whole process (median of ${procRuns}; wall ms, CPU ms in brackets)\n`);
  log(
    table(
      ["plan", "size", "`node -e 0`", "`planspec compile`", "`planspec lint` (compile + lint)", "lint − node floor", "target"],
      res.sizes.map((r) => [
        `${r.steps} steps ${r.form}`,
        `${(r.bytes / 1e6).toFixed(2)} MB`,
        `${ms(floor.wallMs)} (${ms(floor.cpuMs)})`,
        `${ms(r.procCompile.wallMs)} (${ms(r.procCompile.cpuMs)})`,
        `${ms(r.procLint.wallMs)} (${ms(r.procLint.cpuMs)})`,
        ms(r.procLint.wallMs - floor.wallMs),
        r.steps === 10000 ? `≤ 1500 → ${r.procLint.wallMs <= 1500 ? "met" : "NOT met"}` : "",
      ]),
    ),
  );
  log(`\n## In process (median after warm-up; wall ms, CPU ms in brackets)\n`);
  const both = (t) => `${ms(t.wallMs)} (${ms(t.cpuMs)})`;
  log(
    table(
      ["plan", "floor: parse only", "yaml.parseDocument", "compileFile", "µs/step (CPU)", "compile + lintCompiled", "µs/step (CPU)", "findings"],
      res.sizes.map((r) => [
        `${r.steps} steps ${r.form}`,
        `${both(r.floorParse)} ${r.form === "yaml" ? "yaml.parse" : "JSON.parse"}`,
        r.parseDocument ? both(r.parseDocument) : "–",
        both(r.compile),
        perStep(r.compile.cpuMs, r.steps),
        r.compileLint ? both(r.compileLint) : "(no engine)",
        r.compileLint ? perStep(r.compileLint.cpuMs, r.steps) : "–",
        r.findings ?? "–",
      ]),
    ),
  );
  log(`\n## YAML parse floors, in process (median; wall ms, CPU ms in brackets)\n`);
  log(
    table(
      ["plan", "size", "yaml.parse", "yaml.parseDocument", "yaml CST only (Parser)", "@stoplight/yaml-ast-parser", "JSON.parse of the JSON form"],
      res.sizes
        .filter((r) => r.form === "yaml")
        .map((r) => {
          const j = res.sizes.find((x) => x.steps === r.steps && x.form === "json");
          return [`${r.steps} steps`, `${(r.bytes / 1e6).toFixed(2)} MB`, both(r.floorParse), both(r.parseDocument), both(r.yamlCst), r.altParse ? both(r.altParse) : "(peers not installed)", j ? both(j.floorParse) : "–"];
        }),
    ),
  );
  // Whole-process time per step is dominated by start-up at 100 steps, so flatness is judged in process.
  log(`\n## Per-step cost, in process (target: ≤ 1.5× apart from 100 to 10,000 steps)\n`);
  const rows = [];
  for (const form of ["yaml", "json"]) {
    const list = res.sizes.filter((r) => r.form === form);
    if (list.length < 2) continue;
    for (const [label, get] of [
      ["compile, CPU", (r) => r.compile.cpuMs],
      ["compile, wall", (r) => r.compile.wallMs],
      ["compile + lint, CPU", (r) => r.compileLint?.cpuMs],
      ["compile + lint, wall", (r) => r.compileLint?.wallMs],
    ]) {
      const us = list.map((r) => (get(r) === undefined ? undefined : (get(r) * 1000) / r.steps));
      if (us.includes(undefined)) continue;
      const spread = Math.max(...us) / Math.min(...us);
      rows.push([`${form}: ${label}`, ...us.map((u) => u.toFixed(1)), `${spread.toFixed(2)}× → ${spread <= 1.5 ? "met" : "NOT met"}`]);
    }
  }
  log(table(["µs/step", ...res.sizes.filter((r) => r.form === "yaml").map((r) => `${r.steps}`), "max/min"], rows));
  log(`\n## Cold start (median of ${res.version.samples.length})\n`);
  const ratio = res.version.wallMs / floor.wallMs;
  log(
    table(
      ["command", "wall ms", "CPU ms", "ratio to `node -e 0`"],
      [
        ["`node -e 0`", ms(floor.wallMs), ms(floor.cpuMs), "1.00"],
        ["`planspec --version`", ms(res.version.wallMs), ms(res.version.cpuMs), `${ratio.toFixed(2)} (target ≤ 1.5 → ${ratio <= 1.5 ? "met" : "NOT met"})`],
      ],
    ),
  );
  log(`\nload average (1m/5m) at end: ${res.loadAtEnd}`);
}

async function loadAltParser() {
  const { createRequire } = await import("node:module");
  try {
    return createRequire(join(root, "bench", "peers", "package.json"))("@stoplight/yaml-ast-parser");
  } catch {
    return undefined;
  }
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) continue;
    out[a.slice(2)] = argv[i + 1];
    i++;
  }
  return out;
}

function log(s) {
  process.stdout.write(s + "\n");
}
