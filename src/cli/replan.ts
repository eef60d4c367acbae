/** `planspec replan RUN [STEP]`: after a step failed, the LLM replaces it with sub-steps, recorded as a linted revision. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { revisionCommand, runRefinement } from "./refine.js";

export function registerReplan(program: Command, ctx: ActionContext): void {
  revisionCommand(
    program,
    "replan",
    "replace a failed step of a run with sub-steps from the LLM planner; recorded as a revision linted for goal drift",
    ["[step]", "the failed step (default: the only failed step)"],
    `  $ planspec replan .planspec/runs/fix-1\n  $ planspec resume .planspec/runs/fix-1\n  $ planspec replan nightly-1 --store postgres://localhost/planspec\n\n`,
  ).action(
    ctx.action(async (run: string, step: string | undefined, opts) => runRefinement(ctx, program, run, step, "failed", opts)),
  );
}
