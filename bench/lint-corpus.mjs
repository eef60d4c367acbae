#!/usr/bin/env node
/**
 * Corpus gate benchmark (SPEC §9): `planspec lint` over the 5,571 TaskBench plans, against
 * Spectral 6.16 with an equivalent ruleset (bench/peers/planspec.spectral.yaml).
 *
 *   npm run build && npm install --prefix bench/peers
 *   node bench/lint-corpus.mjs [--runs 5] [--peer-runs 3] [--json out.json] [--data predictions.jsonl]
 *
 * Imports the corpus with the real CLI into a temp dir, then times whole processes:
 * `node -e 0`, `planspec lint DIR --format json -o /dev/null`, `spectral --version`,
 * Spectral on one plan (its start-up and ruleset load) and on every plan. Prints Markdown.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { machine, ms, table, timeProcess } from "./lib/measure.mjs";

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

  res.node = timeProcess(process.execPath, ["-e", "0"], { runs: Math.max(runs, 5) });
  log(`timing planspec lint (${runs} runs)...`);
  res.planspec = timeProcess(process.execPath, [bin, "lint", plans, "--format", "json", "-o", "/dev/null"], { runs, okCodes: [0, 1] });
  res.planspecFindings = countFindings(process.execPath, [bin, "lint", plans, "--format", "json", "-o"], (d) => d.code);

  if (existsSync(spectral)) {
    const glob = join(plans, "*.plan.json");
    const one = join(plans, readdirSync(plans).find((f) => f.endsWith(".plan.json")));
    log(`timing spectral start-up and one plan...`);
    res.spectralVersion = timeProcess(spectral, ["--version"], { runs: 3 });
    res.spectralOne = timeProcess(spectral, ["lint", one, "-r", ruleset, "-f", "json", "-o", "/dev/null"], { runs: 3, okCodes: [0, 1] });
    log(`timing spectral on all ${res.files} plans (${peerRuns} runs; minutes each)...`);
    try {
      if (peerRuns < 1) throw new Error("skipped (--peer-runs 0)");
      res.spectral = timeProcess(spectral, ["lint", glob, "-r", ruleset, "-f", "json", "-o", "/dev/null"], { runs: peerRuns, okCodes: [0, 1] });
      res.spectralFindings = countFindings(spectral, ["lint", glob, "-r", ruleset, "-f", "json", "-o"], (d) => d.code);
    } catch (err) {
      res.spectralError = String(err.message).split("\n")[0];
    }
  } else {
    res.spectralError = "Spectral is not installed: npm install --prefix bench/peers";
  }
  res.loadAtEnd = machine().load;
  print(res);
  if (args.json) writeFileSync(args.json, JSON.stringify(res, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs a linter once writing JSON to a file and counts its findings per rule family. */
function countFindings(cmd, argv, codeOf) {
  const out = join(dir, "findings.json");
  rmSync(out, { force: true });
  const r = spawnSync(cmd, [...argv, out], { stdio: "ignore" });
  if ((r.status !== 0 && r.status !== 1) || !existsSync(out)) return undefined;
  const list = JSON.parse(readFileSync(out, "utf8"));
  const counts = { total: list.length, files: new Set(list.map((d) => d.file ?? d.source)).size };
  for (const d of list) {
    const f = family(codeOf(d)) ?? "other";
    counts[f] = (counts[f] ?? 0) + 1;
  }
  return counts;
}

function print(r) {
  const both = (t) => (t ? `${ms(t.wallMs)} | ${ms(t.cpuMs)}` : "– | –");
  const rate = (t) => (t ? Math.round(r.files / (t.wallMs / 1000)).toLocaleString("en") : "–");
  log(`\n## Whole process, ${r.files} plans (medians; wall and CPU = user+sys, ms)\n`);
  log(
    table(
      ["command", "runs", "wall ms", "CPU ms", "plans/s (wall)"],
      [
        ["`node -e 0`", r.node.samples.length, both(r.node), "–"],
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
  log(`\n## Findings (one extra run each, to check the rulesets agree)\n`);
  const keys = ["total", "files", ...FIVE, "other"];
  log(table(["linter", ...keys], [["planspec", r.planspecFindings], ["spectral", r.spectralFindings]].map(([n, c]) => [n, ...keys.map((k) => (c ? (c[k] ?? 0) : "–"))])));
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
