/**
 * `eval recovery --workspace-from DIR` seeds every trial's workspace with a copy of DIR,
 * so a plan that reads workspace files recovers. The command is the one docs/evals.md
 * shows for the csv-anomalies example, run as a real process from the repository root
 * (build first: npm run build).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planspec, ROOT } from "../cli/run-helpers.js";
import { cliAsync } from "../planner/fixtures.js";

const DOCS_COMMAND = "planspec eval recovery specs/examples/csv-anomalies.plan.yaml --tools specs/examples/tools/csv-tools.mjs --workspace-from .";

describe("eval recovery --workspace-from", () => {
  it("docs/evals.md shows the command", () => {
    expect(readFileSync(join(ROOT, "docs/evals.md"), "utf8")).toContain(DOCS_COMMAND);
  });

  it("the csv-anomalies example recovers from every fault with its data copied into each trial", async () => {
    const r = await cliAsync(DOCS_COMMAND.split(" ").slice(1), ROOT);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const m = /^specs\/examples\/csv-anomalies\.plan\.yaml: (\d+)\/(\d+) trials recovered \(100\.0 %\)$/m.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    // Boundary crashes, mid-step crashes, a transient failure, a deleted artifact and a changed input.
    expect(Number(m![2])).toBeGreaterThan(10);
    expect(r.stdout).not.toMatch(/FAILED/);
  }, 400_000);

  it("a DIR that is not a directory is one line, exit 2", () => {
    const r = planspec(ROOT, ["eval", "recovery", "specs/examples/csv-anomalies.plan.yaml", "--workspace-from", "no/such/dir"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("planspec: --workspace-from no/such/dir is not a directory\n");
  });
});
