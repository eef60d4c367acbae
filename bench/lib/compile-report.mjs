/** The Markdown tables of bench/compile.mjs, with each SPEC §9 target's verdict. */
import { ms, table } from "./measure.mjs";

const both = (t) => (t ? `${ms(t.wallMs)} (${ms(t.cpuMs)})` : "–");
const verdict = (ok) => (ok ? "met" : "NOT met");

/** Prints every table of a compile benchmark result through `log`. */
export function printCompileReport(res, log) {
  log(`\n## Whole process (median of ${res.procRuns} interleaved rounds; wall ms, CPU ms in brackets)\n`);
  log(
    table(
      ["plan", "size", "`node -e 0`", "`planspec compile -o /dev/null`", "`planspec lint --format json` (compile + lint)", "lint − node", "target ≤ 1500 ms"],
      res.sizes.map((r) => [
        `${r.steps} steps ${r.form}`,
        `${(r.bytes / 1e6).toFixed(2)} MB`,
        both(r.node),
        both(r.procCompile),
        both(r.procLint),
        ms(r.procLint.wallMs - r.node.wallMs),
        r.steps === 10000 ? verdict(r.procLint.wallMs <= 1500) : "",
      ]),
    ),
  );

  log(`\n## In process (median after warm-up, interleaved; wall ms, CPU ms in brackets)\n`);
  const perStep = (x, n) => ((x * 1000) / n).toFixed(1);
  log(
    table(
      ["plan", "floor: yaml.parse / JSON.parse", "compileFile", "µs/step (CPU)", "compileFile + lintCompiled", "µs/step (CPU)", "findings"],
      res.sizes.map((r) => [
        `${r.steps} steps ${r.form}`,
        both(r.floorParse),
        both(r.compile),
        perStep(r.compile.cpuMs, r.steps),
        r.compileLint ? both(r.compileLint) : "(no lint engine)",
        r.compileLint ? perStep(r.compileLint.cpuMs, r.steps) : "–",
        r.findings ?? "–",
      ]),
    ),
  );

  const yamlRows = res.sizes.filter((r) => r.form === "yaml");
  if (yamlRows.length) {
    const big = yamlRows.at(-1);
    const rate = (t) => `${(big.bytes / 1e6 / (t.cpuMs / 1000)).toFixed(1)}`;
    log(`\n## Parse floors, in process (same rounds as above; wall ms, CPU ms in brackets)\n`);
    const parsers = [["yaml.parse (defaults)", "floorParse"], ...big.floorNames.map((n) => [n, n])];
    const jsonRows = res.sizes.filter((r) => r.form === "json");
    log(
      table(
        ["parser", ...yamlRows.map((r) => `${r.steps} steps (${(r.bytes / 1e6).toFixed(2)} MB)`), `MB/s at ${big.steps} (CPU)`],
        [
          ...parsers.map(([label, key]) => [label, ...yamlRows.map((r) => both(r[key])), big[key] ? rate(big[key]) : "–"]),
          ["JSON.parse of the JSON form", ...yamlRows.map((r) => both(jsonRows.find((j) => j.steps === r.steps)?.floorParse)), "(larger file)"],
          ["planspec compileFile (for scale)", ...yamlRows.map((r) => both(r.compile)), rate(big.compile)],
        ],
      ),
    );
  }

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
      ["compile, wall, best round", (r) => r.compile.minWallMs],
      ["compile + lint, wall, best round", (r) => r.compileLint?.minWallMs],
    ]) {
      const us = list.map((r) => (get(r) === undefined ? undefined : (get(r) * 1000) / r.steps));
      if (us.includes(undefined)) continue;
      const spread = Math.max(...us) / Math.min(...us);
      rows.push([`${form}: ${label}`, ...us.map((u) => u.toFixed(1)), `${spread.toFixed(2)}× → ${verdict(spread <= 1.5)}`]);
    }
  }
  log(table(["µs/step", ...res.sizes.filter((r) => r.form === "yaml").map((r) => `${r.steps}`), "max/min"], rows));

  const { node, version } = res.cold;
  const ratio = version.wallMs / node.wallMs;
  log(`\n## Cold start (median of ${version.samples.length} interleaved rounds)\n`);
  log(
    table(
      ["command", "wall ms", "CPU ms", "ratio to `node -e 0` (wall)"],
      [
        ["`node -e 0`", ms(node.wallMs), ms(node.cpuMs), "1.00"],
        ["`planspec --version`", ms(version.wallMs), ms(version.cpuMs), `${ratio.toFixed(2)} (target ≤ 1.5 → ${verdict(ratio <= 1.5)})`],
      ],
    ),
  );
  log(`\nload average (1m/5m) at end: ${res.loadAtEnd}`);
}
