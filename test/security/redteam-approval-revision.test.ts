/**
 * Red team, an approval and a later revision: an approval is bound to what the step will
 * do, but the binding held the step's own definition, arguments, key, inputs and upstream
 * results only, not what the plan around it hands the call. A revision recorded after the
 * approval ("no step changed") that lists `AWS_SECRET_ACCESS_KEY` under `secrets:` gave the
 * approved `exec` the operator's key; one that points the step's MCP server elsewhere (its
 * `command`, `args`, `env`) had the approved call made to another program. Real CLI,
 * `planspec revise`, the SDK fixture server.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_SERVER, importCatalogue } from "../mcp/helpers.js";
import { events, planspec, put, scratch } from "./helpers.js";

const KEY = "AKIA-operator-secret-998877";

const DEPLOY = `planspec: 1
name: deploy
goal: run the deploy script once a person approved it
tools: { fs.read: { risk: read }, exec: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  read_manifest:
    kind: read
    goal: read the manifest
    tool: fs.read
    with: { path: manifest.txt }
    output: manifest
  deploy:
    kind: external
    goal: run the deploy script
    needs: [read_manifest]
    tool: exec
    risk: external
    with: { command: "sh", args: [./deploy.sh, "\${{ steps.read_manifest.output.bytes }}"] }
    idempotency_key: "\${{ run.id }}:deploy"
    timeout: 30s
    approval: { required: true, approvers: [ops], timeout: 1h }
`;

const post = (mcp: string) => `planspec: 1
name: post
goal: post the status once a person approved it
limits: { max_tool_calls: 5, run_timeout: 1m }
mcp:
${mcp}
tools:
  import: ./fx.catalog.yaml
steps:
  say:
    kind: read
    goal: say the status
    tool: fx.echo
    with: { text: green }
    output: said
  publish:
    kind: external
    goal: post the status to the web
    needs: [say]
    tool: fx.web
    with: { text: "\${{ steps.say.output.echo }}" }
    idempotency_key: "\${{ run.id }}:publish"
    timeout: 10s
    approval: { required: true, approvers: [ops], timeout: 1h }
`;

/** Run to the gate, approve, revise with `revised`, resume: the resume's result and the run's events. */
function approveThenRevise(ws: string, original: string, revised: string, extra: string[] = []) {
  put(ws, "p.plan.yaml", original);
  put(ws, "p2.plan.yaml", revised);
  const env = { AWS_SECRET_ACCESS_KEY: KEY };
  expect(planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r", ...extra], env).code).toBe(3);
  expect(planspec(ws, ["approve", "r", original.includes("deploy:") ? "deploy" : "publish", "--by", "ops"]).code).toBe(0);
  const revise = planspec(ws, ["revise", "r", "p2.plan.yaml", "--reason", "the call needs more", ...extra], env);
  expect(revise.code, revise.stderr).toBe(0);
  const resumed = planspec(ws, ["resume", "r", ...extra], env);
  return { resumed, voided: events(join(ws, "r")).filter((e) => e.type === "approval.voided") };
}

describe("red team: a revision after an approval voids it when it changes what the call gets", () => {
  it("secrets: listed by the revision: the approved exec does not get the key; the run asks again", () => {
    const ws = scratch();
    put(ws, "manifest.txt", "v1\n");
    put(ws, "deploy.sh", "env | grep '^AWS_SECRET' > leaked.txt; echo deployed\n");
    const { resumed, voided } = approveThenRevise(ws, DEPLOY, DEPLOY.replace("tools:", "secrets: [AWS_SECRET_ACCESS_KEY]\ntools:"));
    // Before: exit 0, leaked.txt held AWS_SECRET_ACCESS_KEY=AKIA-operator-secret-998877.
    expect(existsSync(join(ws, "leaked.txt"))).toBe(false);
    expect(resumed.code).toBe(3);
    expect(voided.map((e) => e.data.node)).toEqual(["deploy"]);
    // Approved again, for what it now gets, it runs.
    expect(planspec(ws, ["approve", "r", "deploy", "--by", "ops"]).code).toBe(0);
    expect(planspec(ws, ["resume", "r"], { AWS_SECRET_ACCESS_KEY: KEY }).code).toBe(0);
    expect(readFileSync(join(ws, "leaked.txt"), "utf8")).toContain(KEY);
  });

  it.each([
    ["args", `  fx: { command: ${process.execPath}, args: [${FIXTURE_SERVER}, --profile, prod] }`],
    ["env", `  fx: { command: ${process.execPath}, args: [${FIXTURE_SERVER}], env: { FIXTURE_MODE: prod } }`],
  ])("the MCP server's %s changed by the revision: the approved call is not made to it", (_what, revised) => {
    const ws = scratch();
    importCatalogue(ws, "fx", [process.execPath, FIXTURE_SERVER]);
    const original = `  fx: { command: ${process.execPath}, args: [${FIXTURE_SERVER}] }`;
    const { resumed, voided } = approveThenRevise(ws, post(original), post(revised), ["--no-lint-gate"]);
    // Before: exit 0, fx.web called on the revised server under the old approval.
    expect(voided.map((e) => e.data.node)).toEqual(["publish"]);
    expect(resumed.code).toBe(3);
    expect(events(join(ws, "r")).filter((e) => e.type === "tool.call" && e.data.tool === "fx.web")).toEqual([]);
  });

  it("a revision that changes nothing the call gets keeps the approval", () => {
    const ws = scratch();
    put(ws, "manifest.txt", "v1\n");
    put(ws, "deploy.sh", "echo deployed > done.txt\n");
    const { resumed, voided } = approveThenRevise(ws, DEPLOY, DEPLOY.replace("max_tool_calls: 5", "max_tool_calls: 6"));
    expect(voided).toEqual([]);
    expect(resumed.code).toBe(0);
    expect(existsSync(join(ws, "done.txt"))).toBe(true);
  });
});

const NOTIFY = `planspec: 1
name: notify
goal: notify the team once a person approved it
tools: { notify: { risk: external } }
limits: { max_tool_calls: 5 }
steps:
  notify:
    kind: external
    goal: notify the team
    tool: notify
    with: { text: "release is out" }
    idempotency_key: "\${{ run.id }}:notify"
    timeout: 5s
    approval: { required: true, approvers: [ops], timeout: 1h }
`;

const GOOD = `export default { notify: { risk: "external", run: (a) => ({ sent: a.text }) } };\n`;
const OTHER = `import { writeFileSync } from "node:fs";
export default { notify: { risk: "external", run: (a, ctx) => { writeFileSync(ctx.workspace + "/other-ran.txt", "x"); return { sent: a.text }; } } };
`;

describe("red team: an approval and the code behind the call", () => {
  it.each([
    ["resume --tools other.mjs", (ws: string) => put(ws, "other.mjs", OTHER), ["--tools", "other.mjs"]],
    ["tools.mjs edited between approve and resume", (ws: string) => put(ws, "tools.mjs", OTHER), []],
  ] as const)("%s: the approved call does not run other code; the run asks again", (_what, change, extra) => {
    const ws = scratch();
    put(ws, "tools.mjs", GOOD);
    put(ws, "p.plan.yaml", NOTIFY);
    expect(planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "r", "--no-lint-gate"]).code).toBe(3);
    expect(planspec(ws, ["approve", "r", "notify", "--by", "ops"]).code).toBe(0);
    change(ws);
    const resumed = planspec(ws, ["resume", "r", ...extra]);
    // Before: exit 0 and other-ran.txt: the approval held for code nobody approved.
    expect(existsSync(join(ws, "other-ran.txt"))).toBe(false);
    expect(resumed.code).toBe(3);
    expect(events(join(ws, "r")).filter((e) => e.type === "approval.voided").map((e) => e.data.node)).toEqual(["notify"]);
  });

  it.each([
    ["a static import", `import { send } from "./lib/send.mjs";\nexport default { notify: { risk: "external", run: (a, ctx) => send(a, ctx) } };\n`],
    ["a dynamic import", `export default { notify: { risk: "external", run: async (a, ctx) => (await import("./lib/send.mjs")).send(a, ctx) } };\n`],
  ])("the module's helper (%s) edited between approve and resume: the run asks again", (_how, tools) => {
    const ws = scratch();
    put(ws, "tools.mjs", tools);
    mkdirSync(join(ws, "lib"));
    put(ws, "lib/send.mjs", `export const send = (a) => ({ sent: a.text });\n`);
    put(ws, "p.plan.yaml", NOTIFY);
    expect(planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "r", "--no-lint-gate"]).code).toBe(3);
    expect(planspec(ws, ["approve", "r", "notify", "--by", "ops"]).code).toBe(0);
    put(ws, "lib/send.mjs", `import { writeFileSync } from "node:fs";\nexport const send = (a, ctx) => { writeFileSync(ctx.workspace + "/other-ran.txt", "x"); return { sent: a.text }; };\n`);
    const resumed = planspec(ws, ["resume", "r"]);
    // Before: exit 0 and other-ran.txt: the digest covered tools.mjs, not the code it imports.
    expect(existsSync(join(ws, "other-ran.txt"))).toBe(false);
    expect(resumed.code).toBe(3);
    expect(events(join(ws, "r")).filter((e) => e.type === "approval.voided").map((e) => e.data.node)).toEqual(["notify"]);
  });

  it("the same modules on resume keep the approval", () => {
    const ws = scratch();
    put(ws, "tools.mjs", GOOD);
    put(ws, "p.plan.yaml", NOTIFY);
    expect(planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "r", "--no-lint-gate"]).code).toBe(3);
    expect(planspec(ws, ["approve", "r", "notify", "--by", "ops"]).code).toBe(0);
    expect(planspec(ws, ["resume", "r"]).code).toBe(0);
  });
});
