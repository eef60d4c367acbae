/**
 * The runtime's judge is a tool like any other: a `judge` from a tool module is called
 * only when the step grants it and its risk is within the step's (it used to be called
 * as a "system" call that skipped both checks).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { events, exists, json, planspec, put, scratch } from "./helpers.js";

// The judge leaves a mark when it runs: proof of a call, whatever the run records.
const TOOLS = (risk: string) => `
import { appendFileSync } from "node:fs";
import { join } from "node:path";
export default {
  echo: { risk: "read", run: (args) => args },
  judge: { risk: "${risk}", run: (args, ctx) => { appendFileSync(join(ctx.workspace, "judge-called"), "x"); return { pass: true }; } },
};`;

const PLAN = (allowed: string, judgeRisk: string) => `planspec: 1
name: judged
goal: publish a summary a person finds clear
tools: { echo: { risk: read }, judge: { risk: ${judgeRisk} } }
limits: { max_tool_calls: 10 }
steps:
  draft:
    kind: summarize
    goal: draft the summary
    tool: echo
    allowed_tools: [${allowed}]
    risk: read
    with: { text: "all good" }
    output: draft
    success:
      - judge: the summary is clear to a non-expert
`;

function run(allowed: string, judgeRisk: string) {
  const ws = scratch();
  put(ws, "tools.mjs", TOOLS(judgeRisk));
  put(ws, "p.plan.yaml", PLAN(allowed, judgeRisk));
  const r = planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "run", "--no-lint-gate"]);
  return { ws, r, run: join(ws, "run") };
}

describe("judge goes through the gateway", () => {
  it("a judge the step does not grant is refused: a violation, never executed, the step fails", () => {
    const { ws, r, run: dir } = run("echo", "read");
    expect(exists(join(ws, "judge-called"))).toBe(false);
    expect(r.code).toBe(1);
    const v = events(dir).filter((e) => e.type === "violation");
    expect(v).toHaveLength(1);
    expect(v[0]!.data).toMatchObject({ node: "draft", tool: "judge" });
    expect(json<{ nodes: Record<string, { status: string; lastError: string }> }>(join(dir, "state.json")).nodes.draft).toMatchObject({
      status: "failed",
      lastError: expect.stringContaining('may not call tool "judge"'),
    });
  });

  it("a granted judge whose risk is above the step's is refused", () => {
    const { ws, r, run: dir } = run("echo, judge", "write");
    expect(exists(join(ws, "judge-called"))).toBe(false);
    expect(r.code).toBe(1);
    expect(events(dir).filter((e) => e.type === "violation")[0]?.data.reason).toMatch(/risk write is above the step's risk read/);
  });

  it("a granted judge within the step's risk decides (the control case)", () => {
    const { ws, r } = run("echo, judge", "read");
    expect(r.code).toBe(0);
    expect(exists(join(ws, "judge-called"))).toBe(true);
  });
});
