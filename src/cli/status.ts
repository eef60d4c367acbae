/** `planspec status RUN`: the run as a table plus the human checkpoint summary. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { write, userError } from "./io.js";
import { formatTable } from "./runs.js";
import { openStore, STORE_OPTION, storeUrl } from "./store.js";

export function registerStatus(program: Command, ctx: ActionContext): void {
  program
    .command("status")
    .description("show a run: each step's status and a checkpoint summary built from the plan and recorded facts")
    .argument("<run>", "a run directory or a run id under .planspec/runs")
    .option("--json", "print the state as JSON")
    .option(...STORE_OPTION)
    .addHelpText("after", "\nExamples:\n  $ planspec status .planspec/runs/csv-anomaly-report-20250101T120000-ab12\n  $ planspec status nightly-1 --json\n\nExit codes: 0 done, 1 failed or terminated, 3 paused, 0 running; 2 no such run.\n")
    .action(
      ctx.action(async (run: string, opts: { json?: boolean; store?: string }) => {
        const { io } = ctx;
        const opened = await openStore(run, io, storeUrl(opts.store, io));
        try {
          const { loadRun } = await import("../runtime/load.js");
          const { statusTable, checkpointSummary } = await import("../runtime/summary.js");
          const store = opened.store;
          let loaded;
          try {
            loaded = await loadRun(store);
          } catch (err) {
            return userError(err);
          }
          const { state, plan } = loaded;
          if (opts.json) {
            await write(io.stdout, `${JSON.stringify(state, null, 2)}\n`);
          } else {
            // Facts come from the outputs of the most recent done steps only: status stays fast on huge runs.
            const outputs = new Map<string, unknown>();
            const done = plan.order.filter((id) => state.nodes[id]?.status === "done" && state.nodes[id]?.outputRef).slice(-5);
            for (const id of done) {
              try {
                outputs.set(id, await store.getArtifact(state.nodes[id]!.outputRef!));
              } catch {
                // A missing artifact: resume will notice; status just shows no facts.
              }
            }
            const head = `run ${state.runId} (${plan.name}${state.revision ? `, revision ${state.revision}` : ""}): ${state.status}, ${state.budget.toolCalls} tool calls, state v${state.stateVersion}\n\n`;
            await write(io.stdout, head + formatTable(statusTable(plan, state)) + "\n" + checkpointSummary(plan, state, outputs).join("\n") + "\n");
          }
          return state.status === "failed" || state.status === "terminated" ? 1 : state.status === "paused" ? 3 : 0;
        } finally {
          await opened.close();
        }
      }),
    );
}
