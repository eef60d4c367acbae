/** `planspec approve|reject RUN STEP --by NAME [--note ...]`: record a person's decision. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { write, userError } from "./io.js";
import { openStore, STORE_OPTION, storeUrl } from "./store.js";

function register(program: Command, ctx: ActionContext, name: "approve" | "reject"): void {
  const decision = name === "approve" ? "approved" : "rejected";
  program
    .command(name)
    .description(`${name} a step waiting for a decision (an approval gate, or a judge criterion); then resume the run`)
    .argument("<run>", "a run directory or a run id under .planspec/runs")
    .argument("<step>", "the step id")
    .requiredOption("--by <name>", "who decides (must be one of the step's approvers, if it lists any)")
    .option("--note <text>", "why")
    .option(...STORE_OPTION)
    .addHelpText("after", `\nExamples:\n  $ planspec ${name} nightly-1 send --by ops-lead --note "checked the report"\n  $ planspec resume nightly-1\n`)
    .action(
      ctx.action(async (run: string, step: string, opts: { by: string; note?: string; store?: string }) => {
        const { io } = ctx;
        const opened = await openStore(run, io, storeUrl(opts.store, io));
        const dir = opened.ref;
        const { decide } = await import("../runtime/decide.js");
        try {
          const r = await decide(opened.store, step, decision, opts.by, opts.note);
          await write(io.stdout, `${r.kind === "judge" ? "judgement" : "approval"} recorded: step "${step}" ${decision} by ${opts.by}\nnext: planspec resume ${dir}\n`);
          return 0;
        } catch (err) {
          return userError(err);
        } finally {
          await opened.close();
        }
      }),
    );
}

export function registerApprove(program: Command, ctx: ActionContext): void {
  register(program, ctx, "approve");
}

export function registerReject(program: Command, ctx: ActionContext): void {
  register(program, ctx, "reject");
}
