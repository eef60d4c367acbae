/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time per function and per
 * area (yaml, ajv, chevrotain, each src/ stage), so a README can say where the time goes.
 */
import { readFileSync } from "node:fs";

/** Self time in ms per profile node, from the sample deltas (the profile's own clock). */
function selfTimes(profile) {
  const self = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    // timeDeltas[i] is the time before sample i; charge it to the sample's node.
    const dt = (timeDeltas[i] ?? 0) / 1000;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
  }
  return self;
}

/** Which part of the program a script URL belongs to: a dependency or one of our source files. */
export function areaOf(url) {
  if (!url) return "(native/GC/idle)";
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dep) return dep[1];
  // Our code by source file: a file is about one stage (json-source, canonical, a rule...).
  const ours = /\/dist\/(.+?)\.js$/.exec(url);
  if (ours) return `src/${ours[1]}.ts`;
  if (url.startsWith("node:")) return "node internals";
  return url.replace(/^file:\/\//, "");
}

// Areas grouped into the pipeline's stages; the first pattern that matches wins.
const STAGES = [
  ["parse (YAML/JSON to data + positions)", /^(yaml|js-yaml|src\/compiler\/(yaml-fast|yaml-source|json-source|load)\.ts)$/],
  ["schema check (ajv / generated validators)", /^(ajv|ajv-formats|src\/compiler\/(generated\/.*|schema)\.ts)$/],
  ["expressions (chevrotain + our parser)", /^(chevrotain|src\/compiler\/(expr\/.*|expressions)\.ts)$/],
  ["resolve + build IR", /^src\/compiler\/(resolve|build|templates|durations)\.ts$/],
  ["references + graph", /^src\/(compiler\/(check|graph)|lint\/graph)\.ts$/],
  ["plan hash (canonical JSON)", /^src\/compiler\/canonical\.ts$/],
  ["compile driver + diagnostics", /^src\/(compiler\/.*|diagnostic)\.ts$/],
  ["lint rules", /^src\/lint\/rules\//],
  ["lint engine (positions, suppressions, config)", /^src\/lint\//],
  ["CLI + output formatting", /^(src\/cli\/.*|commander|chalk)/],
  ["node: module loading, fs, crypto", /^node internals$/],
  ["garbage collector", /^\(garbage collector\)$/],
  ["V8 (program, idle)", /^\(program\/idle\)$/],
];

/** The pipeline stage an area belongs to (see STAGES). */
export function stageOf(area) {
  return STAGES.find(([, re]) => re.test(area))?.[0] ?? "other";
}

/** Reads a profile and returns the top functions and areas by self time. */
export function summarise(file, top = 15) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const self = selfTimes(profile);
  const byFn = new Map();
  const byArea = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (!ms) continue;
    total += ms;
    const cf = node.callFrame;
    const name = cf.functionName || "(anonymous)";
    const short = cf.url ? cf.url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, "$1/") : "";
    const key = cf.url ? `${name} ${short}:${cf.lineNumber + 1}` : name;
    byFn.set(key, (byFn.get(key) ?? 0) + ms);
    // Unnamed-URL frames are V8 pseudo-frames ("(program)", "(idle)", GC) or native bindings (readFileUtf8, Hash...).
    const area = cf.url ? areaOf(cf.url) : name === "(garbage collector)" ? name : name.startsWith("(") ? "(program/idle)" : "node internals";
    byArea.set(area, (byArea.get(area) ?? 0) + ms);
  }
  const sort = (m) => [...m].sort((a, b) => b[1] - a[1]);
  const byStage = new Map();
  for (const [a, ms] of byArea) byStage.set(stageOf(a), (byStage.get(stageOf(a)) ?? 0) + ms);
  return { totalMs: total, functions: sort(byFn).slice(0, top), areas: sort(byArea), stages: sort(byStage) };
}

/** Markdown tables of a summary. */
export function summaryMarkdown(s, topAreas = 15) {
  const pct = (ms) => ((100 * ms) / s.totalMs).toFixed(1);
  const lines = [`Profile total ${s.totalMs.toFixed(0)} ms of samples.`, "", "| stage | self ms | % |", "|---|---:|---:|"];
  for (const [a, ms] of s.stages) lines.push(`| ${a} | ${ms.toFixed(0)} | ${pct(ms)} |`);
  lines.push("", "| area (dependency or source file) | self ms | % |", "|---|---:|---:|");
  for (const [a, ms] of s.areas.slice(0, topAreas)) lines.push(`| ${a} | ${ms.toFixed(0)} | ${pct(ms)} |`);
  lines.push("", "| function (top self time) | self ms | % |", "|---|---:|---:|");
  for (const [f, ms] of s.functions) lines.push(`| \`${f.replace(/\|/g, "\\|")}\` | ${ms.toFixed(0)} | ${pct(ms)} |`);
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const f of process.argv.slice(2)) console.log(summaryMarkdown(summarise(f, 25)) + "\n");
}
