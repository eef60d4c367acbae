/** `planspec run PLAN`: compile, lint-gate, execute; plus the progress display shared with `resume`. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import type { CliIO } from "./io.js";
import { UsageError, userError, write } from "./io.js";
import { useColor } from "./color.js";
import { loadIR, printDiagnostics, compileOrExit } from "./shared.js";
import { progress } from "./progress.js";
import type { PlanIR } from "../ir.js";
import { openRunStore, STORE_OPTION, storeUrl } from "./store.js";
import type { SessionResult } from "../runtime/run.js";
import type { GateResult } from "../lint/gate.js";

/** Exit codes of a finished session: 0 done, 1 failed/terminated, 3 paused. */
export function exitCodeOf(status: string): number {
  return status === "done" ? 0 : status === "paused" ? 3 : 1;
}

/** Collects repeatable options. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The `--max-output-size` option, shared by run and resume. */
export const MAX_OUTPUT_OPTION = ["--max-output-size <size>", "the largest output a step may return, e.g. 64MB or 512k (default 16MB)"] as const;

/** A size option (`16MB`, `512k`, bytes), or a usage error. */
export async function sizeOption(name: string, v: string | undefined): Promise<number | undefined> {
  if (v === undefined) return undefined;
  const { parseSize } = await import("../runtime/limits.js");
  const n = parseSize(v);
  if (n === undefined) throw new UsageError(`${name} must be a size such as 16MB, 512k or 1048576, got "${v}"`);
  return n;
}

