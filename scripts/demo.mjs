#!/usr/bin/env node
// `npm start`: the example plan end to end on the embedded JSON-file store — compile,
// lint, run, a crash (SIGKILL) part-way, resume, an approval, and the report.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const plan = "specs/examples/csv-anomalies.plan.yaml";
const tools = "specs/examples/tools/csv-tools.mjs";
const demo = ".planspec/demo";
const workspace = join(demo, "workspace");
const runId = `demo-${new Date().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "")}`;
const runDir = `.planspec/runs/${runId}`;
const tty = process.stdout.isTTY && !process.env.NO_COLOR;
const bold = (s) => (tty ? `\u001b[1m${s}\u001b[22m` : s);
const dim = (s) => (tty ? `\u001b[2m${s}\u001b[22m` : s);

function heading(n, text) {
  console.log(`\n${bold(`${n}. ${text}`)}`);
}

/** Runs the real CLI, echoing the command and its output; returns exit code and signal. */
function planspec(args, { env = {}, quiet = false, expect } = {}) {
  console.log(dim(`$ planspec ${args.join(" ")}`));
  const r = spawnSync(process.execPath, [join(root, "bin/planspec"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  if (!quiet) process.stdout.write(r.stdout);
  process.stdout.write(r.stderr);
  const code = r.status;
  if (expect !== undefined && code !== expect && !(expect === "killed" && r.signal === "SIGKILL")) {
    console.error(`\nnpm start: expected ${expect === "killed" ? "a SIGKILL" : `exit code ${expect}`}, got ${r.signal ?? `exit code ${code}`}`);
    process.exit(1);
  }
  return { code, signal: r.signal, stdout: r.stdout };
}

rmSync(workspace, { recursive: true, force: true });
mkdirSync(join(workspace, "examples/data"), { recursive: true });
copyFileSync(join(root, "examples/data/orders.csv"), join(workspace, "examples/data/orders.csv"));

console.log(bold("planspec demo: a CSV anomaly report, planned, checked, run, crashed and resumed"));
console.log(`plan: ${plan}\nworkspace: ${workspace}\nrun directory: ${runDir}`);

heading(1, "Compile the plan to its IR (a validated DAG)");
planspec(["compile", plan, "-o", join(demo, "plan.ir.json")], { expect: 0 });

heading(2, "Lint it for planner failures");
planspec(["lint", plan], { expect: 0 });

heading(3, "Its graph (Mermaid)");
planspec(["graph", plan], { expect: 0 });

heading(4, "Run it — and kill the process with SIGKILL after the third step boundary");
console.log(dim("(PLANSPEC_FAULT_KILL_AT_STATE_VERSION=3 makes the run kill -9 itself right after its 3rd durable state write)"));
const run = planspec(["run", plan, "--tools", tools, "--workspace", workspace, "--run-id", runId], {
  env: { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: "3" },
  expect: "killed",
});
console.log(`→ the run process died: ${run.signal ?? `exit ${run.code}`}`);

heading(5, "What survived the crash");
planspec(["status", runDir], { expect: 0 });

heading(6, "Resume: continue from the first step that is not done");
planspec(["resume", runDir], { expect: 3 });
console.log("→ paused before `send`: an external side effect needs a person's approval (exit code 3)");

heading(7, "Approve the email, then resume again");
planspec(["approve", runDir, "send", "--by", "ops-lead", "--note", "report checked"], { expect: 0 });
planspec(["resume", runDir], { expect: 0 });

heading(8, "The report");
const report = join(root, workspace, "out/anomaly-report.md");
if (!existsSync(report)) {
  console.error(`npm start: the report ${report} was not written`);
  process.exit(1);
}
console.log(readFileSync(report, "utf8").trimEnd());
const outbox = join(root, workspace, "outbox/emails.jsonl");
const sent = existsSync(outbox) ? readFileSync(outbox, "utf8").trim().split("\n").filter(Boolean).length : 0;
console.log(`\n→ emails sent: ${sent} (the idempotency key makes it exactly one, however often the run is resumed)`);

heading(9, "Final status");
planspec(["status", runDir], { expect: 0 });
console.log(`\nEverything the run did is in ${runDir}/ (state.json, events.jsonl, artifacts/, idempotency.json).`);
