/**
 * `planspec refine` and `planspec replan` on real runs (started with the real bin),
 * against a local OpenAI-compatible server: the prompt carries only the referenced
 * artifacts, the sub-steps replace the step as `<step>.<sub>` through the revision
 * path, and `resume` finishes the run.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliAsync, workspace } from "../planner/fixtures.js";
import { type ScriptServer, openaiReply, startServer } from "../planner/server.js";

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOOLS = `export default {
  "doc.read": { risk: "read", run: async (a) => ({ text: "Teh quick brown fox", path: a.path }) },
  "doc.secret": { risk: "read", run: async () => ({ token: "UNRELATED-ARTIFACT" }) },
  "code.edit": { risk: "write", run: async (a) => { if (a.fail) throw new Error("patch does not apply"); return { diff: "-Teh +The" }; } },
  "code.search": { risk: "read", run: async () => ({ matches: [] }) },
  "tests.run": { risk: "write", run: async () => ({ failed: 0 }) },
};
`;

function plan(fixStep: string): string {
  return `planspec: 1
name: fix-typo
goal: Fix the typo in the README
deliverables: [patch]
complexity: simple
tools:
  doc.read: { risk: read }
  doc.secret: { risk: read }
  code.edit: { risk: write }
limits: { run_timeout: 10m, max_tool_calls: 20 }
defaults: { timeout: 1m }
steps:
  other:
    kind: read
    goal: Read an unrelated setting of the README repository
    tool: doc.secret
    output: setting
  read_readme:
    kind: read
    goal: Read the README to find the typo
    tool: doc.read
    with: { path: README.md }
    output: readme
    success:
      - check: "\${{ len(output.text) > 0 }}"
${fixStep}`;
}

const PHASE = `  fix:
    kind: phase
    goal: Fix the typo in the README
    needs: [read_readme, other]
    with: { text: "\${{ steps.read_readme.output.text }}" }
    expand: planner
    max_steps: 3
    output: patch
    approval: { required: true, approvers: [me], timeout: 1h }
`;

const FAILING = `  fix:
    kind: write
    goal: Fix the typo in the README
    needs: [read_readme]
    tool: code.edit
    with: { text: "\${{ steps.read_readme.output.text }}", fail: true }
    output: patch
    retry: { max_attempts: 1 }
`;

const SUB_STEPS = {
  steps: {
    edit: {
      kind: "write",
      goal: "Fix the typo in the README",
      tool: "code.edit",
      risk: "write",
      with: { text: "${{ params.read_readme.text }}" },
      output: "patch",
      success: [{ check: "${{ exists(output.diff) }}" }],
    },
  },
};

async function startRun(fixStep: string): Promise<string> {
  const dir = workspace();
  writeFileSync(join(dir, "tools.mjs"), TOOLS);
  writeFileSync(join(dir, "p.plan.yaml"), plan(fixStep));
  const r = await cliAsync(["run", "p.plan.yaml", "--tools", "./tools.mjs", "--run-dir", "run1"], dir);
  expect(r.stderr).not.toMatch(/planspec: /);
  return dir;
}

describe("planspec refine", () => {
  it("expands a phase of a paused run into <phase>.<sub> steps, and the run then finishes", async () => {
    const dir = await startRun(PHASE);
    server = await startServer([openaiReply(JSON.stringify({ steps: { edit: { ...SUB_STEPS.steps.edit, risk: "read" } } })), openaiReply(JSON.stringify(SUB_STEPS))]);
    const r = await cliAsync(["refine", "run1", "fix", "--base-url", `${server.url}/v1`], dir, { OPENAI_API_KEY: "k" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('revision 1 recorded: "fix" replaced by fix.edit');

    const prompt = server.requests[0]!.body.messages[1].content as string;
    expect(prompt).toContain("Expand the phase step \"fix\"");
    expect(prompt).toContain('"text":"Teh quick brown fox"');
    // Only what the phase references: the unrelated step's artifact stays out.
    expect(prompt).not.toContain("UNRELATED-ARTIFACT");
    expect(prompt).toContain("approval gate");
    expect(server.requests[0]!.body.response_format.json_schema.schema.required).toEqual(["steps"]);
    // The first answer under-labelled its risk: lint fed it back.
    expect(server.requests[1]!.body.messages.at(-1).content).toContain("[risk-under-labelled]");

    const events = readFileSync(join(dir, "run1/events.jsonl"), "utf8");
    expect(events).toContain("plan.revised");
    const resumed = await cliAsync(["resume", "run1"], dir);
    expect(resumed.status).toBe(0);
    const state = JSON.parse(readFileSync(join(dir, "run1/state.json"), "utf8"));
    expect(state.status).toBe("done");
    expect(Object.keys(state.nodes).sort()).toEqual(["fix.edit", "other", "read_readme"]);
  });

  it("takes the planner's provider flags: --max-tokens and --header reach the server", async () => {
    const dir = await startRun(PHASE);
    server = await startServer([openaiReply(JSON.stringify(SUB_STEPS))]);
    const r = await cliAsync(["refine", "run1", "fix", "--base-url", `${server.url}/v1`, "--max-tokens", "777", "--header", "X-Gateway-Route=refine"], dir, { OPENAI_API_KEY: "k" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(server.requests[0]!.body.max_tokens).toBe(777);
    expect(server.requests[0]!.headers["x-gateway-route"]).toBe("refine");
    const bad = await cliAsync(["refine", "run1", "fix", "--max-tokens", "zero"], dir, { OPENAI_API_KEY: "k" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^planspec: .*--max-tokens/);
  });

  it("refuses a step that is not a phase, in one line", async () => {
    const dir = await startRun(PHASE);
    const r = await cliAsync(["refine", "run1", "read_readme", "--base-url", "http://127.0.0.1:1/v1"], dir, { OPENAI_API_KEY: "k" });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('planspec: step "read_readme" is a read step, not a phase: only phases are refined\n');
  });

  it("exits 1 and records nothing when the sub-steps never lint clean", async () => {
    const dir = await startRun(PHASE);
    const blind = openaiReply(JSON.stringify({ steps: { edit: { ...SUB_STEPS.steps.edit, risk: "read" } } }));
    server = await startServer([blind]);
    const r = await cliAsync(["refine", "run1", "fix", "--max-repairs", "0", "--base-url", `${server.url}/v1`], dir, { OPENAI_API_KEY: "k" });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("[risk-under-labelled]");
    expect(readFileSync(join(dir, "run1/events.jsonl"), "utf8")).not.toContain("plan.revised");
  });
});

describe("planspec replan", () => {
  it("replaces the failed step with sub-steps, telling the model why it failed", async () => {
    const dir = await startRun(FAILING);
    const before = JSON.parse(readFileSync(join(dir, "run1/state.json"), "utf8"));
    expect(before.nodes.fix.status).toBe("failed");
    server = await startServer([openaiReply(JSON.stringify(SUB_STEPS))]);
    const r = await cliAsync(["replan", "run1", "--base-url", `${server.url}/v1`], dir, { OPENAI_API_KEY: "k" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(server.requests[0]!.body.messages[1].content).toMatch(/Step "fix" .* failed: .*patch does not apply/);
    const resumed = await cliAsync(["resume", "run1"], dir);
    expect(resumed.status).toBe(0);
    const state = JSON.parse(readFileSync(join(dir, "run1/state.json"), "utf8"));
    expect(state.nodes["fix.edit"].status).toBe("done");
  });
});
