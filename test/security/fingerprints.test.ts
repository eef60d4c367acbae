/**
 * Secret fingerprints under attack: a 6-digit PIN marked `secret: true` leaves only its
 * mark in the run directory (state.json, idempotency.json, and the idempotency key). The
 * attacker reads every file of the run and hashes all 10^6 PINs with the old unsalted
 * scheme (sha256 of "planspec-secret\0" + value), which recovered the PIN in 0.5 s on
 * main; then, holding the run's salt from config.json, pays the documented scrypt cost
 * per guess. Resume with the same PIN still matches marks and keyed records, in new runs
 * and in a run directory written by the old scheme.
 */
import { createHash, scryptSync } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { events, filesUnder, json, planspec, workspace } from "./helpers.js";

const PIN = "730519";

const PLAN = `planspec: 1
name: pin-pay
goal: pay with a card PIN
inputs:
  pin: { type: string, secret: true }
  note: { type: string, default: first }
tools: { ledger: { risk: external } }
limits: { max_tool_calls: 10 }
steps:
  pay:
    kind: external
    goal: pay once per PIN
    tool: ledger
    with: { entry: "paid \${{ inputs.note }} with \${{ inputs.pin }}" }
    idempotency_key: "pay-\${{ inputs.pin }}"
`;

const MARK = /\[secret (sha256|scrypt):([0-9a-f]{16})\]/g;
const oldFingerprint = (v: string) => createHash("sha256").update(`planspec-secret\0${v}`).digest("hex").slice(0, 16);
/** The documented scheme (docs/dsl.md, inputs): scrypt N=2^14, r=8, p=1 over (salt, value), 8 bytes shown. */
const saltedFingerprint = (v: string, salt: string) => scryptSync(v, Buffer.from(salt, "hex"), 8, { N: 1 << 14, r: 8, p: 1 }).toString("hex");

function marksIn(run: string): Array<{ scheme: string; hex: string; file: string }> {
  const out: Array<{ scheme: string; hex: string; file: string }> = [];
  for (const file of filesUnder(run)) for (const m of readFileSync(file, "utf8").matchAll(MARK)) out.push({ scheme: m[1]!, hex: m[2]!, file });
  return out;
}

const start = (ws: string, dir: string) => planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", dir, "--no-lint-gate", "--input", `pin=${PIN}`]);
const calls = (ws: string) => readFileSync(join(ws, "calls.log"), "utf8").split("\n").filter((l) => l === "ledger:pay").length;

/** Rewrites a run directory as planspec before salted fingerprints wrote it: sha256 marks, no salt in config.json. */
function toOldScheme(run: string, pin: string): void {
  const config = json<Record<string, unknown>>(join(run, "config.json"));
  delete config.secretSalt;
  writeFileSync(join(run, "config.json"), JSON.stringify(config, null, 2));
  const old = `[secret sha256:${oldFingerprint(pin)}]`;
  for (const name of ["idempotency.json", "events.jsonl", "state.json"]) {
    let text = readFileSync(join(run, name), "utf8").replace(MARK, old);
    if (name === "state.json") {
      // The file store's checksum: sha256 of the document up to its checksum member.
      const body = text.slice(0, text.lastIndexOf(',"checksum":"'));
      text = `${body},"checksum":"${createHash("sha256").update(`${body}}`).digest("hex")}"}\n`;
    }
    writeFileSync(join(run, name), text);
  }
}

