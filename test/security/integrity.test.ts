/**
 * Integrity of a run directory: artifacts are checked against their hash when read, the
 * plan against a hash recomputed from its content, state.json against its checksum; a
 * keyed step whose recorded result is lost is restored or handed to a person
 * (`planspec resolve`), never re-run or adopted silently. Real CLI child processes.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEvents, readOutput, readState } from "../runtime/helpers.js";
import { fileLines, killHard, planspec, startPlanspec, waitFor } from "../cli/run-helpers.js";
import { STACK, workspace } from "./helpers.js";

const KEYED = `planspec: 1
name: keyed
goal: Pay and echo the receipt
inputs: { entry: { type: string, default: "42" } }
tools: { ledger: { risk: external }, echo: { risk: read }, gate: { risk: write } }
limits: { max_tool_calls: 50 }
steps:
  pay: { kind: external, goal: Pay, tool: ledger, risk: external, idempotency_key: "\${{ run.id }}:pay", with: { entry: "\${{ inputs.entry }}" }, output: payment }
  receipt: { kind: analyze, goal: Echo the receipt, needs: [pay], tool: echo, with: { got: "\${{ steps.pay.output.written }}" }, output: receipt }
`;

const run = (ws: string, id: string, extra: string[] = []) => planspec(ws, ["run", "keyed.plan.yaml", "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate", ...extra]);
const runDir = (ws: string, id: string) => join(ws, ".planspec/runs", id);
const ledgerCalls = (ws: string) => fileLines(join(ws, "calls.log")).filter((c) => c === "ledger:pay").length;
const artifact = (ws: string, id: string, step: string) => join(runDir(ws, id), readState(runDir(ws, id)).nodes[step]!.outputRef!);
const receiptOutput = async (ws: string, id: string) => (await readOutput(runDir(ws, id), readState(runDir(ws, id)).nodes.receipt!.outputRef!)) as { got: string };
/** Larger than what an idempotency record keeps inline (64 KB). */
const BIG = "b".repeat(70_000);
/** Larger than a reference, so the result is an artifact file (a smaller one is kept in the state). */
const MID = "m".repeat(100);

