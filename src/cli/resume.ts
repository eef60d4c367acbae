/** `planspec resume RUN`: continue a run after a crash, a pause or a failure. */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { write, userError } from "./io.js";
import { useColor } from "./color.js";
import { collect, faultHook, MAX_OUTPUT_OPTION, printGate, positiveInt, report, sizeOption } from "./run.js";
import { progress } from "./progress.js";
import { openStore, STORE_OPTION, storeUrl } from "./store.js";
import { verdictStands } from "../lint/verdict-key.js";
import type { ResumeOptions } from "../runtime/run.js";

export function registerResume(program: Command, ctx: ActionContext): void {
  program
    .command("resume")
    .description("resume a run: check its artifacts, handle interrupted steps, continue from the first step not done")
    .argument("<run>", "a run directory or a run id under .planspec/runs")
    .option("--tools <module>", "tool modules to use instead of the recorded ones; repeatable", collect)
    .option("--input <name=value>", "change an input: the steps that read it run again; repeatable", collect, [])
    .option("--concurrency <n>", "how many ready steps run at once (default: as recorded)")
    .option("--rerun-interrupted", "re-run write/external steps that were interrupted mid-call (they may repeat a side effect)")
    .option(...MAX_OUTPUT_OPTION)
    .option("--no-lint-gate", "resume even if lint reports errors in the run's plan")
    .option(...STORE_OPTION)
    .addHelpText(
      "after",
      `
The run's recorded plan (plan.ir.json) is linted like a plan file before anything runs:
through the plan file it was started from while that still compiles to the same plan (its
suppressions hold), else as the IR, which carries none. The verdict is kept in the run: a
later resume of the same plan, plan file and planspec version is not linted again.

Examples:
  $ planspec resume .planspec/runs/csv-anomaly-report-20250101T120000-ab12
  $ planspec resume nightly-1 --rerun-interrupted
  $ planspec resume nightly-1 --input api_key=$API_KEY --max-output-size 64MB

Exit codes: 0 done, 1 failed or terminated, 2 usage error (e.g. the run is held by a live process), 3 paused.`,
    )
    .action(
      ctx.action(async (run: string, opts: { tools?: string[]; input: string[]; concurrency?: string; rerunInterrupted?: boolean; lintGate: boolean; store?: string; maxOutputSize?: string }) => {
        const { io } = ctx;
        const opened = await openStore(run, io, storeUrl(opts.store, io));
        const dir = opened.ref;
        const concurrency = positiveInt("--concurrency", opts.concurrency);
        const maxOutputBytes = await sizeOption("--max-output-size", opts.maxOutputSize);
        const { resumeRun } = await import("../runtime/run.js");
        const { parseInputPairs } = await import("../runtime/inputs.js");
        const p = progress(io, useColor(program, io, "stderr"));
        try {
          const r = await resumeRun(opened.store, {
            env: io.env,
            onEvent: p.onEvent,
            afterStateWrite: faultHook(io.env),
            rerunInterrupted: opts.rerunInterrupted === true,
            // A run started with the gate overridden was the operator's decision: the gate says so with undefined.
            // The linter loads under the run's lock: a resume that finds the run held exits without it.
            ...(opts.lintGate ? { gate: resumeGate(io.cwd), gateStands: verdictStands(io.cwd) } : {}),
            inputs: parseInputPairs(opts.input),
            ...(opts.tools ? { toolModules: opts.tools.map((t) => resolve(io.cwd, t)) } : {}),
            ...(concurrency !== undefined ? { concurrency } : {}),
            ...(maxOutputBytes !== undefined ? { maxOutputBytes } : {}),
          });
          p.end();
          if (r.migratedFrom !== undefined) await write(io.stderr, `migrated state.json from schemaVersion ${r.migratedFrom}\n`);
          for (const b of r.resume?.blocked ?? []) {
            await write(io.stderr, `step "${b.node}" (${b.risk}) was interrupted mid-call and has no idempotency record: it may have had side effects.\n`);
          }
          if (r.resume?.blocked.length) await write(io.stderr, `check, then run: planspec resume ${dir} --rerun-interrupted\n`);
          return await report(io, r);
        } catch (err) {
          p.end();
          const { GateError } = await import("../lint/gate.js");
          if (err instanceof GateError) return printGate(err.result, `resume ${dir}`, io, useColor(program, io, "stderr")) as Promise<number>;
          return userError(err);
        } finally {
          await opened.close();
        }
      }),
    );
}

/**
 * The gate of a resume. A verdict the run kept for this plan, plan file and planspec
 * version stands (so does an operator's override) without loading the linter and the
 * compiler; else the recorded plan is linted, under the run's lock.
 */
function resumeGate(cwd: string): NonNullable<ResumeOptions["gate"]> {
  const stands = verdictStands(cwd);
  return async (plan, state, config, where) => {
    if (stands(plan.planHash, state.gate, config)) return config.lintGate === false ? undefined : state.gate;
    return (await import("../runtime/gated.js")).recordedGate(cwd)(plan, state, config, where);
  };
}
