/**
 * Red team, lint output: a credential written into a plan is refused by
 * secret-in-arguments, but the text format's code frame printed the line it is on, token
 * and all, into the CI log (and into the feedback a planner sends back to the model). The
 * frame now masks it; the finding still points at it. Real CLI.
 */
import { describe, expect, it } from "vitest";
import { planspec, put, scratch } from "./helpers.js";

const TOKEN = "xoxb-2f9a41c7d3-b81e5f0a6c927d4e";
const GH = "ghp_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8";

const plan = `planspec: 1
name: weekly-metrics
goal: Post the weekly metrics to the team channel.
tools: { metrics.read: { risk: read }, slack.post: { risk: external } }
limits: { max_tool_calls: 5, run_timeout: 5m }
steps:
  read:
    kind: read
    goal: Read the weekly metrics
    tool: metrics.read
    output: metrics
  post:
    kind: external
    needs: [read]
    goal: Post the metrics summary to the team channel
    tool: slack.post
    with: { channel: metrics, token: "${TOKEN}", text: "\${{ steps.read.output }}", extra: "${GH}" }
    approval: { required: true, approvers: [lead] }
    idempotency_key: weekly
    timeout: 1m
`;

describe("a literal secret in a plan", () => {
  it("is masked in lint's code frames, and the finding still points at it", () => {
    const dir = scratch();
    put(dir, "metrics.plan.yaml", plan);
    const r = planspec(dir, ["lint", "metrics.plan.yaml"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("[secret-in-arguments]");
    // Two findings on that line (two secrets, plus approval-without-timeout below): no frame shows either value.
    expect(r.stdout).not.toContain(TOKEN);
    expect(r.stdout).not.toContain(GH);
    expect(r.stdout).not.toContain(TOKEN.slice(5));
    expect(r.stdout).toMatch(/token: "xoxb\*+"/);
    expect(r.stdout).toMatch(/ghp_\*+/);
  });

  it("is masked in the gate's report when `planspec run` refuses the plan", () => {
    const dir = scratch();
    put(dir, "metrics.plan.yaml", plan);
    const r = planspec(dir, ["run", "metrics.plan.yaml"]);
    expect(r.code).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toContain("secret-in-arguments");
    expect(`${r.stdout}${r.stderr}`).not.toContain(TOKEN);
    expect(`${r.stdout}${r.stderr}`).not.toContain(GH);
  });

  it("is masked in the window a frame cuts out of a one-line JSON plan", () => {
    const dir = scratch();
    const steps = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`s${i}`, { kind: "read", goal: `Read part ${i} of the weekly metrics`, tool: "metrics.read", timeout: "1m", with: { part: i, note: "x".repeat(60) } }]),
    );
    const post = { kind: "external", needs: ["s39"], goal: "Post the metrics summary to the team channel", tool: "slack.post", with: { channel: "metrics", token: TOKEN }, timeout: "1m" };
    const doc = { planspec: 1, name: "weekly-metrics", goal: "Post the weekly metrics to the team channel.", tools: { "metrics.read": { risk: "read" }, "slack.post": { risk: "external" } }, limits: { max_tool_calls: 50, run_timeout: "5m" }, steps: { ...steps, post } };
    put(dir, "metrics.plan.json", JSON.stringify(doc));
    const r = planspec(dir, ["lint", "metrics.plan.json"]);
    expect(r.stdout).toContain("[secret-in-arguments]");
    expect(r.stdout).toContain("…");
    expect(r.stdout).not.toContain(TOKEN);
    expect(r.stdout).toContain("xoxb***");
  });

  it("is masked in a frame of another finding on the same line", () => {
    const dir = scratch();
    // A misspelt step reference on the line is the only finding that shows it (secret-in-arguments off).
    put(dir, "one.plan.yaml", plan.replace("steps.read.output", "steps.raed.output"));
    put(dir, "planspec.config.yaml", "rules:\n  secret-in-arguments: off\n");
    const r = planspec(dir, ["lint", "one.plan.yaml"]);
    expect(r.stdout).toContain("raed");
    expect(r.stdout).toContain("17 |");
    expect(r.stdout).not.toContain(TOKEN);
    expect(r.stdout).not.toContain(GH);
  });
});
