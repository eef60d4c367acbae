/** `planspec refine RUN STEP`: the LLM expands a phase of a paused or running run into sub-steps, recorded as a revision. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { UsageError, write, userError } from "./io.js";
import { useColor } from "./color.js";
import { openStore, STORE_OPTION, storeUrl } from "./store.js";
import type { Store } from "../runtime/store.js";
import { addProviderFlags, integerOption, type ProviderFlags, providerOptions, readReplayTrace } from "./plan.js";

interface RefineCliOpts extends ProviderFlags {
  maxRepairs: string;
  trace?: string;
  replay?: string;
  store?: string;
}

/** A command that revises a run (`refine`, `replan`): the run and step arguments, the provider options, the shared exit codes. */
export function revisionCommand(program: Command, name: string, description: string, stepArg: [string, string], examples: string): Command {
  return addProviderFlags(program.command(name).description(description).argument("<run>", "a run directory or a run id under .planspec/runs").argument(...stepArg))
    .option("--max-repairs <n>", "how many times diagnostics go back to the model", "2")
    .option(...STORE_OPTION)
    .option("--trace <file>", "where the trace goes (default <run>/refine/<step>.trace.jsonl)")
    .option("--replay <trace>", "answers taken from a recorded trace, in order; no network")
    .addHelpText("after", `\nExamples:\n${examples}Exit codes: 0 revision recorded, 1 the revised plan does not lint clean after repairs, 2 usage, key or network error.\n`);
}

/** Runs a refinement (`phase`) or a replan (`failed`) and prints the outcome; returns the exit code. */
export async function runRefinement(ctx: ActionContext, program: Command, run: string, stepArg: string | undefined, mode: "phase" | "failed", opts: RefineCliOpts): Promise<number> {
  const { io } = ctx;
  const { join, resolve } = await import("node:path");
  const { mkdirSync } = await import("node:fs");
  const planner = await import("../planner/index.js");
  const { refineStep } = await import("../planner/refine.js");
  const maxRepairs = integerOption(opts.maxRepairs, "--max-repairs", 0);
  const settings = providerOptions(opts, io.env);
  const opened = await openStore(run, io, storeUrl(opts.store, io));
  const dir = opened.ref;
  try {
    const step = stepArg ?? (await onlyFailedStep(opened.store));
    // A run directory keeps its refinements; a run in a PostgreSQL store gets a directory here.
    const outDir = opened.dir ? join(opened.dir, "refine") : resolve(io.cwd, ".planspec", "refine", opened.store.runId);
    let provider: import("../planner/index.js").Provider;
    let secrets: string[] = [];
    if (opts.replay) {
      const events = await readReplayTrace(opts.replay, io.cwd);
      provider = new planner.ReplayProvider(planner.recordedCompletions(events), planner.traceStart(events));
    } else {
      const made = await planner.makeProvider(settings);
      provider = made.provider;
      secrets = made.secrets;
    }
    mkdirSync(outDir, { recursive: true });
    const traceFile = opts.trace ? resolve(io.cwd, opts.trace) : join(outDir, `${step}.trace.jsonl`);
    const trace = new planner.FileTrace(traceFile, secrets);
    const r = await refineStep({ run: opened.store, outDir, step, mode, provider, trace, maxRepairs, cwd: io.cwd });
    const color = useColor(program, io, "stdout");
    if (r.diagnostics.length && r.compiled) {
      const { renderText } = await import("../lint/format/stylish.js");
      await write(io.stdout, renderText(r.diagnostics, { sources: r.compiled.sources, color }));
    }
    if (r.problem) await write(io.stdout, `the last answer could not be used: ${r.problem}\n`);
    if (!r.revision) {
      await write(io.stdout, `refinement of "${step}" refused after ${r.rounds} model call${r.rounds === 1 ? "" : "s"}: the revised plan does not compile and lint clean against the run's plan; trace: ${traceFile}\n`);
      return 1;
    }
    const v = r.revision;
    await write(
      io.stdout,
      `revision ${v.number} recorded: "${step}" replaced by ${v.added.join(", ")}; ${v.reset.length} step(s) will run again\nplan: ${r.planFile}\ntrace: ${traceFile}\nnext: planspec resume ${dir}\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof planner.PlannerError) throw new UsageError(err.message);
    return userError(err);
  } finally {
    await opened.close();
  }
}

/** The step a bare `replan RUN` means: the only failed one. */
async function onlyFailedStep(store: Store): Promise<string> {
  const state = (await store.readStateRaw()) as { nodes?: Record<string, { status?: string }> };
  const failed = Object.entries(state.nodes ?? {})
    .filter(([, s]) => s.status === "failed")
    .map(([id]) => id);
  if (failed.length !== 1) throw new UsageError(failed.length ? `several steps failed (${failed.join(", ")}): name the one to replan` : "no step of this run has failed");
  return failed[0]!;
}

export function registerRefine(program: Command, ctx: ActionContext): void {
  revisionCommand(
    program,
    "refine",
    "expand a `kind: phase` step of a paused or running run into sub-steps with the LLM planner; recorded as a linted revision",
    ["<step>", "the phase step to expand"],
    `  $ planspec refine .planspec/runs/fix-1 regressions\n  $ planspec resume .planspec/runs/fix-1\n\nOnly the artifacts the phase references go into the prompt. The sub-steps are named <phase>.<sub>.\n`,
  ).action(ctx.action(async (run: string, step: string, opts: RefineCliOpts) => runRefinement(ctx, program, run, step, "phase", opts)));
}
