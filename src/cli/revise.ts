/** `planspec revise RUN new.plan.yaml --reason ... [--evidence ref...]`: change a run's plan, linted against the old one. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { UsageError, write, userError } from "./io.js";
import { useColor } from "./color.js";
import { compileOrExit, printDiagnostics } from "./shared.js";
import { collect } from "./run.js";
import { openStore, STORE_OPTION, storeUrl } from "./store.js";

export function registerRevise(program: Command, ctx: ActionContext): void {
  program
    .command("revise")
    .description("replace a run's plan with a revised one; unchanged done steps stay done; linted for goal drift and unsafe revisions")
    .argument("<run>", "a run directory or a run id under .planspec/runs")
    .argument("<plan>", "the revised plan file")
    .requiredOption("--reason <text>", "why the plan changes (recorded in the plan.revised event)")
    .option("--evidence <ref>", "a recorded fact the revision rests on, e.g. steps.run_tests; repeatable", collect, [])
    .option("--no-lint-gate", "record the revision even if lint reports errors")
    .option(...STORE_OPTION)
    .addHelpText("after", `\nExamples:\n  $ planspec revise nightly-1 fix-v2.plan.yaml --reason "the test shows a time-zone bug" --evidence steps.run_tz_test\n  $ planspec revise nightly-1 fix-v2.plan.yaml --reason "a time-zone bug" --store postgres://localhost/planspec\n  $ planspec resume nightly-1\n\nExit codes: 0 recorded, 1 lint errors (refused), 2 usage error.\n`)
    .action(
      ctx.action(async (run: string, file: string, opts: { reason: string; evidence: string[]; lintGate: boolean; store?: string }) => {
        const { io } = ctx;
        if (opts.reason.trim() === "") throw new UsageError("--reason must not be empty");
        const color = useColor(program, io, "stderr");
        const compiled = await compileOrExit(file, io, color);
        if (typeof compiled === "number") return compiled;
        if (!compiled.ir) throw new UsageError(`${file} is a ${compiled.kind}, not a plan`);
        const opened = await openStore(run, io, storeUrl(opts.store, io));
        const dir = opened.ref;
        const { loadRun } = await import("../runtime/load.js");
        let original;
        try {
          original = (await loadRun(opened.store)).plan;
        } catch (err) {
          await opened.close();
          return userError(err);
        }
        const { reviseRun, revisionLintErrors } = await import("../runtime/revise.js");
        if (opts.lintGate) {
          const errors = revisionLintErrors(compiled, original);
          if (errors.length > 0) {
            await printDiagnostics(errors, compiled.sources, io, color);
            await write(io.stderr, `planspec: revision refused: lint found ${errors.length} error${errors.length === 1 ? "" : "s"} against the run's plan\n`);
            await opened.close();
            return 1;
          }
        }
        try {
          const r = await reviseRun(opened.store, compiled.ir, { reason: opts.reason, evidence: opts.evidence });
          const kinds = r.changes.map((c) => `${c.node} (${c.from === null ? "added" : c.to === null ? "removed" : "changed"})`);
          await write(io.stdout, `revision ${r.revision} recorded: ${kinds.join(", ") || "no step changed"}; ${r.reset.length} step(s) will run again\nnext: planspec resume ${dir}\n`);
          return 0;
        } catch (err) {
          return userError(err);
        } finally {
          await opened.close();
        }
      }),
    );
}
