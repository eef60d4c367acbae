#!/usr/bin/env node
/**
 * Corpus gate benchmark (SPEC §9): `planspec lint` over the 5,571 TaskBench plans, against
 * Spectral 6.16 with an equivalent ruleset (bench/peers/planspec.spectral.yaml).
 *
 *   npm run build && npm install --prefix bench/peers
 *   node bench/lint-corpus.mjs [--runs 5] [--peer-runs 3] [--json out.json] [--data predictions.jsonl]
 *     [--agreement no]
 *
 * Imports the corpus with the real CLI into a temp dir, then times whole processes:
 * `node -e 0`, `planspec lint DIR --format json -o /dev/null`, `spectral --version`,
 * Spectral on one plan (its start-up and ruleset load) and on every plan; then checks,
 * untimed, that both report the same findings (bench/lib/agreement.mjs). Prints Markdown.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compareFindings, seededVariant } from "./lib/agreement.mjs";
import { interleave, machine, ms, processTask, table } from "./lib/measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const bin = join(root, "bin", "planspec");
const data = join(root, "..", "shared", "data", "taskbench", "multimedia");
const spectral = join(here, "peers", "node_modules", ".bin", "spectral");
const ruleset = join(here, "peers", "planspec.spectral.yaml");
const args = parseArgs(process.argv.slice(2));
const runs = Number(args.runs ?? 5);
const peerRuns = Number(args["peer-runs"] ?? 3);

// The five planner-failure rules, and how the Spectral ruleset's rule ids map onto them.
const FIVE = ["write-without-evidence", "risk-under-labelled", "unbounded-loop", "goal-drift", "over-planning"];
const family = (code) => FIVE.find((f) => code === f || code.startsWith(`${f}-`));

const READ_PARSE = `const fs = require("fs"), path = require("path"); const d = process.argv[1]; let n = 0;
for (const f of fs.readdirSync(d)) if (f.endsWith(".plan.json")) n += Object.keys(JSON.parse(fs.readFileSync(path.join(d, f), "utf8"))).length;`;

if (!existsSync(join(root, "dist", "cli", "main.js"))) fail("dist/ is missing; run `npm run build` first");
const dataFile = args.data ?? join(data, "predictions-llama-3.3-70b-instruct.jsonl");
if (!existsSync(dataFile)) fail(`no corpus at ${dataFile} (pass --data FILE)`);

const m = machine();
const dir = mkdtempSync(join(tmpdir(), "planspec-bench-corpus-"));
const plans = join(dir, "plans");
const res = { machine: m.describe() };
try {
  log(`# lint-corpus benchmark\n\n${m.describe()}\n`);
  const imp = spawnSync(process.execPath, [bin, "import", "taskbench", dataFile, "--tools", join(dirname(dataFile), "tool_desc.json"), "--out", plans], { encoding: "utf8" });
  if (imp.status !== 0) fail(`import failed (exit ${imp.status}): ${imp.stderr}`);
  res.files = readdirSync(plans).filter((f) => f.endsWith(".plan.json")).length;
  log(`imported ${res.files} plans into ${plans}: ${(imp.stdout + imp.stderr).trim().split("\n")[0]}`);

  const glob = join(plans, "*.plan.json");
  const tasks = {
    node: processTask(process.execPath, ["-e", "0"]),
    // The floor for any linter of these files: one process that reads and JSON.parses each.
    readParse: processTask(process.execPath, ["-e", READ_PARSE, plans]),
    // Lint exits 1 when it finds errors; that is a result, not a failure of the bench.
    planspec: processTask(process.execPath, [bin, "lint", plans, "--format", "json", "-o", "/dev/null"], { okCodes: [0, 1] }),
  };
  const hasPeer = existsSync(spectral);
  if (hasPeer) {
    const one = join(plans, readdirSync(plans).find((f) => f.endsWith(".plan.json")));
    tasks.spectralVersion = processTask(spectral, ["--version"]);
    tasks.spectralOne = processTask(spectral, ["lint", one, "-r", ruleset, "-f", "json", "-o", "/dev/null"], { okCodes: [0, 1] });
    if (peerRuns > 0) tasks.spectral = processTask(spectral, ["lint", glob, "-r", ruleset, "-f", "json", "-o", "/dev/null"], { okCodes: [0, 1] });
  } else {
    res.spectralError = "Spectral is not installed: npm install --prefix bench/peers";
  }
  log(`timing ${runs} interleaved rounds${hasPeer && peerRuns > 0 ? ` (Spectral on every plan in the first ${peerRuns}; minutes each)` : ""}...`);
  try {
    Object.assign(res, interleave(tasks, { runs, only: { spectral: peerRuns, spectralVersion: 3, spectralOne: 3 } }));
  } catch (err) {
    // Spectral failing on the whole corpus in one invocation is a result to report.
    if (!String(err.message).includes("spectral")) throw err;
    res.spectralError = String(err.message).split("\n")[0];
    delete tasks.spectral;
    Object.assign(res, interleave(tasks, { runs, only: { spectralVersion: 3, spectralOne: 3 } }));
  }
  for (const k of Object.keys(res)) if (res[k] && typeof res[k] === "object") delete res[k].result;
  if (hasPeer && args.agreement !== "no") {
    log("checking that the two rulesets agree, on the corpus and on a seeded variant (one run each)...");
    const seeded = join(dir, "seeded");
    seededVariant(plans, seeded, join(dirname(dataFile), "tool_desc.json"));
    const opts = { planspec: bin, spectral, ruleset, scratch: dir, families: FIVE };
    res.agreement = { corpus: compareFindings({ ...opts, dir: plans }), seeded: compareFindings({ ...opts, dir: seeded }) };
  }
  res.loadAtEnd = machine().load;
  print(res);
  if (args.json) writeFileSync(args.json, JSON.stringify(res, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function print(r) {
  const both = (t) => (t ? `${ms(t.wallMs)} | ${ms(t.cpuMs)}` : "– | –");
  const rate = (t) => (t ? Math.round(r.files / (t.wallMs / 1000)).toLocaleString("en") : "–");
  log(`\n## Whole process, ${r.files} plans (medians of interleaved rounds; wall and CPU = user+sys, ms)\n`);
  log(
    table(
      ["command", "runs", "wall ms", "CPU ms", "plans/s (wall)"],
      [
        ["`node -e 0`", r.node.samples.length, both(r.node), "–"],
        ["floor: `node -e` reading and JSON.parse-ing every plan", r.readParse.samples.length, both(r.readParse), rate(r.readParse)],
        ["`planspec lint DIR --format json -o /dev/null`", r.planspec.samples.length, both(r.planspec), rate(r.planspec)],
        ["`spectral --version`", r.spectralVersion?.samples.length ?? "–", both(r.spectralVersion), "–"],
        ["`spectral lint ONE.plan.json -r ruleset`", r.spectralOne?.samples.length ?? "–", both(r.spectralOne), "–"],
        ['`spectral lint "DIR/*.plan.json" -r ruleset`', r.spectral?.samples.length ?? "–", both(r.spectral), rate(r.spectral)],
      ].map((row) => row.join(" | ").split(" | ")),
    ),
  );
  if (r.spectralError) log(`\nSpectral on the whole corpus: ${r.spectralError}`);
  log(`\n## Against SPEC §9\n`);
  const rows = [[`planspec lint ≤ 2000 ms wall`, ms(r.planspec.wallMs), r.planspec.wallMs <= 2000 ? "met" : "NOT met"]];
  if (r.spectral) {
    const wall = r.spectral.wallMs / r.planspec.wallMs;
    const cpu = r.spectral.cpuMs && r.planspec.cpuMs ? r.spectral.cpuMs / r.planspec.cpuMs : undefined;
    rows.push([`≥ 10× faster than Spectral (wall)`, `${wall.toFixed(1)}×`, wall >= 10 ? "met" : "NOT met"]);
    if (cpu) rows.push([`≥ 10× faster than Spectral (CPU)`, `${cpu.toFixed(1)}×`, cpu >= 10 ? "met" : "NOT met"]);
  }
  log(table(["target", "measured", "verdict"], rows));
  if (r.agreement) {
    log(`\n## Do the rulesets agree? Findings of the five rules, by (file, step); one untimed run each\n`);
    const rows = [];
    for (const [set, a] of Object.entries(r.agreement)) {
      for (const x of a.rows) rows.push([set, x.family, x.both, x.onlyPlanspec, `${x.onlySpectral} (${x.onlySpectralInRejected} in plans planspec rejects)`]);
    }
    log(table(["plans", "rule", "both", "only planspec", "only Spectral"], rows));
    const c = r.agreement.corpus;
    log(`\nOn the corpus planspec reports ${c.totals.planspec} findings in all (every registered rule), Spectral ${c.totals.spectral} (its ${FIVE.length} rule families only).`);
    log(`planspec rejects ${c.rejectedFiles} plans with compile errors (PS1xx) and lints only the rest; Spectral lints them all.`);
  }
  log(`\nload average (1m/5m): start ${m.load}, end ${r.loadAtEnd}`);
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) if (argv[i].startsWith("--")) out[argv[i].slice(2)] = argv[++i];
  return out;
}

function fail(msg) {
  console.error(`bench/lint-corpus.mjs: ${msg}`);
  process.exit(2);
}

function log(s) {
  process.stdout.write(s + "\n");
}
