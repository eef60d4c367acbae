/**
 * Approvals bound to the action: an approval holds only for what the step will do when it
 * was given (tool, evaluated arguments, key, inputs and upstream results it reads).
 * Attacks through the CLI: changed inputs on resume, decisions ahead of the gate, and
 * decisions written into state.json by hand.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEvents, readState } from "../runtime/helpers.js";
import { fileLines, planspec } from "../cli/run-helpers.js";
import { STACK, workspace } from "./helpers.js";

const MAIL = `planspec: 1
name: mail
goal: Draft the report and mail it
inputs: { recipient: { type: string, default: "ops@example.com" } }
tools: { echo: { risk: read }, ledger: { risk: external } }
limits: { max_tool_calls: 50 }
steps:
  draft: { kind: analyze, goal: Draft the report, tool: echo, with: { text: "all fine" }, output: report }
  send:
    kind: external
    goal: Mail the report
    needs: [draft]
    tool: ledger
    risk: external
    with: { entry: "\${{ inputs.recipient }}: \${{ steps.draft.output.text }}" }
    approval: { required: true, approvers: [ops] }
    output: sent
`;

const runDir = (ws: string, id: string) => join(ws, ".planspec/runs", id);
const sent = (ws: string) => fileLines(join(ws, "ledger.txt"));
const start = (ws: string, id: string) => planspec(ws, ["run", "mail.plan.yaml", "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate"]);
const ATTACK = ["--input", "recipient=attacker@evil.example"];

describe("approvals are bound to what they approved", () => {
  it("approve send, then resume --input recipient=attacker: the approval is void, the run pauses again, nothing is sent", () => {
    const ws = workspace("mail.plan.yaml", MAIL);
    expect(start(ws, "a").code).toBe(3);
    expect(planspec(ws, ["approve", "a", "send", "--by", "ops"]).code).toBe(0);
    const r = planspec(ws, ["resume", "a", ...ATTACK]);
    expect(r.code, r.stderr).toBe(3);
    expect(sent(ws)).toEqual([]);
    const voided = readEvents(runDir(ws, "a")).filter((e) => e.type === "approval.voided");
    expect(voided).toHaveLength(1);
    expect(voided[0]!.data).toMatchObject({ node: "send", by: "ops", reason: expect.stringMatching(/changed since it was approved/) });
    expect(r.stderr).toMatch(/send: approval by ops is void: .*changed since it was approved/);
    expect(planspec(ws, ["status", "a"]).stdout).toMatch(/send .*needs approval by ops/);
    // A new approval, for the new recipient, sends exactly that.
    expect(planspec(ws, ["approve", "a", "send", "--by", "ops"]).code).toBe(0);
    expect(planspec(ws, ["resume", "a"]).code).toBe(0);
    expect(sent(ws)).toEqual(['nokey "attacker@evil.example: all fine"']);
  });

  it("after the run is done, resume --input recipient=attacker does not send a second message", () => {
    const ws = workspace("mail.plan.yaml", MAIL);
    expect(start(ws, "d").code).toBe(3);
    expect(planspec(ws, ["approve", "d", "send", "--by", "ops"]).code).toBe(0);
    expect(planspec(ws, ["resume", "d"]).code).toBe(0);
    expect(sent(ws)).toEqual(['nokey "ops@example.com: all fine"']);
    const r = planspec(ws, ["resume", "d", ...ATTACK]);
    expect(r.code, r.stderr).toBe(3);
    expect(sent(ws)).toEqual(['nokey "ops@example.com: all fine"']);
    expect(readState(runDir(ws, "d")).nodes.send!.decision).toBeUndefined();
  });

  it("approve send, then a revision changes what send does: the approval does not carry over, the run pauses again", () => {
    const ws = workspace("mail.plan.yaml", MAIL);
    expect(start(ws, "rev").code).toBe(3);
    expect(planspec(ws, ["approve", "rev", "send", "--by", "ops"]).code).toBe(0);
    writeFileSync(join(ws, "mail2.plan.yaml"), MAIL.replace('"\${{ inputs.recipient }}: ', '"cc attacker@evil.example, \${{ inputs.recipient }}: '));
    const revised = planspec(ws, ["revise", "rev", "mail2.plan.yaml", "--reason", "add a cc", "--no-lint-gate"]);
    expect(revised.code, revised.stderr).toBe(0);
    const r = planspec(ws, ["resume", "rev"]);
    expect(r.code, r.stderr).toBe(3);
    expect(sent(ws)).toEqual([]);
    expect(readState(runDir(ws, "rev")).nodes.send!.awaiting?.kind).toBe("approval");
  });

  it("a decision for a gate the run has not reached is refused with one line", () => {
    const plan = MAIL.replace('with: { text: "all fine" }, output: report }', 'with: { text: "all fine" }, output: report, approval: { required: true } }');
    const ws = workspace("mail.plan.yaml", plan);
    expect(start(ws, "early").code).toBe(3);
    for (const cmd of ["approve", "reject"]) {
      const r = planspec(ws, [cmd, "early", "send", "--by", "ops"]);
      expect(r.code, cmd).toBe(2);
      expect(r.stderr).toMatch(/step "send" is not waiting for a decision yet: its needs "draft" are not done/);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(readState(runDir(ws, "early")).nodes.send!.decision).toBeUndefined();
  });

  it("an approval written into state.json by hand is refused (checksum), and one with a forged checksum is void (no approval event)", () => {
    const ws = workspace("mail.plan.yaml", MAIL);
    expect(start(ws, "h").code).toBe(3);
    const file = join(runDir(ws, "h"), "state.json");
    const state = JSON.parse(readFileSync(file, "utf8"));
    state.nodes.send.decision = { decision: "approved", by: "ops", at: new Date().toISOString() };
    writeFileSync(file, JSON.stringify(state));
    const r = planspec(ws, ["resume", "h"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/state\.json was edited outside planspec/);
    expect(r.stderr).not.toMatch(STACK);
    expect(sent(ws)).toEqual([]);
    // An attacker who also recomputes the checksum still has no approval event behind the decision.
    delete state.checksum;
    const body = JSON.stringify(state).slice(0, -1);
    writeFileSync(file, `${body},"checksum":"${createHash("sha256").update(`${body}}`).digest("hex")}"}\n`);
    const again = planspec(ws, ["resume", "h"]);
    expect(again.code, again.stderr).toBe(3);
    expect(sent(ws)).toEqual([]);
    expect(readEvents(runDir(ws, "h")).find((e) => e.type === "approval.voided")?.data.reason).toMatch(/not recorded by planspec approve/);
  });

  it("an approval of a step that reads a secret holds on resume with the same secret, and is void with another", () => {
    // approve sees the run as stored (the secret input as its mark, no plan secrets); the gate must judge by the same view.
    const plan = MAIL.replace('inputs: { recipient: { type: string, default: "ops@example.com" } }', 'inputs: { recipient: { type: string, default: "ops@example.com" }, pin: { type: string, secret: true } }\nsecrets: [MAIL_TOKEN]')
      .replace('with: { entry: "\${{ inputs.recipient }}: \${{ steps.draft.output.text }}" }', 'with: { entry: "\${{ inputs.recipient }}: \${{ steps.draft.output.text }}", pin: "\${{ inputs.pin }}", token: "\${{ secrets.MAIL_TOKEN }}" }');
    const ws = workspace("mail.plan.yaml", plan);
    const env = { MAIL_TOKEN: "mt-0123456789abcdef" };
    const run = (cmd: string, ...more: string[]) =>
      planspec(ws, cmd === "run" ? ["run", "mail.plan.yaml", "--tools", "tools.mjs", "--run-id", "s", "--no-lint-gate", ...more] : [cmd, "s", ...more], env);
    expect(run("run", "--input", "pin=730519").code).toBe(3);
    expect(run("approve", "send", "--by", "ops").code).toBe(0);
    const other = run("resume", "--input", "pin=111111");
    expect(other.code, other.stderr).toBe(3);
    expect(other.stderr).toMatch(/send: approval by ops is void: .*changed since it was approved/);
    expect(sent(ws)).toEqual([]);
    expect(run("approve", "send", "--by", "ops").code).toBe(0);
    const same = run("resume", "--input", "pin=111111");
    expect(same.code, same.stderr).toBe(0);
    expect(sent(ws)).toEqual(['nokey "ops@example.com: all fine"']);
  });
});
