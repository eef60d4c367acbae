/**
 * `repeat.delay`: the runtime waits the poll interval between attempts, and a step
 * timeout ends the wait at once instead of sleeping it out.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startRun } from "../../src/runtime/run.js";
import { plan, readState, tempDir, writeFile } from "./helpers.js";

// A poll target that records when it was called and is "done" on the third call.
const POLL_TOOLS = `
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
export default {
  poll: {
    risk: "read",
    run: (args, ctx) => {
      const f = join(ctx.workspace, "polls.log");
      appendFileSync(f, Date.now() + "\\n");
      const n = readFileSync(f, "utf8").split("\\n").filter(Boolean).length;
      return { done: n >= (args.doneAfter ?? 3), n };
    },
  },
};
`;

const polls = (ws: string) => readFileSync(join(ws, "polls.log"), "utf8").split("\n").filter(Boolean).map(Number);

const pollPlan = (repeat: string, extra = "") =>
  plan(`planspec: 1
name: poll
goal: poll until done
tools: { poll: { risk: read } }
limits: { max_tool_calls: 20 }
steps:
  wait:
    kind: read
    goal: Poll until done
    tool: poll
    with: { doneAfter: 3 }
    repeat: ${repeat}
    output: status
${extra}`);

describe("repeat.delay", () => {
  it("compiles to the IR and waits the delay between attempts", async () => {
    const ws = tempDir();
    const tools = writeFile(ws, "tools.mjs", POLL_TOOLS);
    const ir = pollPlan('{ until: "${{ output.done }}", max_attempts: 5, delay: 150ms }');
    expect(ir.nodes[0]!.repeat).toEqual({ until: "output.done", maxAttempts: 5, delayMs: 150 });
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    expect(r.outcome.status).toBe("done");
    const at = polls(ws);
    expect(at).toHaveLength(3);
    // setTimeout may fire a millisecond early on some platforms.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(145);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(145);
  });

  it("a step timeout ends the wait between polls", async () => {
    const ws = tempDir();
    const tools = writeFile(ws, "tools.mjs", POLL_TOOLS);
    const ir = pollPlan('{ until: "${{ output.done }}", max_attempts: 5, delay: 60s }', "    timeout: 200ms\n");
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    expect(r.outcome.status).not.toBe("done");
    expect(polls(ws)).toHaveLength(1);
    expect(readState(r.dir).nodes.wait!.lastError).toMatch(/timed out after 200ms/);
  });
});
