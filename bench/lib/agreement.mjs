/**
 * Checks that the Spectral ruleset and planspec find the same things. The imported corpus
 * labels every TaskBench tool read-risk and sets limits and a fitting complexity, so the five
 * rules find nothing there. A seeded variant gives them something to find: tools that
 * produce media (image, video, audio) become writes, every 10th plan loses its `limits`,
 * every 10th (another tenth) is declared `simple`, and in every 10th (a third tenth) the steps
 * that call a media tool declare `risk: read`. Both linters then report thousands
 * of findings, compared step by step.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

const MEDIA = /^(image|video|audio)$/i;

/** Copies `from` to `to` with the seeded faults described above; returns how many plans changed. */
export function seededVariant(from, to, toolDescFile) {
  const desc = JSON.parse(readFileSync(toolDescFile, "utf8"));
  const list = Array.isArray(desc) ? desc : (desc.nodes ?? []);
  const media = new Set(list.filter((t) => (t["output-type"] ?? []).some((o) => MEDIA.test(o))).map((t) => t.id));
  mkdirSync(to, { recursive: true });
  const files = readdirSync(from).filter((f) => f.endsWith(".plan.json")).sort();
  files.forEach((f, i) => {
    const plan = JSON.parse(readFileSync(join(from, f), "utf8"));
    for (const [name, tool] of Object.entries(plan.tools ?? {})) if (media.has(name)) tool.risk = "write";
    if (i % 10 === 3) delete plan.limits;
    if (i % 10 === 7) plan.complexity = "simple";
    if (i % 10 === 5) for (const step of Object.values(plan.steps ?? {})) if (media.has(step.tool)) step.risk = "read";
    writeFileSync(join(to, f), JSON.stringify(plan, null, 2) + "\n");
  });
  return files.length;
}

/** One finding as `family|file|step` (step empty for plan-level findings). */
function key(family, file, step) {
  return `${family}|${basename(file)}|${step ?? ""}`;
}

/**
 * Runs both linters once on `dir` and compares their findings of the five rules: how many
 * both report, and how many only one does (split by whether planspec rejected the file).
 */
export function compareFindings({ dir, planspec, spectral, ruleset, scratch, families }) {
  const family = (code) => families.find((f) => code === f || code.startsWith(`${f}-`));
  const pOut = join(scratch, "agree-planspec.json");
  const sOut = join(scratch, "agree-spectral.json");
  spawnSync(process.execPath, [planspec, "lint", dir, "--format", "json", "-o", pOut], { stdio: "ignore" });
  spawnSync(spectral, ["lint", join(dir, "*.plan.json"), "-r", ruleset, "-f", "json", "-o", sOut], { stdio: "ignore" });
  const p = JSON.parse(readFileSync(pOut, "utf8"));
  const s = JSON.parse(readFileSync(sOut, "utf8"));
  // planspec does not lint a file that does not compile; it reports the PS1xx error instead.
  const rejected = new Set(p.filter((d) => /^PS\d+$/.test(d.code)).map((d) => basename(d.file)));
  const pk = new Set();
  for (const d of p) {
    const f = family(d.code);
    if (f) pk.add(key(f, d.file, /^step "([^"]+)"/.exec(d.message)?.[1]));
  }
  const sk = new Set();
  for (const d of s) {
    const f = family(d.code);
    if (f) sk.add(key(f, d.source, d.path?.[0] === "steps" ? d.path[1] : undefined));
  }
  const rows = families.map((f) => {
    const mine = [...pk].filter((k) => k.startsWith(`${f}|`));
    const theirs = [...sk].filter((k) => k.startsWith(`${f}|`));
    const onlyS = theirs.filter((k) => !pk.has(k));
    return {
      family: f,
      both: mine.filter((k) => sk.has(k)).length,
      onlyPlanspec: mine.filter((k) => !sk.has(k)).length,
      onlySpectral: onlyS.length,
      onlySpectralInRejected: onlyS.filter((k) => rejected.has(k.split("|")[1])).length,
    };
  });
  return { rows, rejectedFiles: rejected.size, totals: { planspec: p.length, spectral: s.length } };
}
