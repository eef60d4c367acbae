/** `planspec submit PLAN --store URL`: queue a run in a PostgreSQL store for `planspec worker`. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { UsageError, write, userError } from "./io.js";
import { useColor } from "./color.js";
import { collect, planForRun, positiveInt } from "./run.js";
import { openDatabase, STORE_OPTION, storeUrl } from "./store.js";

export function registerSubmit(program: Command, ctx: ActionContext): void {
  program
    .command("submit")
    .description("queue a run of a plan in a PostgreSQL store; a planspec worker claims and executes it")
    .argument("<plan>", "a *.plan.yaml / *.plan.json file or an *.ir.json file")
    .option("--tools <module>", "a tool module the workers load (absolute path recorded); repeatable", collect, [])
    .option("--input <name=value>", "an input value; repeatable", collect, [])
    .option("--concurrency <n>", "how many ready steps of this run run at once", "4")
    .option("--run-id <id>", "the run id (default <plan-name>-<time>-<random>)")
    .option("--workspace <dir>", "the directory fs tools are confined to (default: the current directory)")
    .option("--no-lint-gate", "queue it even if lint reports errors")
    .option("--no-inline-config", "the lint gate ignores suppressions written in the plan (use it for generated plans)")
    .option(...STORE_OPTION)
    .addHelpText(
      "after",
      `
Examples:
  $ planspec submit nightly.plan.yaml --store postgres://localhost/planspec --tools ./tools.mjs --input day=2025-01-01
  $ planspec worker --store postgres://localhost/planspec --concurrency 8

Prints the run id. Exit codes: 0 queued, 1 lint errors, 2 usage or input error.`,
    )
    .action(
      ctx.action(async (file: string, opts: { tools: string[]; input: string[]; concurrency: string; runId?: string; workspace?: string; lintGate: boolean; inlineConfig: boolean; store?: string }) => {
        const { io } = ctx;
        const url = storeUrl(opts.store, io);
        if (!url) throw new UsageError("submit needs --store URL (or PLANSPEC_STORE): runs are queued in a PostgreSQL store");
        const concurrency = positiveInt("--concurrency", opts.concurrency);
        const ir = await planForRun(file, opts.lintGate, io, useColor(program, io, "stderr"), opts.inlineConfig);
        if (typeof ir === "number") return ir;
        const db = await openDatabase(url);
        try {
          const { submitRun } = await import("../runtime/pg/submit.js");
          const { parseInputPairs } = await import("../runtime/inputs.js");
          const runId = await submitRun({
            db,
            plan: ir,
            cwd: io.cwd,
            inputs: parseInputPairs(opts.input),
            toolModules: opts.tools,
            planFile: file,
            env: io.env,
            ...(concurrency !== undefined ? { concurrency } : {}),
            ...(opts.runId ? { runId: opts.runId } : {}),
            ...(opts.workspace ? { workspace: opts.workspace } : {}),
          });
          await write(io.stdout, `${runId}\n`);
          return 0;
        } catch (err) {
          return userError(err);
        } finally {
          await db.close();
        }
      }),
    );
}