describe("a low-entropy secret input cannot be recovered from its fingerprints", () => {
  it("every mark of the run resists the old scheme's brute force; with the salt each guess costs scrypt", () => {
    const ws = workspace("p.plan.yaml", PLAN);
    expect(start(ws, "run").code).toBe(0);
    const run = join(ws, "run");
    const marks = marksIn(run);
    // The input's mark in state.json and the tagged key in state.json and idempotency.json.
    expect(marks.map((m) => m.file.slice(run.length + 1)).sort()).toEqual(["idempotency.json", "state.json", "state.json"]);
    expect(new Set(marks.map((m) => m.scheme))).toEqual(new Set(["scrypt"]));

    const targets = new Set(marks.map((m) => m.hex));
    const found: string[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      const guess = String(i).padStart(6, "0");
      if (targets.has(oldFingerprint(guess))) found.push(guess);
    }
    expect(found).toEqual([]);

    // With the salt the attacker reads from config.json, guessing works, at scrypt's price.
    const salt = json<{ secretSalt: string }>(join(run, "config.json")).secretSalt;
    expect(salt).toMatch(/^[0-9a-f]{32}$/);
    const guesses = ["000000", "111111", "123456", "654321", "999999", "000001", "424242", "100000", "271828", PIN];
    const t0 = performance.now();
    const hits = guesses.filter((g) => targets.has(saltedFingerprint(g, salt)));
    const perGuessMs = (performance.now() - t0) / guesses.length;
    expect(hits).toEqual([PIN]);
    // >= 1 s per 1000 guesses, on this machine (measured: about 50 ms each).
    expect(perGuessMs).toBeGreaterThan(1);
  });

  it("two runs of the same PIN have different marks", () => {
    const ws = workspace("p.plan.yaml", PLAN);
    expect(start(ws, "a").code).toBe(0);
    expect(start(ws, "b").code).toBe(0);
    const a = new Set(marksIn(join(ws, "a")).map((m) => m.hex));
    const b = new Set(marksIn(join(ws, "b")).map((m) => m.hex));
    expect(a.size).toBe(1);
    expect([...a].filter((h) => b.has(h))).toEqual([]);
  });

  it("resume with the same PIN finds the keyed record (no second payment); another PIN re-runs", () => {
    const ws = workspace("p.plan.yaml", PLAN);
    expect(start(ws, "run").code).toBe(0);
    const run = join(ws, "run");
    const before = marksIn(run).map((m) => m.hex);
    // A changed note resets the step; its key holds only the PIN, so the record answers.
    const same = planspec(ws, ["resume", "run", "--no-lint-gate", "--input", `pin=${PIN}`, "--input", "note=second"]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain("pay: reset to pending (an input it reads changed)");
    expect(events(run).filter((e) => e.type === "idempotency.hit")).toHaveLength(1);
    expect(calls(ws)).toBe(1);
    expect(new Set(marksIn(run).map((m) => m.hex))).toEqual(new Set(before));

    const other = planspec(ws, ["resume", "run", "--no-lint-gate", "--input", "pin=111111"]);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toContain("pay: reset to pending (an input it reads changed)");
    expect(calls(ws)).toBe(2);
  });

  it("a run written by the old scheme (no salt in config.json) still resumes and matches its records", () => {
    const ws = workspace("p.plan.yaml", PLAN);
    expect(start(ws, "run").code).toBe(0);
    const run = join(ws, "run");
    toOldScheme(run, PIN);
    const same = planspec(ws, ["resume", "run", "--no-lint-gate", "--input", `pin=${PIN}`, "--input", "note=second"]);
    expect(same.code, same.stderr).toBe(0);
    expect(events(run).filter((e) => e.type === "idempotency.hit")).toHaveLength(1);
    expect(calls(ws)).toBe(1);
    // It keeps its scheme: a changed one would orphan the records it has.
    expect(new Set(marksIn(run).map((m) => m.scheme))).toEqual(new Set(["sha256"]));
    const without = planspec(ws, ["resume", "run", "--no-lint-gate"]);
    expect(without.stderr.trim()).toBe('planspec: resume needs the secret input "pin" again: pass --input pin=...');
    const other = planspec(ws, ["resume", "run", "--no-lint-gate", "--input", "pin=111111"]);
    expect(other.stderr).toContain("pay: reset to pending (an input it reads changed)");
    expect(calls(ws)).toBe(2);
  });
});
