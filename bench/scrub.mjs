#!/usr/bin/env node
/**
 * The cost of scrubbing secrets from what a run writes, two builds side by side: each
 * build's `Scrubber` (dist/runtime/redact.js) over the same texts, round after round with
 * the order flipped every round, so load hits both alike.
 *
 *   node bench/scrub.mjs --a DIR --b DIR [--secrets 12] [--rounds 15]
 *
 * Texts: 5,000 event lines of about 200 bytes (a step's transitions and tool calls) and
 * one 1 MiB artifact of JSON records, neither holding a secret (the common case: the
 * whole text is searched), and the same artifact with a secret in every record. Secrets:
 * `--secrets` values shaped like the environment's (`ghp_…`, `sk-live-…`, AWS keys with
 * `/` and `+`), each with characters other than letters and digits. Prints the median
 * and range of ms per text, and of the scrubber's construction.
 */
import { join, resolve } from "node:path";
import { machine, median, table } from "./lib/measure.mjs";

const argOf = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const N = Number(argOf("secrets", "12"));
const ROUNDS = Number(argOf("rounds", "15"));
const builds = [];
for (const label of ["a", "b"]) {
  const dir = argOf(label);
  if (!dir) throw new Error(`--${label} DIR is required`);
  const { Scrubber } = await import(join(resolve(dir), "dist", "runtime", "redact.js"));
  builds.push({ label, dir, Scrubber, samples: { build: [], events: [], artifact: [], hits: [] } });
}

// Deterministic pseudo-random characters: the same secrets and texts for both builds.
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = (alphabet, n) => Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
const AZ = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const shapes = [() => `ghp_${pick(AZ, 36)}`, () => `sk-live-${pick(AZ, 24)}`, () => `${pick(AZ, 12)}/${pick(AZ, 10)}+${pick(AZ, 17)}`];
const secrets = Array.from({ length: N }, (_, i) => shapes[i % shapes.length]());

const events = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ seq: i, ts: "2026-12-01T21:00:00.000Z", type: "tool.call", data: { node: `step_${i}`, tool: "fs.read", attempt: 1, args: { path: `src/module_${i}.ts`, note: pick(AZ, 60) } } }));
const records = [];
for (let size = 0; size < 1 << 20; ) {
  const r = JSON.stringify({ id: records.length, name: pick(AZ, 20), email: `${pick(AZ, 8)}@example.com`, amount: Math.floor(rnd() * 1e6) / 100 });
  records.push(r);
  size += r.length + 1;
}
const artifact = `[${records.join(",\n")}]`;
const withHits = `[${records.map((r, i) => r.replace('"name":"', `"name":"${secrets[i % N]} `)).join(",\n")}]`;

function time(fn) {
  const t0 = process.hrtime.bigint();
  const out = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, out };
}

for (let round = 0; round < ROUNDS; round++) {
  for (const b of round % 2 === 0 ? builds : [...builds].reverse()) {
    const made = time(() => new b.Scrubber(secrets, { salt: null }));
    const s = made.out;
    b.samples.build.push(made.ms);
    b.samples.events.push(time(() => events.forEach((e) => s.text(e))).ms);
    b.samples.artifact.push(time(() => s.text(artifact)).ms);
    const hit = time(() => s.text(withHits));
    if (hit.out.includes(secrets[0])) throw new Error(`build ${b.label} left a secret in the text`);
    b.samples.hits.push(hit.ms);
  }
}

const fmt = (xs) => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
console.log(machine().describe());
console.log(`${N} secrets, ${ROUNDS} rounds; ms, median (range)`);
console.log(
  table(
    ["build", "construct", "5,000 event lines", "1 MiB artifact", "1 MiB, a secret per record"],
    builds.map((b) => [`${b.label}: ${b.dir}`, fmt(b.samples.build), fmt(b.samples.events), fmt(b.samples.artifact), fmt(b.samples.hits)]),
  ),
);