describe("integrity of a run directory", () => {
  it("a deleted artifact of a keyed step is restored from its idempotency record (small result): no second call, no failure", async () => {
    const ws = workspace("keyed.plan.yaml", KEYED);
    expect(run(ws, "small", ["--input", `entry=${MID}`]).code).toBe(0);
    rmSync(artifact(ws, "small", "pay"));
    for (let i = 0; i < 2; i++) {
      const r = planspec(ws, ["resume", "small"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(STACK);
    }
    expect(existsSync(artifact(ws, "small", "pay"))).toBe(true);
    expect(readEvents(runDir(ws, "small")).filter((e) => e.type === "artifact.restored").map((e) => e.data.node)).toEqual(["pay"]);
    expect(ledgerCalls(ws)).toBe(1);
    expect((await receiptOutput(ws, "small")).got).toBe(`small:pay "${MID}"`);
  });

  it("a deleted artifact of a keyed step with a large result: the run pauses naming the step (on every resume), resolve --adopt finishes it without a second call", async () => {
    const ws = workspace("keyed.plan.yaml", KEYED);
    expect(run(ws, "lost", ["--input", `entry=${BIG}`]).code).toBe(0);
    rmSync(artifact(ws, "lost", "pay"));
    for (let i = 0; i < 2; i++) {
      const r = planspec(ws, ["resume", "lost"]);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout + r.stderr).toMatch(/step "pay".*(missing|altered)/);
      expect(r.stdout + r.stderr).toMatch(/planspec resolve \S+ pay --rerun \| --adopt RESULT\.json/);
      expect(r.stderr).not.toMatch(/ENOENT|STACK/);
    }
    const status = planspec(ws, ["status", "lost"]);
    expect(status.stdout).toMatch(/pay .*result is missing or altered/);
    writeFileSync(join(ws, "result.json"), JSON.stringify({ written: "adopted by a person" }));
    const resolved = planspec(ws, ["resolve", "lost", "pay", "--adopt", "result.json", "--by", "ops"]);
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stdout).toMatch(/next: planspec resume/);
    const done = planspec(ws, ["resume", "lost"]);
    expect(done.code, done.stderr).toBe(0);
    expect(ledgerCalls(ws)).toBe(1);
    expect((await receiptOutput(ws, "lost")).got).toBe("adopted by a person");
    expect(readEvents(runDir(ws, "lost")).some((e) => e.type === "resolved" && e.data.node === "pay" && e.data.choice === "adopt" && e.data.by === "ops")).toBe(true);
  });

  it("an altered artifact of a keyed step is neither adopted nor re-run: the run pauses; resolve --rerun calls the tool again", async () => {
    const ws = workspace("keyed.plan.yaml", KEYED);
    expect(run(ws, "forged", ["--input", `entry=${BIG}`]).code).toBe(0);
    writeFileSync(artifact(ws, "forged", "pay"), JSON.stringify({ written: "forged" }));
    const r = planspec(ws, ["resume", "forged"]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout + r.stderr).toMatch(/step "pay"/);
    // No step consumed the forged content.
    const forgedUse = readEvents(runDir(ws, "forged")).filter((e) => e.type === "tool.call" && (e.data.args as { got?: string }).got === "forged");
    expect(forgedUse).toEqual([]);
    expect(ledgerCalls(ws)).toBe(1);
    expect(planspec(ws, ["resolve", "forged", "pay", "--rerun"]).code).toBe(0);
    const done = planspec(ws, ["resume", "forged"]);
    expect(done.code, done.stderr).toBe(0);
    expect(ledgerCalls(ws)).toBe(2);
    expect((await receiptOutput(ws, "forged")).got).toBe(`forged:pay ${JSON.stringify(BIG)}`);
  });

  it("an interrupted keyed call: resolve --adopt records what it returned, and resume continues without calling it again", async () => {
    const plan = KEYED.replace("  pay: {", "  hold: { kind: write, goal: Hold, tool: gate, risk: write, idempotency_key: \"h\", with: { release: release }, output: held }\n  pay: { needs: [hold],");
    const ws = workspace("keyed.plan.yaml", plan);
    const child = startPlanspec(ws, ["run", "keyed.plan.yaml", "--tools", "tools.mjs", "--run-id", "cut", "--no-lint-gate"]);
    await waitFor(() => fileLines(join(ws, "gate-entered")).length > 0);
    await killHard(child);
    expect(planspec(ws, ["resume", "cut"]).code).toBe(3);
    writeFileSync(join(ws, "held.json"), JSON.stringify({ released: "hold" }));
    const r = planspec(ws, ["resolve", "cut", "hold", "--adopt", "held.json"]);
    expect(r.code, r.stderr).toBe(0);
    const done = planspec(ws, ["resume", "cut"]);
    expect(done.code, done.stderr).toBe(0);
    expect(fileLines(join(ws, "gate-entered"))).toEqual(["hold"]);
    expect(await readOutput(runDir(ws, "cut"), readState(runDir(ws, "cut")).nodes.hold!.outputRef!)).toEqual({ released: "hold" });
  });

  it("resolve refuses a step that waits for no resolution, and needs exactly one of --rerun / --adopt", () => {
    const ws = workspace("keyed.plan.yaml", KEYED);
    expect(run(ws, "fine").code).toBe(0);
    for (const args of [["resolve", "fine", "pay", "--rerun"], ["resolve", "fine", "pay"], ["resolve", "fine", "pay", "--rerun", "--adopt", "x.json"], ["resolve", "fine", "nosuch", "--rerun"]]) {
      const r = planspec(ws, args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).not.toMatch(STACK);
    }
  });

  it("a node edited in the run's plan.ir.json (read -> external) is refused, though its planHash field is unchanged", () => {
    const plan = `planspec: 1
name: edited
goal: Ask, then look
tools: { echo: { risk: read }, ledger: { risk: external } }
limits: { max_tool_calls: 20 }
steps:
  ask: { kind: analyze, goal: Ask, tool: echo, with: { q: 1 }, approval: { required: true }, output: asked }
  look: { kind: read, goal: Look, needs: [ask], tool: echo, with: { entry: 1 }, output: seen }
`;
    const ws = workspace("edited.plan.yaml", plan);
    expect(planspec(ws, ["run", "edited.plan.yaml", "--tools", "tools.mjs", "--run-id", "e", "--no-lint-gate"]).code).toBe(3);
    const file = join(runDir(ws, "e"), "plan.ir.json");
    const ir = JSON.parse(readFileSync(file, "utf8"));
    const look = ir.nodes.find((n: { id: string }) => n.id === "look");
    Object.assign(look, { tool: "ledger", risk: "external", kind: "external", allowedTools: ["ledger"] });
    writeFileSync(file, JSON.stringify(ir));
    expect(planspec(ws, ["approve", "e", "ask", "--by", "ops"]).code).toBe(2);
    const r = planspec(ws, ["resume", "e"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/plan\.ir\.json was edited outside planspec/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(existsSync(join(ws, "ledger.txt"))).toBe(false);
  });

  it("state.json edited by hand is refused by every command; a state of today's layout (no checksum) is accepted once and upgraded", () => {
    const ws = workspace("keyed.plan.yaml", KEYED.replace("output: payment }", "output: payment, approval: { required: true } }"));
    expect(run(ws, "hand").code).toBe(3);
    const file = join(runDir(ws, "hand"), "state.json");
    const text = readFileSync(file, "utf8");
    expect(JSON.parse(text).checksum).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(file, text.replace('"status":"paused"', '"status":"failed"'));
    for (const cmd of ["status", "resume", "report"]) {
      const r = planspec(ws, [cmd, "hand"]);
      expect(r.code, cmd).toBe(2);
      expect(r.stderr, cmd).toMatch(/state\.json was edited outside planspec/);
    }
    // Today's layout: no checksum in state.json, no marker in config.json.
    const legacy = JSON.parse(text);
    delete legacy.checksum;
    writeFileSync(file, JSON.stringify(legacy));
    const config = JSON.parse(readFileSync(join(runDir(ws, "hand"), "config.json"), "utf8"));
    delete config.stateChecksum;
    writeFileSync(join(runDir(ws, "hand"), "config.json"), JSON.stringify(config));
    expect(planspec(ws, ["status", "hand"]).code).toBe(3);
    expect(planspec(ws, ["approve", "hand", "pay", "--by", "ops"]).code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).checksum).toMatch(/^[0-9a-f]{64}$/);
    // Once upgraded, a state without its checksum is an edit.
    const stripped = JSON.parse(readFileSync(file, "utf8"));
    delete stripped.checksum;
    writeFileSync(file, JSON.stringify(stripped));
    expect(planspec(ws, ["resume", "hand"]).stderr).toMatch(/state\.json was edited outside planspec/);
  });
});
