/**
 * A fresh machine: without Chromium the browser suites are skipped with one line saying
 * how to enable them, and the run passes; with PLANSPEC_BROWSER_TESTS=required (CI)
 * they run, and fail when Chromium is missing. Runs vitest itself, Chromium hidden
 * behind PLANSPEC_CHROMIUM.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers.js";

function vitest(env: Record<string, string | undefined>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, PLANSPEC_CHROMIUM: "/nonexistent/chromium", ...env };
  for (const k of Object.keys(childEnv)) if (childEnv[k] === undefined || k.startsWith("VITEST")) delete childEnv[k];
  const r = spawnSync(join(repoRoot, "node_modules/.bin/vitest"), ["run", "test/report"], { cwd: repoRoot, encoding: "utf8", env: childEnv, timeout: 180_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("npm test on a machine without Chromium", () => {
  it("skips the browser suites with one notice line and exits 0", () => {
    const r = vitest({ PLANSPEC_BROWSER_TESTS: undefined });
    const notices = r.out.split("\n").filter((l) => l.includes("browser tests skipped"));
    expect(notices).toEqual([
      "browser tests skipped: no Chromium at /nonexistent/chromium; to run them install chromium (apt-get install chromium) and set PLANSPEC_BROWSER_TESTS=required",
    ]);
    expect(r.out).toMatch(/Test Files\s+3 skipped/);
    expect(r.status).toBe(0);
  });

  it("with PLANSPEC_BROWSER_TESTS=required the suites run and fail without Chromium", () => {
    const r = vitest({ PLANSPEC_BROWSER_TESTS: "required" });
    expect(r.out).not.toContain("browser tests skipped");
    expect(r.out).toMatch(/\/nonexistent\/chromium/);
    expect(r.out).toMatch(/Test Files\s+3 failed/);
    expect(r.status).toBe(1);
  });
});
