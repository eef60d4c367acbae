/** `planspec status RUN`: the run as a table plus the human checkpoint summary. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { write, userError } from "./io.js";
import { openStore, STORE_OPTION, storeUrl } from "./store.js";
import { planspecVersion } from "../util/version.js";
import type { PlanIR } from "../ir.js";
import type { RunState } from "../runtime/store.js";

const exitCode = (status: string): number => (status === "failed" || status === "terminated" ? 1 : status === "paused" ? 3 : 0);

export function registerStatus(program: Command, ctx: ActionContext): void {
  program
    .command("status")
    .description("show a run: each step's status and a checkpoint summary built from the plan and recorded facts")
    .argument("<run>", "a run directory or a run id under .planspec/runs")
    .option("--json", "print the state as JSON")
    .option("--all", "list every step (a plan of more than 40 steps shows the steps that matter and a count per status)")
    .option(...STORE_OPTION)
    .addHelpText("after", "\nExamples:\n  $ planspec status .planspec/runs/csv-anomaly-report-20250101T120000-ab12\n  $ planspec status nightly-1 --all\n  $ planspec status nightly-1 --json\n\nExit codes: 0 done, 1 failed or terminated, 3 paused, 0 running; 2 no such run.\n")
    .action(
      ctx.action(async (run: string, opts: { json?: boolean; all?: boolean; store?: string }) => {
        const { io } = ctx;
        const opened = await openStore(run, io, storeUrl(opts.store, io));
        try {
          const { FileStore, readStatusSummary } = await import("../runtime/file-store.js");
          const store = opened.store;
          if (!opts.json && !opts.all && store instanceof FileStore) {
            // A run whose last session ended cleanly: its snapshot says what to print.
            let kept;
            try {
              kept = readStatusSummary(store.dir, planspecVersion());
            } catch (err) {
              return userError(err);
            }
            if (kept) {
              await write(io.stdout, kept.summary.text);
              return exitCode(kept.status);
            }
          }
          const { loadRun, loadRunOverview } = await import("../runtime/load.js");
          const { statusWithFacts } = await import("../runtime/summary.js");
          const { NotKept } = await import("../runtime/overview.js");
          const text = (plan: PlanIR, state: RunState) => statusWithFacts(plan, state, (ref) => store.getArtifact(ref), { all: opts.all === true });
          if (!opts.json && !opts.all && store instanceof FileStore) {
            // A run in progress or killed: the writer's overview and the journal after it, when they can be believed.
            const fast = await loadRunOverview(store);
            if (fast) {
              try {
                await write(io.stdout, await text(fast.plan, fast.state));
                return exitCode(fast.state.status);
              } catch (err) {
                // The view needed a step's state the overview left out: the whole read below.
                if (!(err instanceof NotKept)) throw err;
              }
            }
          }
          let loaded;
          try {
            // The table and summary look at some forty steps of a long plan: nodes parsed as they are read.
            loaded = await loadRun(store, { lazyNodes: !opts.json && !opts.all });
          } catch (err) {
            return userError(err);
          }
          const { state, plan } = loaded;
          await write(io.stdout, opts.json ? `${JSON.stringify(state, null, 2)}\n` : await text(plan, state));
          return exitCode(state.status);
        } finally {
          await opened.close();
        }
      }),
    );
}
