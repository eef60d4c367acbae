/** `planspec eval` through the real CLI (build first: npm run build): reports, thresholds, exit codes. */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planspec, ROOT } from "./run-helpers.js";

const SUITE = join(ROOT, "evals/csv-data-analysis.suite.yaml");
const GOLD = join(ROOT, "evals/csv-data-analysis/gold");

const temp = () => mkdtempSync(join(tmpdir(), "planspec-eval-cli-"));

/** The gold plans minus one case's plan: that case scores 0. */
function plansMissingOne(): string {
  const dir = temp();
  cpSync(GOLD, dir, { recursive: true });
  rmSync(join(dir, "monthly-revenue.plan.yaml"));
  // Plans import ../tools.catalog.yaml.
  cpSync(join(ROOT, "evals/csv-data-analysis/tools.catalog.yaml"), join(dir, "../tools.catalog.yaml"));
  return dir;
}

describe("planspec eval <suite>", () => {
  it("prints a table per case and the averages; thresholds that hold exit 0", () => {
    const r = planspec(ROOT, ["eval", SUITE, "--plans", GOLD, "--min", "coverage=1,lint_pass=1,node_f1=1", "--max", "redundancy=0,forbidden=0"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^suite csv-data-analysis: 11 cases\ncase +coverage +redundancy +node F1 +edge F1 +risk acc +lint +recovery\n/);
    expect(r.stdout).toMatch(/\naverage +1 +0 +1 +1 +1 +1 +n\/a\n/);
  });

  it("a missed threshold exits 1 and says which; --replay reads the same layout", () => {
    const dir = plansMissingOne();
    const r = planspec(ROOT, ["eval", SUITE, "--replay", dir, "--min", "coverage=0.95"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/monthly-revenue \(missing\) +0 /);
    expect(r.stderr).toBe("threshold missed: coverage 0.909 < 0.95 (minimum)\n");
  });

  it("writes JSON with -o, and prints deltas against it as a baseline in Markdown", () => {
    const dir = plansMissingOne();
    const out = join(temp(), "reports/prev.json");
    const first = planspec(ROOT, ["eval", SUITE, "--plans", dir, "--format", "json", "-o", out]);
    expect(first.code, first.stderr).toBe(0);
    const prev = JSON.parse(readFileSync(out, "utf8"));
    expect(prev.summary.coverage).toBeCloseTo(10 / 11, 12);
    expect(prev.cases.find((c: { id: string }) => c.id === "monthly-revenue").status).toBe("missing");
    const md = planspec(ROOT, ["eval", SUITE, "--plans", GOLD, "--format", "md", "--baseline", out]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toMatch(/^# Eval: csv-data-analysis\n/);
    expect(md.stdout).toContain("| **average** | 1 (+0.091) |");
  });

  it("writes a self-contained HTML report with per-case drill-down and baseline deltas", () => {
    const dir = plansMissingOne();
    const prev = join(temp(), "prev.json");
    expect(planspec(ROOT, ["eval", SUITE, "--plans", dir, "--format", "json", "-o", prev]).code).toBe(0);
    const html = join(temp(), "eval.html");
    const r = planspec(ROOT, ["eval", SUITE, "--plans", GOLD, "--format", "html", "--baseline", prev, "-o", html]);
    expect(r.code, r.stderr).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toMatch(/^<!doctype html>/i);
    expect(page).toContain("monthly-revenue");
    expect(page).not.toMatch(/<script[^>]+src=|<link[^>]+href="http/); // nothing fetched at view time
  });

  it("usage and input errors exit 2 with one line, or positioned suite errors", () => {
    const dir = temp();
    const bad = join(dir, "bad.suite.yaml");
    writeFileSync(bad, "planspec: 1\nsuite: bad\ntools: { a: { risk: maybe } }\ncases: [{ id: x, goal: g, required: [{ tool: a }] }]\n");
    const r = planspec(dir, ["eval", "bad.suite.yaml", "--plans", "."]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.suite.yaml:3:21: tool "a" needs risk: read, write or external [suite]');
    expect(r.stderr).not.toMatch(/at .*\.js/);
    const metric = planspec(ROOT, ["eval", SUITE, "--plans", GOLD, "--min", "speed=2"]);
    expect([metric.code, metric.stderr]).toEqual([2, `planspec: unknown metric "speed" (metrics: coverage, redundancy, node_f1, edge_f1, risk_accuracy, lint_pass, recovery, forbidden, hallucinated)\n`]);
    expect(planspec(ROOT, ["eval", SUITE]).stderr).toBe("planspec: eval needs --plans DIR (or --replay DIR)\n");
    expect(planspec(ROOT, ["eval", SUITE, "--plans", GOLD, "--min", "recovery=1"]).code).toBe(2);
  });
});

const TOOL_DESC = { nodes: [{ id: "Image Downloader", desc: "Downloads an image from a URL", "input-type": ["url"], "output-type": ["image"] }, { id: "Image-to-Text", desc: "Captions an image", "input-type": ["image"], "output-type": ["text"] }] };
const node = (task: string, ...args: string[]) => ({ task, arguments: args });
const GOLD_DATA = [
  { id: "1", task_steps: ["a", "b"], task_nodes: [node("Image Downloader", "u"), node("Image-to-Text", "<node-0>")] },
  { id: "2", task_steps: ["a"], task_nodes: [node("Image-to-Text", "x.png")] },
];
const PREDS = [
  // Duplicated captioning: TaskBench still scores node F1 1.0; our redundancy sees it.
  { id: "1", user_request: "Caption the image at u", result: { task_steps: ["a", "b", "c"], task_nodes: [node("Image Downloader", "u"), node("Image-to-Text", "<node-0>"), node("Image-to-Text", "<node-0>")] } },
  { id: "2", user_request: "Caption x.png", result: { task_steps: ["a"], task_nodes: [node("Made Up Tool", "x.png")] } },
];

describe("planspec eval taskbench / taskbench-report", () => {
  function files(): string {
    const dir = temp();
    writeFileSync(join(dir, "tool_desc.json"), JSON.stringify(TOOL_DESC));
    writeFileSync(join(dir, "data.json"), GOLD_DATA.map((g) => JSON.stringify(g)).join("\n") + "\n");
    writeFileSync(join(dir, "pred.jsonl"), PREDS.map((p) => JSON.stringify(p)).join("\n") + "\nnot json\n");
    return dir;
  }

  it("stops on a prediction line evaluate.py stops on, naming it; --lenient skips and counts it", () => {
    const dir = files();
    const r = planspec(dir, ["eval", "taskbench", "--gold", "data.json", "--pred", "pred.jsonl", "--tools", "tool_desc.json"]);
    expect([r.code, r.stderr]).toEqual([2, "planspec: pred.jsonl:3: not valid JSON (Expecting value: column 1 (char 0)): evaluate.py stops here (fix the line, or give --lenient to skip and count such lines)\n"]);
    const lenient = planspec(dir, ["eval", "taskbench", "--gold", "data.json", "--pred", "pred.jsonl", "--tools", "tool_desc.json", "--lenient"]);
    expect(lenient.code, lenient.stderr).toBe(0);
    expect(lenient.stdout).toContain("skipped 1 line evaluate.py would stop on (--lenient): pred.jsonl:3\n");
    expect(lenient.stdout).toMatch(/^\[overall_overall\] samples 2, supports: steps 2, nodes 2, links 2, arguments 2\n {2}node micro {2}P 1\.0000 {2}R 0\.6667 {2}F1 0\.8000\n/);
  });

  it("takes evaluate.py's -s/-n/--mode and names figures as it does; temporal links need task_links", () => {
    const dir = files();
    const r = planspec(dir, ["eval", "taskbench", "--gold", "data.json", "--pred", "pred.jsonl", "--tools", "tool_desc.json", "--lenient", "-n", "1", "-n", "2", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out.groups)).toEqual(["overall_overall", "overall_1", "overall_2"]);
    // One node: sample 2, Image-to-Text missed (the unknown tool is no node): macro R = (0 + 0) / 2.
    expect(out.groups.overall_1).toMatchObject({ all_samples: 1, node_micro_recall_no_matching: 0, node_macro_f1_no_matching: 0 });
    expect(out.groups.overall_2.node_per_type_no_matchcing["Image-to-Text"]).toEqual({ precision: 1, recall: 1, "f1-score": 1, support: 1 });
    const temporal = planspec(dir, ["eval", "taskbench", "--gold", "data.json", "--pred", "pred.jsonl", "--tools", "tool_desc.json", "--lenient", "--dependency_type", "temporal", "--format", "json"]);
    expect(temporal.code, temporal.stderr).toBe(0);
    expect(JSON.parse(temporal.stdout).dropped.overall_overall).toEqual([
      { id: "1", reason: 'the prediction\'s result has no "task_links"' },
      { id: "2", reason: 'the prediction\'s result has no "task_links"' },
    ]);
    writeFileSync(join(dir, "untyped.json"), JSON.stringify({ nodes: [{ id: "send_email", desc: "Send an email", parameters: [] }] }));
    const untyped = planspec(dir, ["eval", "taskbench", "--gold", "data.json", "--pred", "pred.jsonl", "--tools", "untyped.json"]);
    expect([untyped.code, untyped.stderr]).toEqual([2, 'planspec: untyped.json: tool "send_email" has no "output-type", which resource links need; for a domain such as dailylifeapis give --dependency-type temporal\n']);
  });

  it("computes TaskBench's metrics plus our redundancy and lint pass rate", () => {
    const dir = files();
    const r = planspec(dir, ["eval", "taskbench", "--gold", "data.json", "--pred", "pred.jsonl", "--tools", "tool_desc.json", "--format", "json", "--lenient"]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.skipped).toEqual([{ file: "pred.jsonl", line: 3, reason: "not valid JSON (Expecting value: column 1 (char 0))" }]);
    // Nodes: sample 1 TP 2; sample 2 gold has Image-to-Text (FN), the prediction's unknown tool is ignored.
    expect(out.taskbench.metrics.node).toEqual({ precision: 1, recall: 2 / 3, f1: 0.8 });
    expect(out.taskbench.metrics.link.f1).toBe(1);
    expect(out.hallucinated_plans).toBe(1);
    expect(out.malformed_plans).toBe(1);
    // Plan 1 compiles: 3 steps, the second captioning step duplicates the first.
    expect(out.redundancy).toBeCloseTo(1 / 3, 12);
  });

  it("writes the Markdown corpus report to -o", () => {
    const dir = files();
    const r = planspec(dir, ["eval", "taskbench-report", "pred.jsonl", "--tools", "tool_desc.json", "-o", "reports/tb.md"]);
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(join(dir, "reports/tb.md"), "utf8");
    expect(md).toContain("| prediction lines | 3 |");
    expect(md).toContain("| rejected lines (no usable plan) | 1 (33.3 %) |");
    expect(md).toContain("| plans calling a hallucinated tool | 1 (50.0 %) |");
    expect(md).toContain("| PS114 | unknown-tool | 1 |");
    expect(md).toContain("| Made Up Tool | 1 |");
    expect(md).toMatch(/## Lint findings per rule/);
  });
});

describe("planspec eval recovery", () => {
  it("--faults names the fault families; an unknown one is a usage error", () => {
    const dir = temp();
    writeFileSync(join(dir, "p.plan.yaml"), "planspec: 1\nname: p\ngoal: Read a file\ndeliverables: [x]\ntools: { r: { risk: read } }\nlimits: { max_tool_calls: 5 }\nsteps:\n  a: { kind: read, goal: Read the file, tool: r, output: x }\n");
    const bad = planspec(dir, ["eval", "recovery", "p.plan.yaml", "--faults", "crash,bogus"]);
    expect([bad.code, bad.stderr]).toEqual([2, 'planspec: --faults takes a comma list of crash, error, timeout, artifact, input, corrupt; got "crash,bogus"\n']);
    const c = planspec(dir, ["eval", "recovery", "p.plan.yaml", "--faults", "corrupt"]);
    // The stub's result only has to exist (no criterion): all three corruptions go unnoticed.
    expect(c.code).toBe(1);
    expect(c.stdout).toContain("  by fault: corrupt 0/3 (corrupt: caught by a criterion)\n");
  });

  it("prints the rate and every failed trial; exit 1 when one failed", () => {
    const dir = temp();
    writeFileSync(
      join(dir, "unkeyed.plan.yaml"),
      `planspec: 1
name: unkeyed
goal: Pay an invoice
deliverables: [payment]
tools: { bank.pay: { risk: external } }
limits: { max_tool_calls: 20 }
steps:
  pay: { kind: external, goal: Pay the invoice, tool: bank.pay, risk: external, with: { amount: 42 }, output: payment }
`,
    );
    const r = planspec(dir, ["eval", "recovery", "unkeyed.plan.yaml"]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('  FAILED crash in the middle of step "pay": side effect of step "pay" (no idempotency key) happened 2 times\n');
    expect(r.stdout).toMatch(/\nrecovery success rate: \d+\/\d+ \(\d+\.\d %\)\n$/);
    expect(existsSync(join(dir, ".planspec"))).toBe(false);
  }, 120_000);
});
