/**
 * Red team, a planner expanding a phase at run time (`planspec refine`): the phase's
 * `max_steps` and `allowed_tools` are the plan's bounds on what the planner may add
 * (docs/dsl.md "the bound on what the planner may add"). A model that ignores them
 * (hallucinating, or steered by what it read) answered with more steps than the bound and
 * with tools the phase does not grant, and the revision was recorded and ran. Real CLI,
 * a local OpenAI-compatible server.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliAsync, workspace } from "../planner/fixtures.js";
import { type ScriptServer, openaiReply, startServer } from "../planner/server.js";

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOOLS = `import { writeFileSync } from "node:fs";
export default {
  "doc.read": { risk: "read", run: async (a) => ({ text: "Teh quick brown fox", path: a.path }) },
  "code.edit": { risk: "write", run: async () => ({ diff: "-Teh +The" }) },
  "repo.push": { risk: "write", run: async (a, ctx) => { writeFileSync(ctx.workspace + "/pushed.txt", "pushed"); return { pushed: true }; } },
};
`;

const PLAN = `planspec: 1
name: fix-typo
goal: Fix the typo in the README
deliverables: [patch]
complexity: simple
tools:
  doc.read: { risk: read }
  code.edit: { risk: write }
  repo.push: { risk: write }
limits: { run_timeout: 10m, max_tool_calls: 20 }
defaults: { timeout: 1m }
steps:
  read_readme:
    kind: read
    goal: Read the README to find the typo
    tool: doc.read
    with: { path: README.md }
    output: readme
    success:
      - check: "\${{ len(output.text) > 0 }}"
  fix:
    kind: phase
    goal: Fix the typo in the README
    needs: [read_readme]
    with: { text: "\${{ steps.read_readme.output.text }}" }
    expand: planner
    max_steps: 1
    allowed_tools: [code.edit]
    output: patch
`;

const edit = (extra: Record<string, unknown> = {}) => ({
  kind: "write",
  goal: "Fix the typo in the README",
  tool: "code.edit",
  risk: "write",
  with: { text: "${{ params.read_readme.text }}" },
  success: [{ check: "${{ exists(output.diff) }}" }],
  ...extra,
});

async function pausedAtPhase(): Promise<string> {
  const dir = workspace();
  writeFileSync(join(dir, "tools.mjs"), TOOLS);
  writeFileSync(join(dir, "p.plan.yaml"), PLAN);
  const r = await cliAsync(["run", "p.plan.yaml", "--tools", "./tools.mjs", "--run-dir", "run1"], dir);
  expect(r.stderr).not.toMatch(/planspec: /);
  expect(r.status).toBe(3);
  return dir;
}

describe("red team: refine holds the planner to the phase's bounds", () => {
  it.each([
    ["a tool the phase does not grant", { push: edit({ goal: "Push the fixed README", tool: "repo.push", with: { text: "${{ params.read_readme.text }}" }, output: "patch", needs: [] }) }, "repo.push"],
    ["more steps than max_steps", { edit: edit({ output: "fixed" }), verify: { kind: "verify", needs: ["edit"], goal: "Check the typo is gone", tool: "code.edit", risk: "write", with: { diff: "${{ steps.edit.output.diff }}" }, output: "patch", success: [{ check: "${{ exists(output.diff) }}" }] } }, "max_steps"],
  ])("%s: no revision is recorded, and the model is told why", async (_name, answer, why) => {
    const dir = await pausedAtPhase();
    server = await startServer([openaiReply(JSON.stringify({ steps: answer })), openaiReply(JSON.stringify({ steps: answer }))]);
    const r = await cliAsync(["refine", "run1", "fix", "--base-url", `${server.url}/v1`, "--max-repairs", "1"], dir, { OPENAI_API_KEY: "k" });
    expect(r.status).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.messages.at(-1).content).toContain(why);
    expect(readFileSync(join(dir, "run1/events.jsonl"), "utf8")).not.toContain("plan.revised");
    await cliAsync(["resume", "run1", "--tools", "./tools.mjs"], dir);
    expect(existsSync(join(dir, "pushed.txt"))).toBe(false);
  });
});
