/**
 * The library's `run` and `resume` gate a plan in-process as `planspec run` and `resume`
 * do: a refused plan throws `GateError` and leaves no run behind; `lintGate: false` is
 * recorded, and resume honours it; resume re-gates the recorded plan.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GateError, gateKey } from "../../src/lint/gate.js";
import { readRunDirState } from "../../src/runtime/file-store.js";
import type { PlanIR } from "../../src/ir.js";
import { resumePlan, runPlan } from "../../src/runtime/gated.js";
import { BAD, CLEAN, IDEMPOTENCY, workspace } from "../cli/lint-fixtures.js";

const loadedPlan = (runDir: string) => JSON.parse(readFileSync(join(runDir, "plan.ir.json"), "utf8")) as PlanIR;

const MAIL = "export default { 'mail.send': { risk: 'external', run: async () => ({ id: 1 }) } };\n";
const SUPPRESSED = BAD.replace("  send_mail:\n", `  # planspec-disable-next-line ${IDEMPOTENCY} -- approved by the security team\n  send_mail:\n`);

describe("run and resume behind the gate", () => {
  it("refuses a plan file lint finds errors in, before anything runs", async () => {
    const dir = workspace({ "b.plan.yaml": BAD, "notes.txt": "hello\n" });
    const err = await runPlan({ plan: "b.plan.yaml", cwd: dir, inputs: { path: "notes.txt" }, runId: "b1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GateError);
    expect((err as GateError).message).toBe("refusing to run b.plan.yaml: lint found 1 error");
    expect((err as GateError).result.errors.map((d) => `${d.line} ${d.code}`)).toEqual([`23 ${IDEMPOTENCY}`]);
    expect(existsSync(join(dir, ".planspec/runs/b1"))).toBe(false);
  });

  it("runs a clean plan file, recording it as the run's plan file", async () => {
    const dir = workspace({ "c.plan.yaml": CLEAN, "notes.txt": "hello\n" });
    const r = await runPlan({ plan: "c.plan.yaml", cwd: dir, workspace: dir, inputs: { path: "notes.txt" }, runId: "c1" });
    expect(r.outcome).toMatchObject({ status: expect.stringMatching(/^(done|failed)$/) });
    expect(JSON.parse(readFileSync(join(dir, ".planspec/runs/c1/config.json"), "utf8"))).toMatchObject({ planFile: join(dir, "c.plan.yaml") });
  });

  it("lintGate: false runs the plan and is recorded; resume then honours the override", async () => {
    const dir = workspace({ "b.plan.yaml": BAD, "notes.txt": "hello\n", "tools.mjs": MAIL });
    const first = await runPlan({ plan: "b.plan.yaml", cwd: dir, workspace: dir, inputs: { path: "notes.txt" }, toolModules: [join(dir, "tools.mjs")], runId: "o1", lintGate: false });
    expect(first.outcome.status).toBe("paused");
    expect(readFileSync(join(first.dir, "events.jsonl"), "utf8")).toMatch(/"type":"run\.started".*"lintGate":"overridden"/);
    const again = await resumePlan(first.dir);
    expect(again.outcome.status).toBe("paused");
  });

  it("resume re-gates the recorded plan: through its file while unchanged, refused once the file changed", async () => {
    const dir = workspace({ "s.plan.yaml": SUPPRESSED, "notes.txt": "hello\n", "tools.mjs": MAIL });
    const first = await runPlan({ plan: "s.plan.yaml", cwd: dir, workspace: dir, inputs: { path: "notes.txt" }, toolModules: [join(dir, "tools.mjs")], runId: "s1" });
    expect(first.outcome.status).toBe("paused");
    expect((await resumePlan(first.dir)).outcome.status).toBe("paused");
    // The verdict it passed is kept in the state, for the plan file as it was.
    expect(readRunDirState(first.dir).doc.gate).toBe(gateKey(loadedPlan(first.dir), "s.plan.yaml", dir));
    writeFileSync(join(dir, "s.plan.yaml"), SUPPRESSED.replace("Read the input file from the workspace", "Read the input file"));
    const err = await resumePlan(first.dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GateError);
    expect((err as GateError).message).toBe(`refusing to resume ${first.dir}: lint found 1 error`);
    expect((await resumePlan(first.dir, { lintGate: false })).outcome.status).toBe("paused");
  });

  it("refuses a plan file that does not compile, naming why", async () => {
    const dir = workspace({ "x.plan.yaml": "planspec: 1\nname: x\n" });
    const err = await runPlan({ plan: "x.plan.yaml", cwd: dir, lintGate: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GateError);
    expect((err as GateError).result.refused).toBe("compile");
    expect((err as GateError).message).toMatch(/^refusing to run x\.plan\.yaml: it does not compile \(\d+ errors?\)$/);
  });
});
