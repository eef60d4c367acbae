import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { loadState } from "../../src/runtime/migrations.js";
import { reviseRun } from "../../src/runtime/revise.js";
import { resumeRun, startRun } from "../../src/runtime/run.js";
import { CHAIN, plan, readEvents, readOutput, readState, tempDir, TEST_TOOLS, writeFile } from "./helpers.js";

/** Longer than a reference, so the echoed outputs are artifact files (smaller ones are kept in the state). */
const PAD = "p".repeat(80);

/** The shared chain plus a third step, so a resume has a step after the one it restarts from. */
const PLAN = `${CHAIN.replace("output.sum }}\" }", `output.sum }}", pad: ${PAD} }`)}  third: { kind: analyze, goal: echo again, needs: [second], tool: echo, with: { w: "\${{ steps.second.output.v }}", pad: ${PAD} }, output: again }
`;

async function finished() {
  const ws = tempDir();
  const tools = writeFile(ws, "tools.mjs", TEST_TOOLS);
  const ir = plan(PLAN);
  const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
  expect(r.outcome.status).toBe("done");
  return { ws, dir: r.dir, ir };
}

const calls = (ws: string) => readFileSync(join(ws, "calls.log"), "utf8").split("\n").filter(Boolean);

describe("resume", () => {
  it("a deleted artifact sends its step and descendants back to pending; the rerun restores the same outputs", async () => {
    const { ws, dir } = await finished();
    const before = readState(dir);
    rmSync(join(dir, before.nodes.second!.outputRef!));
    const r = await resumeRun(dir);
    expect(r.resume!.reset.map((x) => x.node)).toEqual(["second", "third"]);
    expect(r.outcome.status).toBe("done");
    const after = readState(dir);
    expect(after.nodes.third!.outputHash).toBe(before.nodes.third!.outputHash);
    expect(after.nodes.first!.attempts).toBe(1);
    expect(calls(ws)).toEqual(["echo:second", "echo:third", "echo:second", "echo:third"]);
    expect(readEvents(dir).filter((e) => e.type === "node.reset").map((e) => e.data.node)).toEqual(["second", "third"]);
  });

  it("an altered artifact is detected by its hash", async () => {
    const { dir } = await finished();
    const before = readState(dir);
    writeFileSync(join(dir, before.nodes.second!.outputRef!), '{"v":999}');
    const r = await resumeRun(dir);
    expect(r.resume!.reset[0]).toMatchObject({ node: "second", reason: expect.stringMatching(/missing or altered/) });
    expect(readState(dir).nodes.third!.outputHash).toBe(before.nodes.third!.outputHash);
  });

  it("an output no longer than a reference is kept in the state, not in a file; editing it is refused as an edit of the state", async () => {
    const { dir } = await finished();
    const s = readState(dir);
    expect(s.nodes.first!.outputRef).toBe('inline:{"sum":5}');
    expect(await readOutput(dir, s.nodes.first!.outputRef!)).toEqual({ sum: 5 });
    expect(readdirSync(join(dir, "artifacts")).sort()).toEqual([s.nodes.second!.outputRef!, s.nodes.third!.outputRef!].map((r) => r.slice("artifacts/".length)).sort());
    const file = join(dir, "state.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('inline:{\\"sum\\":5}', 'inline:{\\"sum\\":6}'));
    expect(readFileSync(file, "utf8")).toContain('inline:{\\"sum\\":6}');
    await expect(resumeRun(dir)).rejects.toThrow(/state\.json was edited outside planspec/);
  });

  it("a changed input re-runs the steps that read it and their descendants", async () => {
    const { dir } = await finished();
    const r = await resumeRun(dir, { inputs: { a: "10" } });
    expect(r.resume!.reset.map((x) => x.node)).toEqual(["first", "second", "third"]);
    const s = readState(dir);
    expect(await readOutput(dir, s.nodes.third!.outputRef!)).toEqual({ w: 13, pad: PAD });
  });

  it("a finished run resumes as done without calling tools", async () => {
    const { ws, dir } = await finished();
    const r = await resumeRun(dir);
    expect(r.outcome.status).toBe("done");
    expect(calls(ws)).toHaveLength(2);
  });

  it("migrates a v0 state file and continues the run", async () => {
    const ws = tempDir();
    const tools = writeFile(ws, "tools.mjs", TEST_TOOLS);
    const ir = plan(PLAN);
    const dir = join(ws, "legacy-run");
    // Planspec 0.x kept every output in a file, however small.
    const art = { ref: `artifacts/${createHash("sha256").update('{"sum":5}').digest("hex")}.json`, hash: createHash("sha256").update('{"sum":5}').digest("hex") };
    mkdirSync(join(dir, "artifacts"), { recursive: true });
    writeFileSync(join(dir, art.ref), '{"sum":5}');
    // A run directory as planspec 0.x left it: plan, config, artifacts and a v0 state.
    writeFileSync(join(dir, "plan.ir.json"), JSON.stringify(ir));
    writeFileSync(join(dir, "config.json"), JSON.stringify({ toolModules: [tools], workspace: ws, concurrency: 4 }));
    const v0 = readFileSync(join(import.meta.dirname, "fixtures/state-v0.json"), "utf8").replace("PLANHASH", ir.planHash).replace("ARTIFACT", art.hash);
    writeFileSync(join(dir, "state.json"), v0);
    const { state, migratedFrom } = await loadState(JSON.parse(v0));
    expect(migratedFrom).toBe(0);
    expect(state.nodes.first).toMatchObject({ status: "done", attempts: 1, outputRef: art.ref });
    const r = await resumeRun(dir);
    expect(r.migratedFrom).toBe(0);
    expect(r.outcome.status).toBe("done");
    const s = readState(dir);
    expect(s.schemaVersion).toBe(2);
    expect(s.budget.toolCalls).toBe(3);
    expect(calls(ws)).toEqual(["echo:second", "echo:third"]);
  });

  it("resumes a run directory of the previous layout (schemaVersion 1, no journal) left mid-step by a killed process", async () => {
    const { ws, dir } = await finished();
    // What planspec of the previous release left after SIGKILL inside "second": a whole
    // checksummed state.json of schemaVersion 1, no journal.
    const s = readState(dir) as unknown as Record<string, unknown> & { nodes: Record<string, Record<string, unknown>> };
    s.schemaVersion = 1;
    s.status = "running";
    s.nodes.second = { status: "running", attempts: 1, startedAt: s.createdAt };
    s.nodes.third = { status: "pending", attempts: 0 };
    const { createHash } = await import("node:crypto");
    const body = JSON.stringify(s).slice(0, -1);
    writeFileSync(join(dir, "state.json"), `${body},"checksum":"${createHash("sha256").update(`${body}}`).digest("hex")}"}\n`);
    rmSync(join(dir, "journal.jsonl"), { force: true });
    const r = await resumeRun(dir);
    expect(r.migratedFrom).toBe(1);
    expect(r.outcome.status).toBe("done");
    expect(calls(ws)).toEqual(["echo:second", "echo:third", "echo:second", "echo:third"]);
    expect(readState(dir)).toMatchObject({ schemaVersion: 2, status: "done" });
    expect(JSON.parse(readFileSync(join(dir, "state.json"), "utf8")).schemaVersion).toBe(2);
  });

  it("the state keeps the sha256 of the plan file's bytes; an edit of the file is still refused, and a revision's file is recorded on resume", async () => {
    const { dir } = await finished();
    const sha = (file: string) => createHash("sha256").update(readFileSync(join(dir, file))).digest("hex");
    expect(readState(dir).planDigest).toBe(sha("plan.ir.json"));
    const rev = await reviseRun(dir, plan(PLAN.replace("echo again", "echo once more")), { reason: "reworded", evidence: [] });
    expect(rev.revision).toBe(1);
    expect((await resumeRun(dir)).outcome.status).toBe("done");
    expect(readState(dir).planDigest).toBe(sha("revisions/1.ir.json"));
    // Same length, other content: the digest no longer matches, so the content is hashed.
    const file = join(dir, "revisions/1.ir.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"goal":"echo once more"', '"goal":"echo twice more"'));
    await expect(resumeRun(dir)).rejects.toThrow(/edited outside planspec/);
  });

  it("rejects a state file that is not valid after migration", async () => {
    await expect(loadState({ schemaVersion: 1, runId: "x" })).rejects.toThrow(/state.json is invalid/);
    await expect(loadState({ schemaVersion: 9 })).rejects.toThrow(/schemaVersion 9/);
  });
});
