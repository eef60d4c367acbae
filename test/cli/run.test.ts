/** `planspec run/status/runs/approve/reject/revise` through the real CLI on the csv-anomalies example. */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hostname, userInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { readEvents, readState, tempDir, writeFile, TEST_TOOLS } from "../runtime/helpers.js";
import { fileLines, planspec, ROOT } from "./run-helpers.js";

const EXAMPLE = "specs/examples/csv-anomalies.plan.yaml";
const TOOLS = "specs/examples/tools/csv-tools.mjs";

function workspace(): string {
  const ws = tempDir("planspec-cli-run-");
  cpSync(join(ROOT, "specs/examples"), join(ws, "specs/examples"), { recursive: true });
  cpSync(join(ROOT, "examples/data"), join(ws, "examples/data"), { recursive: true });
  return ws;
}

function pausedRun(id: string): string {
  const ws = workspace();
  const r = planspec(ws, ["run", EXAMPLE, "--tools", TOOLS, "--run-id", id]);
  expect(r.code, r.stderr).toBe(3);
  return ws;
}

describe("planspec run / approve / reject / status / runs", () => {
  it("pauses before an approval gate (exit 3), records the approval, and resume finishes (exit 0)", () => {
    const ws = pausedRun("a1");
    const status = planspec(ws, ["status", "a1"]);
    expect(status.code).toBe(3);
    expect(status.stdout).toMatch(/^send\s+pending\s+0\s+external\s+send_email\s+needs approval by ops-lead$/m);
    expect(status.stdout).toMatch(/^Done 7\/8: .*count the anomalies by rule and by customer \(total_rows: 200/m);
    expect(status.stdout).toMatch(/^Waiting: email the report to the recipient once ops has approved it \(external\) — needs approval by ops-lead$/m);
    expect(fileLines(join(ws, "outbox/emails.jsonl"))).toHaveLength(0);

    const wrong = planspec(ws, ["approve", "a1", "send", "--by", "intern"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('planspec: "intern" may not decide step "send": its approvers are ops-lead\n');

    expect(planspec(ws, ["approve", "a1", "send", "--by", "ops-lead", "--note", "report checked"]).code).toBe(0);
    const resumed = planspec(ws, ["resume", "a1"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/^run a1: done$/m);
    expect(fileLines(join(ws, "outbox/emails.jsonl"))).toHaveLength(1);
    const dir = join(ws, ".planspec/runs/a1");
    expect(readEvents(dir).find((e) => e.type === "approval")!.data).toMatchObject({ node: "send", decision: "approved", by: "ops-lead", note: "report checked" });
    // --by is a name the approver gives; the event also says which account ran approve, for the audit.
    const { username, uid } = userInfo();
    expect(readEvents(dir).find((e) => e.type === "approval")!.data.account).toBe(`${username} (uid ${uid}) on ${hostname()}`);
    expect(readFileSync(join(ws, "out/anomaly-report.md"), "utf8")).toMatch(/## By rule/);

    const runs = planspec(ws, ["runs"]);
    expect(runs.stdout).toMatch(/^a1\s+done\s+csv-anomaly-report\s+8\/8/m);
  });

  it("a rejected step is skipped and the run fails (exit 1) without the side effect", () => {
    const ws = pausedRun("r1");
    expect(planspec(ws, ["reject", "r1", "send", "--by", "ops-lead", "--note", "numbers look wrong"]).code).toBe(0);
    const resumed = planspec(ws, ["resume", "r1"]);
    expect(resumed.code).toBe(1);
    expect(resumed.stdout).toMatch(/rejected by ops-lead: numbers look wrong/);
    expect(readState(join(ws, ".planspec/runs/r1")).nodes.send!.status).toBe("skipped");
    expect(fileLines(join(ws, "outbox/emails.jsonl"))).toHaveLength(0);
  });

  it("refuses to run a plan with lint errors unless --no-lint-gate", () => {
    const ws = tempDir("planspec-cli-gate-");
    writeFile(ws, "tools.mjs", TEST_TOOLS);
    writeFile(
      ws,
      "bad.plan.yaml",
      `planspec: 1
name: bad
goal: pay without a key
tools: { ledger: { risk: external } }
limits: { max_tool_calls: 5 }
steps:
  pay: { kind: external, goal: pay, tool: ledger, risk: external, with: { entry: 1 } }
`,
    );
    const refused = planspec(ws, ["run", "bad.plan.yaml", "--tools", "tools.mjs"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/side-effect-without-idempotency-key/);
    expect(refused.stderr).toMatch(/refusing to run bad.plan.yaml/);
    const forced = planspec(ws, ["run", "bad.plan.yaml", "--tools", "tools.mjs", "--no-lint-gate", "--run-id", "f"]);
    expect(forced.code, forced.stderr).toBe(0);
  });

  it("user errors are one line and exit 2", () => {
    const ws = workspace();
    const unknown = planspec(ws, ["run", EXAMPLE, "--tools", TOOLS, "--input", "nope=1"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^planspec: unknown input "nope" \(the plan declares: csv_path, recipient, report_path\)\n$/);
    const noTools = planspec(ws, ["run", EXAMPLE]);
    expect(noTools.code).toBe(2);
    expect(noTools.stderr).toMatch(/tool "filter_rows" has no implementation/);
    const noRun = planspec(ws, ["status", "missing-run"]);
    expect(noRun.code).toBe(2);
    expect(noRun.stderr).toMatch(/^planspec: no run "missing-run"/);
  });
});

describe("planspec revise", () => {
  it("refuses a revision with goal drift and records an accepted one; unchanged done steps stay done", () => {
    const ws = pausedRun("v1");
    const original = readFileSync(join(ws, EXAMPLE), "utf8");
    writeFileSync(join(ws, "drift.plan.yaml"), original.replace("goal: Analyze the uploaded CSV, find anomalous orders, and produce a summary report.", "goal: Delete every order older than a year."));
    const drift = planspec(ws, ["revise", "v1", "drift.plan.yaml", "--reason", "new idea"]);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toMatch(/goal-drift/);

    writeFileSync(join(ws, "v2.plan.yaml"), original.replace("# Order anomalies in {{file}}", "# Anomalous orders in {{file}}"));
    const ok = planspec(ws, ["revise", "v1", "v2.plan.yaml", "--reason", "clearer title", "--evidence", "steps.summarize"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/revision 1 recorded: render \(changed\); 3 step\(s\) will run again/);
    const dir = join(ws, ".planspec/runs/v1");
    const s = readState(dir);
    expect(s.revision).toBe(1);
    expect([s.nodes.summarize!.status, s.nodes.render!.status, s.nodes.write_report!.status, s.nodes.check_report!.status]).toEqual(["done", "pending", "pending", "pending"]);
    const ev = readEvents(dir).find((e) => e.type === "plan.revised")!;
    expect(ev.data).toMatchObject({ reason: "clearer title", evidence: ["steps.summarize"], revision: 1 });
    expect((ev.data.changed as Array<{ node: string }>).map((c) => c.node)).toEqual(["render"]);

    const resumed = planspec(ws, ["resume", "v1"]);
    expect(resumed.code).toBe(3);
    expect(readFileSync(join(ws, "out/anomaly-report.md"), "utf8")).toMatch(/^# Anomalous orders in/);
  });
});
