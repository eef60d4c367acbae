import { describe, expect, it } from "vitest";
import { decide } from "../../src/runtime/decide.js";
import { resumeRun, startRun } from "../../src/runtime/run.js";
import { plan, readState, tempDir, TEST_TOOLS, writeFile } from "./helpers.js";

const PLAN = `planspec: 1
name: judged
goal: write a summary a person finds clear
tools: { echo: { risk: read } }
limits: { max_tool_calls: 10 }
steps:
  draft:
    kind: summarize
    goal: draft
    tool: echo
    with: { text: "all good" }
    output: draft
    success:
      - judge: the summary is clear to a non-expert
  publish: { kind: analyze, goal: publish, needs: [draft], tool: echo }
`;

describe("judge criteria", () => {
  it("without a judge tool the run pauses for a person; approval finishes the step without re-running it", async () => {
    const ws = tempDir();
    const tools = writeFile(ws, "tools.mjs", TEST_TOOLS);
    const r = await startRun({ plan: plan(PLAN), cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    expect(r.outcome.status).toBe("paused");
    const s = readState(r.dir);
    expect(s.nodes.draft).toMatchObject({ status: "running", awaiting: { kind: "judge", criterion: "the summary is clear to a non-expert" } });
    await decide(r.dir, "draft", "approved", "editor");
    const again = await resumeRun(r.dir);
    expect(again.outcome.status).toBe("done");
    expect(readState(r.dir).nodes.draft!.attempts).toBe(1);
  });

  it("a registered judge tool decides; a negative verdict fails the step", async () => {
    const ws = tempDir();
    const tools = writeFile(ws, "tools.mjs", TEST_TOOLS);
    const judge = writeFile(ws, "judge.mjs", `export default { judge: { risk: "read", run: (a) => ({ pass: a.output.text !== "all good", reason: "too vague" }) } };`);
    // The step grants the judge: it is called through the gateway like any tool (test/security/gateway.test.ts).
    const granted = PLAN.replace("tools: { echo: { risk: read } }", "tools: { echo: { risk: read }, judge: { risk: read } }").replace("    tool: echo\n    with", "    tool: echo\n    allowed_tools: [echo, judge]\n    with");
    const r = await startRun({ plan: plan(granted), cwd: ws, inputs: {}, toolModules: [tools, judge], runDir: "run" });
    expect(r.outcome.status).toBe("failed");
    expect(readState(r.dir).nodes.draft!.lastError).toBe("judge: not met: the summary is clear to a non-expert (too vague)");
  });
});
