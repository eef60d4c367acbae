/**
 * `planspec status`: what it prints for a short and a long run, from the state's kept
 * summary (a session that ended cleanly) or from the whole state (a write since), and
 * that both read the same. Real CLI child processes, real run directories.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { planspec } from "./run-helpers.js";
import { STACK, workspace } from "../security/helpers.js";

/** A linear plan of `n` read steps with the shared `echo` tool. */
const linear = (n: number, extra = "") => {
  const steps = Array.from({ length: n }, (_, i) => `  s${i}: { kind: analyze, goal: step ${i}, tool: echo, with: { i: ${i} }${i > 0 ? `, needs: [s${i - 1}]` : ""} }\n`);
  return `planspec: 1\nname: line\ngoal: Echo along a line\ntools: { echo: { risk: read }, gate: { risk: write } }\nlimits: { max_tool_calls: ${n + 5} }\nsteps:\n${steps.join("")}${extra}`;
};
const run = (ws: string, id: string) => planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate"]);
const dir = (ws: string, id: string) => join(ws, ".planspec/runs", id);
const headLine = (ws: string, id: string) => JSON.parse(`${readFileSync(join(dir(ws, id), "state.json"), "utf8").split("\n")[0]!.replace(/,$/, "")}}`);

describe("planspec resume of a finished run", () => {
  it("answers done from the kept summary: no state write, one run.resumed event; an edited state or plan is still refused", () => {
    const ws = workspace("p.plan.yaml", linear(3));
    expect(planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", "fin"]).code).toBe(0);
    expect(headLine(ws, "fin").summary.noopResume).toBe(true);
    const before = readFileSync(join(dir(ws, "fin"), "state.json"), "utf8");
    const r = planspec(ws, ["resume", "fin"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/run fin: done/);
    expect(readFileSync(join(dir(ws, "fin"), "state.json"), "utf8")).toBe(before);
    const events = readFileSync(join(dir(ws, "fin"), "events.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === "run.resumed")).toEqual([expect.objectContaining({ data: { runId: "fin", fromStatus: "done", stateVersion: headLine(ws, "fin").stateVersion } })]);
    // Same size, other bytes: the plan file's identity changed, so the full resume checks it.
    const plan = join(dir(ws, "fin"), "plan.ir.json");
    writeFileSync(plan, readFileSync(plan, "utf8").replace('"goal":"step 1"', '"goal":"step 9"'));
    const edited = planspec(ws, ["resume", "fin"]);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toMatch(/plan\.ir\.json was edited outside planspec/);
    writeFileSync(join(dir(ws, "fin"), "state.json"), before.replace('"attempts":1', '"attempts":3'));
    expect(planspec(ws, ["resume", "fin"]).stderr).toMatch(/state\.json was edited outside planspec/);
  });

  it("a plan with a secret input or file outputs keeps the full resume: the secret is asked for again", () => {
    const secret = linear(2).replace("tools: {", "inputs: { pin: { type: string, secret: true } }\ntools: {").replace("with: { i: 1 }", 'with: { i: 1, p: "${{ inputs.pin }}" }');
    const ws = workspace("p.plan.yaml", secret);
    expect(planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-id", "sec", "--input", "pin=4321", "--no-lint-gate"]).code).toBe(0);
    expect(headLine(ws, "sec").summary.noopResume).toBe(false);
    const r = planspec(ws, ["resume", "sec"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('planspec: resume needs the secret input "pin" again: pass --input pin=...');
  });
});

describe("an output kept in the state", () => {
  it("that is not JSON (a state forged with a recomputed checksum) is one line naming the step's output, not a stack trace", () => {
    const ws = workspace("p.plan.yaml", linear(3).replace("with: { i: 1 }", "with: { i: 1 }, output: o1").replace("with: { i: 2 }", 'with: { i: "${{ steps.s1.output.i }}" }'));
    expect(run(ws, "forged").code).toBe(0);
    const file = join(dir(ws, "forged"), "state.json");
    const doc = JSON.parse(readFileSync(file, "utf8"));
    delete doc.checksum;
    delete doc.summary;
    doc.status = "running";
    doc.nodes.s1.outputRef = "inline:{not json";
    doc.nodes.s2 = { status: "pending", attempts: 0 };
    const body = JSON.stringify(doc).slice(0, -1);
    writeFileSync(file, `${body},"checksum":"${createHash("sha256").update(`${body}}`).digest("hex")}"}\n`);
    const r = planspec(ws, ["resume", "forged"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^planspec: output inline:{not json in the state of run forged is not JSON: the state was edited outside planspec/m);
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe("planspec runs", () => {
  it("lists a run from its kept summary and a run decided since from its whole state, alike", () => {
    const gate = "  publish: { kind: write, goal: publish, tool: gate, risk: write, needs: [s1], with: { release: go }, approval: { required: true, approvers: [ops] } }\n";
    const ws = workspace("p.plan.yaml", linear(2, gate));
    expect(run(ws, "a").code).toBe(3);
    expect(run(ws, "b").code).toBe(3);
    expect(planspec(ws, ["approve", "b", "publish", "--by", "ops"]).code).toBe(0);
    expect(headLine(ws, "a").summary).toBeDefined();
    expect(headLine(ws, "b").summary).toBeUndefined();
    const list = JSON.parse(planspec(ws, ["runs", "--json"]).stdout) as Array<Record<string, unknown>>;
    for (const id of ["a", "b"]) {
      expect(list.find((r) => r.id === id)).toMatchObject({ status: "paused", plan: "line", done: 2, total: 3, createdAt: headLine(ws, id).createdAt, updatedAt: headLine(ws, id).updatedAt });
    }
  });
});

describe("planspec status", () => {
  it("a plan file edited after the run (same size) is not hidden by the kept summary: status checks it and refuses", () => {
    const ws = workspace("p.plan.yaml", linear(3));
    expect(run(ws, "plan-edit").code).toBe(0);
    const file = join(dir(ws, "plan-edit"), "plan.ir.json");
    const text = readFileSync(file, "utf8");
    const edited = text.replace('"goal":"step 1"', '"goal":"step 9"');
    expect(edited.length).toBe(text.length);
    writeFileSync(file, edited);
    const r = planspec(ws, ["status", "plan-edit"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/plan\.ir\.json was edited outside planspec/);
    expect(r.stderr).not.toMatch(STACK);
  });

  it("a short finished run: every step, the same from the kept summary as from the whole state", () => {
    const ws = workspace("p.plan.yaml", linear(3));
    expect(run(ws, "short").code).toBe(0);
    const kept = planspec(ws, ["status", "short"]);
    expect(kept.code, kept.stderr).toBe(0);
    expect(headLine(ws, "short").summary.text).toBe(kept.stdout);
    expect(kept.stdout).toMatch(/^run short \(line\): done, 3 tool calls, state v\d+\n\nSTEP +STATUS/);
    expect(kept.stdout.match(/^s\d +done/gm)).toHaveLength(3);
    // --all reads the whole state and plan: the same text.
    expect(planspec(ws, ["status", "short", "--all"]).stdout).toBe(kept.stdout);
  });

  it("a long run shows the steps that matter and a count per status; --all lists every step", () => {
    const ws = workspace("p.plan.yaml", linear(60));
    expect(run(ws, "long").code).toBe(0);
    const r = planspec(ws, ["status", "long"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/^s\d+ +done/gm)).toEqual(["s55", "s56", "s57", "s58", "s59"].map((s) => expect.stringMatching(new RegExp(`^${s} +done`))));
    expect(r.stdout).toContain("60 steps: 60 done; 5 shown (--all lists every step)\n");
    expect(r.stdout).toMatch(/Done 60\/60: .*\(and 55 earlier steps\)/);
    const all = planspec(ws, ["status", "long", "--all"]);
    expect(all.stdout.match(/^s\d+ +done/gm)).toHaveLength(60);
  });

  it("a paused run: the kept summary names the waiting step; after approve, status reads the whole state and shows the decision", () => {
    const gate = "  publish: { kind: write, goal: publish, tool: gate, risk: write, needs: [s2], with: { release: go }, approval: { required: true, approvers: [ops] } }\n";
    const ws = workspace("p.plan.yaml", linear(3, gate));
    expect(run(ws, "held").code).toBe(3);
    const paused = planspec(ws, ["status", "held"]);
    expect(paused.code).toBe(3);
    expect(headLine(ws, "held").summary.text).toBe(paused.stdout);
    expect(paused.stdout).toMatch(/publish +pending .*needs approval by ops/);
    expect(planspec(ws, ["approve", "held", "publish", "--by", "ops"]).code).toBe(0);
    // The approval is a write after the session's last snapshot: its summary no longer holds.
    expect(headLine(ws, "held").summary).toBeUndefined();
    const after = planspec(ws, ["status", "held"]);
    expect(after.code).toBe(3);
    expect(after.stdout).toMatch(/publish +pending .*approved by ops/);
  });

  it("an edited state.json is refused in one line, whichever way status reads it", () => {
    const ws = workspace("p.plan.yaml", linear(3));
    expect(run(ws, "edited").code).toBe(0);
    const file = join(dir(ws, "edited"), "state.json");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace('"attempts":1', '"attempts":2'));
    for (const args of [["status", "edited"], ["status", "edited", "--all"]]) {
      const r = planspec(ws, args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/state\.json was edited outside planspec/);
      expect(r.stderr).not.toMatch(STACK);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    // Not even the head line may be trusted without the checksum: an edit there is refused too.
    const forged = text.replace(/"text":"run edited \(line\): done/, '"text":"run edited (line): DONE');
    expect(forged).not.toBe(text);
    writeFileSync(file, forged);
    expect(planspec(ws, ["status", "edited"]).stderr).toMatch(/edited outside planspec/);
  });
});
