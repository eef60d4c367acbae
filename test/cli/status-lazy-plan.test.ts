/**
 * `status` of a long run reads the plan's nodes as it shows them (plan-file.ts): on a run
 * killed mid-step (state.json plus a journal tail, no kept summary) it prints what the
 * whole read prints, and an edit to a node it never shows is still refused. Real CLI
 * child processes, a real SIGKILL.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { killHard, planspec, startPlanspec, waitFor } from "./run-helpers.js";
import { exists, STACK, workspace } from "../security/helpers.js";

const STEPS = 60;
const plan =
  `planspec: 1\nname: long\ngoal: A long line that stops at a gate\ntools: { echo: { risk: read }, gate: { risk: write } }\nsteps:\n` +
  Array.from({ length: STEPS }, (_, i) => `  s${i}: { kind: analyze, goal: step ${i}, tool: echo, with: { i: ${i} }${i ? `, needs: [s${i - 1}]` : ""} }\n`).join("") +
  `  hold: { kind: write, goal: wait at the gate, tool: gate, risk: write, with: { release: go }, needs: [s${STEPS - 1}] }\n`;

describe("status of a killed long run, nodes read as shown", () => {
  it("prints what the whole plan's read prints, and refuses an edit to a step it does not show", async () => {
    const ws = workspace("p.plan.yaml", plan);
    const child = startPlanspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", "k", "--no-lint-gate"]);
    await waitFor(() => exists(join(ws, "gate-entered")));
    await killHard(child);
    const runs = join(ws, ".planspec/runs");
    const file = join(runs, "k", "plan.ir.json");
    const text = readFileSync(file, "utf8");
    // The run directory's layout: a node per line.
    expect(text.split("\n")).toHaveLength(STEPS + 3);
    expect(readFileSync(join(runs, "k", "journal.jsonl"), "utf8").trim()).not.toBe("");

    const lazy = planspec(ws, ["status", "k"]);
    expect(lazy.code, lazy.stderr).toBe(0);
    expect(lazy.stdout).toMatch(/hold\s+running/);
    expect(lazy.stdout).toMatch(/61 steps: 60 done, 1 running; \d+ shown/);

    // The same run with the plan on one line, as an older planspec wrote it: read whole.
    cpSync(join(runs, "k"), join(runs, "old"), { recursive: true });
    writeFileSync(join(runs, "old", "plan.ir.json"), JSON.stringify(JSON.parse(text)));
    const whole = planspec(ws, ["status", "old"]);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout.replace("run k (", "run old (")).toBe(lazy.stdout.replace("run k (", "run old ("));

    // s3 is not among the steps shown: its edit is found all the same.
    const edited = text.replace('"goal":"step 3"', '"goal":"step 8"');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    const r = planspec(ws, ["status", "k"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/plan\.ir\.json was edited outside planspec/);
    expect(r.stderr).not.toMatch(STACK);
  });
});
