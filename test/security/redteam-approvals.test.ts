/**
 * Red team, approvals: `approval.timeout` is the plan's deadline for a person's yes (a
 * deploy window, a time-sensitive mail). A resume after the deadline ends the gate as
 * timed out; but an approval recorded after the deadline, before any resume, held, and
 * the step ran: the deadline depended on who came first. Real CLI, real sleep.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planspec, put, scratch } from "./helpers.js";

const PLAN = `planspec: 1
name: window
goal: write the release note once a person approved it within the window
tools: { fs.write: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  publish:
    kind: write
    goal: write the release note
    tool: fs.write
    with: { path: note.txt, content: released }
    approval: { required: true, approvers: [ops], timeout: 1s }
`;

describe("red team: an approval after the gate's timeout", () => {
  it("is refused by approve, and the resume ends the gate as timed out; within the window it holds", async () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", "late", "--no-lint-gate"]).code).toBe(3);
    expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", "early", "--no-lint-gate"]).code).toBe(3);
    // Within the window: approved, and it runs when the run resumes (whenever that is).
    expect(planspec(ws, ["approve", "early", "publish", "--by", "ops"]).code).toBe(0);
    await new Promise((r) => setTimeout(r, 1500));

    const late = planspec(ws, ["approve", "late", "publish", "--by", "ops", "--note", "sorry, was away"]);
    expect(late.stderr.trim()).toMatch(/^planspec: the request to approve step "publish" timed out at \S+ \(approval\.timeout 1s\); resume to end it, or start a new run$/);
    expect(late.code).toBe(2);
    const resumed = planspec(ws, ["resume", "late"]);
    expect(resumed.stdout).toContain('approval of step "publish" timed out');
    expect(existsSync(join(ws, "note.txt"))).toBe(false);

    expect(planspec(ws, ["resume", "early"]).code).toBe(0);
    expect(existsSync(join(ws, "note.txt"))).toBe(true);
  });
});
