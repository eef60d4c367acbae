#!/usr/bin/env node
/**
 * Compile benchmark (SPEC §9 "one large plan" and "cold start").
 *
 *   npm run build && node bench/compile.mjs [--sizes 100,1000,10000] [--runs 5] [--json out.json]
 *
 * Generates plans of each size as YAML and as the JSON form, then measures, in one run:
 * whole-process `planspec compile` and `planspec lint` (compile + lint) beside `node -e 0`;
 * in-process compileFile and compileFile + lintCompiled beside the parse floors (yaml.parse /
 * JSON.parse of the same text, and other YAML parsers: see loadYamlFloors); and
 * `planspec --version` beside
 * `node -e 0`. Measurements compared with each other are interleaved round by round.
 * Prints Markdown tables; timings are medians, CPU is user+sys.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { printCompileReport } from "./lib/compile-report.mjs";
import { generatePlan, toJson, toYaml } from "./lib/gen-plan.mjs";
import { inProcessTask, interleave, machine, processTask } from "./lib/measure.mjs";

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
const yamlFloors = await loadYamlFloors();

const m = machine();
const dir = mkdtempSync(join(tmpdir(), "planspec-bench-compile-"));
const results = { machine: m.describe(), procRuns, sizes: [] };
try {
  log(`# compile benchmark\n\n${m.describe()}\nplans in ${dir}\n`);
  const node = processTask(process.execPath, ["-e", "0"]);
  const cold = interleave({ node, version: processTask(process.execPath, [bin, "--version"]) }, { warmup: 1, runs: Math.max(procRuns, 10) });
  results.cold = strip(cold);
  for (const n of sizes) {
    const plan = generatePlan(n);
    for (const form of ["yaml", "json"]) {
      const text = form === "yaml" ? toYaml(plan) : toJson(plan);
      const file = join(dir, `bench-${n}.plan.${form}`);
      writeFileSync(file, text);
      log(`measuring ${n} steps, ${form} (${(text.length / 1e6).toFixed(2)} MB)...`);
      results.sizes.push(measureOne(n, form, file, text, node));
    }
  }
  results.loadAtEnd = machine().load;
  printCompileReport(results, log);
  if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function measureOne(n, form, file, text, node) {
  // Fewer in-process repetitions for big plans keep the whole bench under ~15 minutes.
  const runs = n >= 10000 ? 5 : n >= 1000 ? 10 : 30;
  const warmup = n >= 10000 ? 1 : 3;
  const cwd = dirname(file);
  const check = compileFile(file, { cwd });
  const errors = check.diagnostics.filter((d) => d.severity === "error");
  if (!check.ir || errors.length) throw new Error(`generated plan does not compile: ${errors[0]?.message ?? "no IR"}`);

  const tasks = { floorParse: inProcessTask(() => (form === "yaml" ? YAML.parse(text) : JSON.parse(text))) };
  if (form === "yaml") for (const [name, fn] of Object.entries(yamlFloors)) tasks[name] = inProcessTask(() => fn(text));
  tasks.compile = inProcessTask(() => compileFile(file, { cwd }));
  if (engine) tasks.compileLint = inProcessTask(() => engine.lintCompiled(compileFile(file, { cwd })));
  const inProc = interleave(tasks, { warmup, runs });
  const r = { steps: n, form, bytes: statSync(file).size, ...strip(inProc), floorNames: form === "yaml" ? Object.keys(yamlFloors) : [] };
  if (engine) r.findings = inProc.compileLint.result.length;

  const proc = interleave(
    {
      node,
      procCompile: processTask(process.execPath, [bin, "compile", file, "-o", "/dev/null"], { cwd }),
      // Lint exits 1 when it finds errors; that is a result, not a failure of the bench.
      procLint: processTask(process.execPath, [bin, "lint", file, "--format", "json", "-o", "/dev/null"], { cwd, okCodes: [0, 1] }),
    },
    { runs: procRuns },
  );
  return { ...r, ...strip(proc) };
}

/** Drops the results of the timed calls (IRs, parsed documents) before keeping the figures. */
function strip(timings) {
  return Object.fromEntries(Object.entries(timings).map(([k, { result, ...t }]) => [k, t]));
}

/**
 * Other ways to read the same YAML, each a floor for some design of the front end. Parsers
 * that are not installed (js-yaml at the root, the peers in bench/peers) are left out.
 */
async function loadYamlFloors() {
  const floors = {
    // yaml's duplicate-key check compares each key with every earlier one; without it:
    "yaml.parse, uniqueKeys: false": (t) => YAML.parse(t, { uniqueKeys: false }),
    "yaml.parseDocument, uniqueKeys: false (keeps ranges)": (t) => YAML.parseDocument(t, { uniqueKeys: false }),
    // yaml's first stage alone (lexer + CST; every token keeps its offset).
    "yaml CST only (`new Parser().parse`)": (t) => {
      let k = 0;
      for (const _ of new YAML.Parser().parse(t)) k++;
      return k;
    },
  };
  const fromRoot = createRequire(join(root, "package.json"));
  const jsYaml = await import(pathToFileURL(fromRoot.resolve("js-yaml")).href).catch(() => undefined);
  if (jsYaml?.load) floors[`js-yaml ${version(fromRoot, "js-yaml")} load`] = (t) => jsYaml.load(t);
  // js-yaml 5's event parser reports the offsets of every node: a position-keeping floor.
  if (jsYaml?.parseEvents) floors[`js-yaml ${version(fromRoot, "js-yaml")} parseEvents (keeps offsets)`] = (t) => jsYaml.parseEvents(t);
  try {
    const fromPeers = createRequire(join(root, "bench", "peers", "package.json"));
    const alt = fromPeers("@stoplight/yaml-ast-parser");
    floors[`@stoplight/yaml-ast-parser ${version(fromPeers, "@stoplight/yaml-ast-parser")} (keeps offsets)`] = (t) => alt.load(t);
  } catch {
    // bench/peers is not installed; that floor is optional.
  }
  return floors;
}

function version(req, pkg) {
  try {
    return req(`${pkg}/package.json`).version;
  } catch {
    return "";
  }
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) if (argv[i].startsWith("--")) out[argv[i].slice(2)] = argv[++i];
  return out;
}

function log(s) {
  process.stdout.write(s + "\n");
}
