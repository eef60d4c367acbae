/**
 * `planspec diff`: golden diffs (specs/diff/<case>/expected.{text,md,json}), and `--run`
 * verdicts on real run directories made by running the csv-anomalies example, checked
 * against what `planspec revise` and `resume` then really do.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEvents, readState, tempDir } from "../runtime/helpers.js";
import { fileLines, planspec, ROOT } from "./run-helpers.js";

const EXAMPLE = "specs/examples/csv-anomalies.plan.yaml";
const TOOLS = "specs/examples/tools/csv-tools.mjs";

describe("planspec diff: golden diffs", () => {
  for (const c of readdirSync(join(ROOT, "specs/diff")).sort()) {
    for (const format of ["text", "md", "json"]) {
      it(`${c} --format ${format}`, () => {
        const r = planspec(ROOT, ["diff", `specs/diff/${c}/old.plan.yaml`, `specs/diff/${c}/new.plan.yaml`, "--format", format]);
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
        expect(r.stdout).toBe(readFileSync(join(ROOT, "specs/diff", c, `expected.${format}`), "utf8"));
      });
    }
  }

  it("exits 2 in one line for a bad format, a missing file, a plan that does not compile, or an unknown run", () => {
    const bad = (args: string[]) => planspec(ROOT, ["diff", ...args]);
    expect(bad([EXAMPLE, EXAMPLE, "--format", "html"])).toMatchObject({ code: 2, stdout: "", stderr: 'planspec: unknown format "html"; use one of text, md, json\n' });
    const missing = bad([EXAMPLE, "nope.plan.yaml"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("nope.plan.yaml:1:1: cannot read nope.plan.yaml: no such file [PS100]\n");
    expect(bad(["specs/lint/err/goal-drift.plan.yaml", "specs/compile/err/unknown-step.plan.yaml"]).code).toBe(2);
    expect(bad([EXAMPLE, EXAMPLE, "--run", "no-such-run"])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^planspec: no run "no-such-run": .*\n$/) });
    const ws = tempDir("planspec-diff-bad-run-");
    mkdirSync(join(ws, ".planspec/runs/torn"), { recursive: true });
    writeFileSync(join(ws, ".planspec/runs/torn/config.json"), JSON.stringify({ toolModules: [], workspace: ws, concurrency: 1 }));
    writeFileSync(join(ws, ".planspec/runs/torn/state.json"), '{"runId": "torn", "nodes": {');
    cpSync(join(ROOT, EXAMPLE), join(ws, "a.plan.yaml"));
    const torn = planspec(ws, ["diff", "a.plan.yaml", "a.plan.yaml", "--run", "torn"]);
    expect(torn.code).toBe(2);
    expect(torn.stdout).toBe("");
    expect(torn.stderr).toMatch(/^planspec: [^\n]*\/\.planspec\/runs\/torn\/state\.json is not valid JSON \([^\n]*\n$/);
  });
});

describe("planspec diff: hostile plan text", () => {
  it("md keeps mentions, HTML and backticks inside code spans; text prints control characters as escapes", () => {
    const ws = tempDir("planspec-diff-hostile-");
    const original = readFileSync(join(ROOT, EXAMPLE), "utf8");
    writeFileSync(join(ws, "old.plan.yaml"), original);
    const goal = 'goal: "Ping @octo-org/everyone ``` <img src=x onerror=alert(1)> \\e]8;;http://evil.example\\a now"';
    writeFileSync(join(ws, "new.plan.yaml"), original.replace(/^goal: .*$/m, goal));
    const md = planspec(ws, ["diff", "old.plan.yaml", "new.plan.yaml", "--format", "md"]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("- ```` now: Ping @octo-org/everyone ``` <img src=x onerror=alert(1)> \\u001b]8;;http://evil.example\\u0007 now ````\n");
    expect(md.stdout.split("\n").filter((l) => l.includes("@octo") && !/^- `{4} .* `{4}$/.test(l))).toEqual([]);
    const text = planspec(ws, ["diff", "old.plan.yaml", "new.plan.yaml"]);
    expect(text.stdout).toContain("now: Ping @octo-org/everyone ``` <img src=x onerror=alert(1)> \\u001b]8;;http://evil.example\\u0007 now\n");
    expect(text.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });
});

interface Verdict {
  revise: { accepted: boolean; reasons: string[] };
  stayValid: string[];
  rerun: string[];
  pending: string[];
  effects: Array<{ step: string; verdict: string; why: string }>;
  runPlanIsOld: boolean;
}

function workspace(): string {
  const ws = tempDir("planspec-diff-run-");
  cpSync(join(ROOT, "specs/examples"), join(ws, "specs/examples"), { recursive: true });
  cpSync(join(ROOT, "examples/data"), join(ws, "examples/data"), { recursive: true });
  return ws;
}

function verdict(ws: string, next: string, run: string): { code: number | null; run: Verdict } {
  const r = planspec(ws, ["diff", EXAMPLE, next, "--run", run, "--format", "json"]);
  expect(r.stderr).toBe("");
  return { code: r.code, run: (JSON.parse(r.stdout) as { run: Verdict }).run };
}

describe("planspec diff --run on real runs", () => {
  it("a paused run: the verdict names the steps revise then resets, and a keyed write whose key reads a re-run step", () => {
    const ws = workspace();
    expect(planspec(ws, ["run", EXAMPLE, "--tools", TOOLS, "--run-id", "v1"]).code).toBe(3);
    const original = readFileSync(join(ws, EXAMPLE), "utf8");
    writeFileSync(join(ws, "v2.plan.yaml"), original.replace("# Order anomalies in {{file}}", "# Anomalous orders in {{file}}"));

    const v = verdict(ws, "v2.plan.yaml", "v1");
    expect(v.code).toBe(0);
    expect(v.run).toMatchObject({ runPlanIsOld: true, revise: { accepted: true, reasons: [] } });
    expect(v.run.stayValid).toEqual(["read_csv", "validate_fields", "filter_anomalies", "summarize"]);
    expect(v.run.rerun).toEqual(["render", "write_report", "check_report"]);
    expect(v.run.pending).toEqual(["send"]);
    expect(v.run.effects).toEqual([
      { step: "write_report", risk: "write", verdict: "may-repeat", why: "its idempotency_key reads steps.render, which runs again: a different result makes a new key" },
    ]);

    // What revise really does agrees with the verdict.
    const revised = planspec(ws, ["revise", "v1", "v2.plan.yaml", "--reason", "clearer title"]);
    expect(revised.code, revised.stderr).toBe(0);
    const reset = readEvents(join(ws, ".planspec/runs/v1")).find((e) => e.type === "plan.revised")!.data.reset;
    expect(reset).toEqual(v.run.rerun);
    // Now the run's plan is v2, not OLD: the verdict says so.
    expect(verdict(ws, "v2.plan.yaml", "v1").run).toMatchObject({ runPlanIsOld: false, revise: { accepted: false, reasons: ["the new plan is the same as the run's plan; nothing to revise"] } });
  });

  it("a revision revise refuses (goal drift) exits 1 with the lint gate's reason; the run is untouched", () => {
    const ws = workspace();
    expect(planspec(ws, ["run", EXAMPLE, "--tools", TOOLS, "--run-id", "d1"]).code).toBe(3);
    const original = readFileSync(join(ws, EXAMPLE), "utf8");
    writeFileSync(join(ws, "drift.plan.yaml"), original.replace("goal: Analyze the uploaded CSV, find anomalous orders, and produce a summary report.", "goal: Delete every order older than a year."));
    const before = readFileSync(join(ws, ".planspec/runs/d1/state.json"), "utf8");
    const v = verdict(ws, "drift.plan.yaml", "d1");
    expect(v.code).toBe(1);
    expect(v.run.revise.accepted).toBe(false);
    expect(v.run.revise.reasons).toEqual([expect.stringMatching(/^drift\.plan\.yaml:\d+:\d+: the revision changes the plan goal .*\[goal-drift\]$/)]);
    expect(readFileSync(join(ws, ".planspec/runs/d1/state.json"), "utf8")).toBe(before);
    expect(planspec(ws, ["revise", "d1", "drift.plan.yaml", "--reason", "x"]).code).toBe(1);
  });

  it("a finished run: a sent email with an unchanged key is deduplicated, a changed key sends again, as resume then shows", () => {
    const ws = workspace();
    expect(planspec(ws, ["run", EXAMPLE, "--tools", TOOLS, "--run-id", "f1"]).code).toBe(3);
    expect(planspec(ws, ["approve", "f1", "send", "--by", "ops-lead"]).code).toBe(0);
    expect(planspec(ws, ["resume", "f1"]).code).toBe(0);
    expect(fileLines(join(ws, "outbox/emails.jsonl"))).toHaveLength(1);
    const original = readFileSync(join(ws, EXAMPLE), "utf8");

    writeFileSync(join(ws, "same-key.plan.yaml"), original.replace('subject: "Order anomalies:', 'subject: "Anomalous orders:'));
    writeFileSync(join(ws, "new-key.plan.yaml"), original.replace('subject: "Order anomalies:', 'subject: "Anomalous orders:').replace(":send:${{ inputs.recipient }}", ":send-v2:${{ inputs.recipient }}"));
    const same = verdict(ws, "same-key.plan.yaml", "f1").run;
    expect(same.rerun).toEqual(["send"]);
    expect(same.effects).toEqual([{ step: "send", risk: "external", verdict: "deduplicated", why: expect.stringMatching(/^key "f1:send:ops@example\.com" is recorded/) }]);
    const changed = verdict(ws, "new-key.plan.yaml", "f1").run;
    expect(changed.effects).toEqual([{ step: "send", risk: "external", verdict: "repeats", why: 'key "f1:send-v2:ops@example.com" is not recorded: the call is made again' }]);

    // Move the run to same-key: the email is not sent again.
    expect(planspec(ws, ["revise", "f1", "same-key.plan.yaml", "--reason", "subject wording"]).code).toBe(0);
    expect(planspec(ws, ["approve", "f1", "send", "--by", "ops-lead"]).code).toBe(0);
    expect(planspec(ws, ["resume", "f1"]).code).toBe(0);
    expect(fileLines(join(ws, "outbox/emails.jsonl"))).toHaveLength(1);
    expect(readEvents(join(ws, ".planspec/runs/f1")).some((e) => e.type === "idempotency.hit" && e.data.node === "send")).toBe(true);

    // Then to new-key (compared with the run's plan, now same-key): the email goes out again.
    const next = planspec(ws, ["diff", "same-key.plan.yaml", "new-key.plan.yaml", "--run", "f1", "--format", "json"]);
    expect((JSON.parse(next.stdout) as { run: Verdict }).run.effects.map((e) => e.verdict)).toEqual(["repeats"]);
    expect(planspec(ws, ["revise", "f1", "new-key.plan.yaml", "--reason", "new key"]).code).toBe(0);
    expect(planspec(ws, ["approve", "f1", "send", "--by", "ops-lead"]).code).toBe(0);
    expect(planspec(ws, ["resume", "f1"]).code).toBe(0);
    expect(fileLines(join(ws, "outbox/emails.jsonl"))).toHaveLength(2);
    expect(readState(join(ws, ".planspec/runs/f1")).nodes.send!.status).toBe("done");
  });
});
