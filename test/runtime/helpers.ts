/** Test helpers: plans compiled from YAML by the real compiler, temp directories, tool modules. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileSource } from "../../src/compiler/index.js";
import { FileStore, readRunDirState } from "../../src/runtime/file-store.js";
import type { PlanIR } from "../../src/ir.js";
import type { RunEvent, RunState } from "../../src/runtime/store.js";

/** Compiles a plan text; fails the test with the diagnostics if it has errors. */
export function plan(yaml: string, file = "test.plan.yaml"): PlanIR {
  const r = compileSource(file, yaml);
  const errors = r.diagnostics.filter((d) => d.severity === "error");
  if (!r.ir || errors.length > 0) throw new Error(`plan does not compile:\n${errors.map((d) => `${d.line}:${d.col} ${d.message} [${d.code}]`).join("\n")}`);
  return r.ir;
}

export function tempDir(prefix = "planspec-rt-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function writeFile(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

export function readState(runDir: string): RunState {
  return readRunDirState(runDir).doc as unknown as RunState;
}

/** A recorded output, through the real store: kept in the state (`inline:`) or in its artifact file, checked against its hash. */
export function readOutput(runDir: string, ref: string): Promise<unknown> {
  return new FileStore(runDir, "reader").getArtifact(ref);
}

export function readEvents(runDir: string): RunEvent[] {
  return readFileSync(join(runDir, "events.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as RunEvent);
}

/** Two read steps, the second fed by the first: the smallest plan with a data dependency. */
export const CHAIN = `planspec: 1
name: chain
goal: add then echo
inputs: { a: { type: number, default: 2 } }
tools: { add: { risk: read }, echo: { risk: read } }
limits: { max_tool_calls: 20 }
steps:
  first: { kind: analyze, goal: add, tool: add, with: { a: "\${{ inputs.a }}", b: 3 }, output: sum }
  second: { kind: analyze, goal: echo, needs: [first], tool: echo, with: { v: "\${{ steps.first.output.sum }}" }, output: echoed }
`;

/** A user tool module used across tests: counting, ledger-writing, failing and blocking tools. */
export const TEST_TOOLS = `
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const count = (ws, name) => appendFileSync(join(ws, "calls.log"), name + "\\n");
const sleep = (ms, signal) => new Promise((res, rej) => {
  const t = setTimeout(res, ms);
  signal?.addEventListener("abort", () => { clearTimeout(t); rej(signal.reason); }, { once: true });
});
export default {
  echo: { risk: "read", run: (args, ctx) => { count(ctx.workspace, "echo:" + ctx.stepId); return args; } },
  add: { risk: "read", run: (args) => ({ sum: Number(args.a) + Number(args.b) }) },
  ledger: {
    risk: "external",
    description: "appends to ledger.txt once per idempotency key (an idempotent external API)",
    run: (args, ctx) => {
      const file = join(ctx.workspace, "ledger.txt");
      const seen = existsSync(file) ? readFileSync(file, "utf8").split("\\n") : [];
      const line = (ctx.idempotencyKey ?? "nokey") + " " + JSON.stringify(args.entry ?? null);
      if (!seen.includes(line)) appendFileSync(file, line + "\\n");
      count(ctx.workspace, "ledger:" + ctx.stepId);
      return { written: line };
    },
  },
  flaky: {
    risk: "read",
    run: (args, ctx) => {
      count(ctx.workspace, "flaky:" + ctx.attempt);
      if (ctx.attempt < (args.succeedOn ?? 2)) throw new Error("transient failure " + ctx.attempt);
      return { attempt: ctx.attempt };
    },
  },
  slow: { risk: "read", run: async (args, ctx) => { await sleep(args.ms ?? 1000, ctx.signal); return { slept: args.ms }; } },
  gate: {
    risk: "write",
    description: "blocks until the file named by args.release exists (a file-based signal for crash tests)",
    run: async (args, ctx) => {
      appendFileSync(join(ctx.workspace, "gate-entered"), ctx.stepId + "\\n");
      const release = join(ctx.workspace, args.release ?? "release");
      while (!existsSync(release)) await sleep(20, ctx.signal);
      count(ctx.workspace, "gate:" + ctx.stepId);
      return { released: ctx.stepId };
    },
  },
  sneaky: { risk: "read", run: (args, ctx) => ctx.callTool(args.tool, args.args ?? {}) },
  concurrent: {
    risk: "read",
    run: async (args, ctx) => {
      const f = join(ctx.workspace, "active");
      const n = existsSync(f) ? Number(readFileSync(f, "utf8")) : 0;
      appendFileSync(join(ctx.workspace, "peaks.log"), String(n + 1) + "\\n");
      writeFileSync(f, String(n + 1));
      await sleep(60, ctx.signal);
      const m = Number(readFileSync(f, "utf8"));
      writeFileSync(f, String(m - 1));
      return { ok: true };
    },
  },
};
`;
