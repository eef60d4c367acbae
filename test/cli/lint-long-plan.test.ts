/**
 * A plan far longer than any hand-written one: a chain of 65,000 steps, each with two findings.
 * Collecting 130,000 findings must not depend on how many arguments a call may take
 * (`findings.push(...lint)` threw "Maximum call stack size exceeded" past ~120,000).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { cli } from "../helpers.js";

const STEPS = 65_000;

function chain(n: number): string {
  const steps = Array.from({ length: n }, (_, i) => `  s${i}: { kind: analyze, goal: step ${i}, tool: t, output: r${i}${i ? `, needs: [s${i - 1}]` : ""} }\n`);
  return `planspec: 1\nname: chain\ngoal: a chain of ${n} steps\ntools: { t: { risk: read } }\nlimits: { max_tool_calls: ${n} }\nsteps:\n${steps.join("")}`;
}

it(`lints a ${STEPS.toLocaleString("en")}-step plan: every finding reported, no internal error`, { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "planspec-long-lint-"));
  writeFileSync(join(dir, "chain.plan.yaml"), chain(STEPS));
  const r = cli(["lint", "chain.plan.yaml", "--format", "json", "-o", "out.json"], { cwd: dir });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0); // warnings only
  const found = JSON.parse(readFileSync(join(dir, "out.json"), "utf8")) as { code: string; severity: string }[];
  const count = (code: string) => found.filter((d) => d.code === code).length;
  expect(count("missing-success-criteria")).toBe(STEPS);
  expect(count("vague-step-goal")).toBe(STEPS);
  expect(found.some((d) => d.severity === "error")).toBe(false);
});
