/**
 * `eval recovery --workspace-from DIR` seeds every trial's workspace with a copy of DIR,
 * so a plan that reads workspace files recovers. The command is the one docs/evals.md
 * shows for the csv-anomalies example, run as a real process from the repository root
 * (build first: npm run build).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileSource } from "../../src/compiler/index.js";
import { recoverPlan } from "../../src/eval/recovery.js";
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

  it("trials run in run directories even when PLANSPEC_STORE names a store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-recovery-store-"));
    const text = `planspec: 1
name: read-only
goal: Read a note
deliverables: [note]
tools: { note.read: { risk: read } }
limits: { max_tool_calls: 10 }
steps:
  read: { kind: read, goal: Read the note, tool: note.read, with: { id: n1 }, output: note }
`;
    const file = join(dir, "read-only.plan.yaml");
    writeFileSync(file, text);
    const before = process.env.PLANSPEC_STORE;
    process.env.PLANSPEC_STORE = "postgres://postgres@127.0.0.1:1/nowhere";
    try {
      const r = await recoverPlan(file, compileSource(file, text).ir!, { faults: ["transient"] });
      expect(r.error).toBeUndefined();
      expect(r.trials).toEqual([{ fault: "error", name: "transient failure of every step's first call", ok: true }]);
    } finally {
      if (before === undefined) delete process.env.PLANSPEC_STORE;
      else process.env.PLANSPEC_STORE = before;
    }
  }, 120_000);
});