/** A positive integer option, or a usage error. */
export function positiveInt(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive integer, got "${v}"`);
  return n;
}

/** Prints how a session ended and returns the exit code. */
export async function report(io: CliIO, r: SessionResult): Promise<number> {
  const { status, reason } = r.outcome;
  // A run in a PostgreSQL store is named by its id plus --store; a run directory by its path.
  const inStore = /^postgres(ql)?:\/\//i.test(r.dir);
  const ref = inStore ? `${r.runId} --store ${r.dir}` : r.dir;
  await write(io.stdout, `run ${r.runId}: ${status}${reason ? ` — ${reason}` : ""}\n${inStore ? "run store" : "run directory"}: ${r.dir}\n`);
  if (status === "paused") {
    await write(io.stdout, `next: planspec status ${ref}; planspec approve ${ref} <step> --by NAME; planspec resume ${ref}\n`);
  }
  return exitCodeOf(status);
}

/**
 * Fault injection for crash tests and evals: with PLANSPEC_FAULT_KILL_AT_STATE_VERSION=N
 * the process kills itself with SIGKILL right after writing state version N — a crash
 * at an exact step boundary.
 */
export function faultHook(env: NodeJS.ProcessEnv): ((v: number) => void) | undefined {
  const n = Number(env.PLANSPEC_FAULT_KILL_AT_STATE_VERSION);
  if (!Number.isInteger(n) || n < 1) return undefined;
  return (v) => {
    if (v === n) process.kill(process.pid, "SIGKILL");
  };
}

/**
 * The plan to run: compiled (or, for an `*.ir.json` file, validated) and lint-gated the
 * same way either way unless `lintGate` is false; or the exit code after printing why not.
 */
export async function planForRun(file: string, lintGate: boolean, io: CliIO, color: boolean, inlineConfig = true): Promise<PlanIR | number> {
  if (!lintGate) return loadIR(file, io, color);
  const { gate, isIRFile } = await import("../lint/gate.js");
  if (isIRFile(file)) {
    const ir = await loadIR(file, io, color);
    return typeof ir === "number" ? ir : printGate(gate(ir), `run ${file}`, io, color);
  }
  const compiled = await compileOrExit(file, io, color);
  if (typeof compiled === "number") return compiled;
  if (!compiled.ir) throw new UsageError(`${file} is a ${compiled.kind}, not a plan`);
  return printGate(gate(compiled, { inlineConfig }), `run ${file}`, io, color);
}

/** The gate's verdict: the plan, or exit code 1 after printing the errors and the refusal. */
export async function printGate(result: GateResult, action: string, io: CliIO, color: boolean): Promise<PlanIR | number> {
  if (result.ir) return result.ir;
  const { refusal } = await import("../lint/gate.js");
  await printDiagnostics(result.errors, result.compiled.sources, io, color);
  await write(io.stderr, `planspec: ${refusal(action, result)} (fix them, or pass --no-lint-gate)\n`);
  return 1;
}

export function registerRun(program: Command, ctx: ActionContext): void {
  program
    .command("run")
    .description("run a plan: compile, refuse it if lint finds errors, execute the steps with a durable run directory")
    .argument("<plan>", "a *.plan.yaml / *.plan.json file or an *.ir.json file")
    .option("--tools <module>", "a tool module (default export: { name: { risk, run(args, ctx) } }); repeatable", collect, [])
    .option("--input <name=value>", "an input value; repeatable", collect, [])
    .option("--concurrency <n>", "how many ready steps run at once", "4")
    .option("--run-dir <dir>", "the run's directory (default .planspec/runs/<run-id>)")
    .option("--run-id <id>", "the run id (default <plan-name>-<time>-<random>)")
    .option("--workspace <dir>", "the directory fs tools are confined to (default: the current directory)")
    .option("--no-lint-gate", "run even if lint reports errors")
    .option(...MAX_OUTPUT_OPTION)
    .option("--no-inline-config", "the lint gate ignores suppressions written in the plan (use it for generated plans)")
    .option(...STORE_OPTION)
    .addHelpText(
      "after",
      `
Examples:
  $ planspec run specs/examples/csv-anomalies.plan.yaml --tools specs/examples/tools/csv-tools.mjs --input csv_path=examples/data/orders.csv
  $ planspec run plan.plan.yaml --run-id nightly-1 --concurrency 8
  $ planspec run plan.plan.yaml --max-output-size 64MB

Exit codes: 0 done, 1 failed or terminated (or lint errors), 2 usage or input error, 3 paused for approval.`,
    )
    .action(
      ctx.action(async (file: string, opts: { tools: string[]; input: string[]; concurrency: string; runDir?: string; runId?: string; workspace?: string; lintGate: boolean; inlineConfig: boolean; store?: string; maxOutputSize?: string }) => {
        const { io } = ctx;
        const color = useColor(program, io, "stderr");
        const concurrency = positiveInt("--concurrency", opts.concurrency);
        const maxOutputBytes = await sizeOption("--max-output-size", opts.maxOutputSize);
        const ir = await planForRun(file, opts.lintGate, io, color, opts.inlineConfig);
        if (typeof ir === "number") return ir;
        const runs = await openRunStore(storeUrl(opts.store, io), io);
        const { startRun, newRunId } = await import("../runtime/run.js");
        const store = runs.forNewRun(opts.runId ?? newRunId(ir.name));
        const { parseInputPairs } = await import("../runtime/inputs.js");
        const p = progress(io, color);
        try {
          const r = await startRun({
            ...(store ? { store } : {}),
            plan: ir,
            cwd: io.cwd,
            inputs: parseInputPairs(opts.input),
            toolModules: opts.tools,
            planFile: file,
            ...(opts.lintGate ? { gated: true } : { lintGate: false }),
            env: io.env,
            onEvent: p.onEvent,
            afterStateWrite: faultHook(io.env),
            ...(concurrency !== undefined ? { concurrency } : {}),
            ...(maxOutputBytes !== undefined ? { maxOutputBytes } : {}),
            ...(opts.runDir ? { runDir: opts.runDir } : {}),
            ...(opts.runId ? { runId: opts.runId } : {}),
            ...(opts.workspace ? { workspace: opts.workspace } : {}),
          });
          p.end();
          return await report(io, r);
        } catch (err) {
          p.end();
          return userError(err);
        } finally {
          await runs.close();
        }
      }),
    );
}
