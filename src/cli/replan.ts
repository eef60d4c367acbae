/** `planspec replan RUN [STEP]`: after a step failed, the LLM replaces it with sub-steps, recorded as a linted revision. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { UsageError } from "./io.js";
import { revisionCommand, runRefinement } from "./refine.js";
import { resolveRunDir } from "./runs.js";

export function registerReplan(program: Command, ctx: ActionContext): void {
  revisionCommand(
    program,
    "replan",
    "replace a failed step of a run with sub-steps from the LLM planner; recorded as a revision linted for goal drift",
    ["[step]", "the failed step (default: the only failed step)"],
    `  $ planspec replan .planspec/runs/fix-1\n  $ planspec resume .planspec/runs/fix-1\n\n`,
  ).action(
    ctx.action(async (run: string, step: string | undefined, opts) => {
      let target = step;
      if (target === undefined) {
        const { readFileSync } = await import("node:fs");
        const { join } = await import("node:path");
        const dir = resolveRunDir(run, ctx.io.cwd);
        const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as { nodes: Record<string, { status: string }> };
        const failed = Object.entries(state.nodes).filter(([, s]) => s.status === "failed").map(([id]) => id);
        if (failed.length !== 1) throw new UsageError(failed.length ? `several steps failed (${failed.join(", ")}): name the one to replan` : "no step of this run has failed");
        target = failed[0]!;
      }
      return runRefinement(ctx, program, run, target, "failed", opts);
    }),
  );
}
