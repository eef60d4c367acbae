/** `planspec report RUN`: a self-contained HTML report of a run. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { UsageError, write, userError } from "./io.js";
import { openStore, STORE_OPTION, storeUrl } from "./store.js";

/** Writes `text` to `file` (relative to the working directory), or to stdout without one. */
export async function writeOutput(ctx: ActionContext, file: string | undefined, text: string): Promise<void> {
  if (file === undefined) return write(ctx.io.stdout, text);
  const { writeFile } = await import("node:fs/promises");
  const { resolve } = await import("node:path");
  try {
    await writeFile(resolve(ctx.io.cwd, file), text);
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as Error).message}`);
  }
}

export function registerReport(program: Command, ctx: ActionContext): void {
  program
    .command("report")
    .description("write a run as one self-contained HTML page: graph by status, steps with inputs, outputs and errors, timeline")
    .argument("<run>", "a run directory or a run id under .planspec/runs")
    .option("-o, --output <file>", "write the HTML to FILE instead of stdout")
    .option(...STORE_OPTION)
    .addHelpText(
      "after",
      "\nExamples:\n  $ planspec report .planspec/runs/csv-anomaly-report-20250101T120000-ab12 -o run.html\n  $ planspec report nightly-1 > nightly-1.html\n  $ planspec report nightly-1 --store postgres://localhost/planspec -o nightly-1.html\n\nThe page needs no network: open it from disk in any browser.\n",
    )
    .action(
      ctx.action(async (run: string, opts: { output?: string; store?: string }) => {
        const opened = await openStore(run, ctx.io, storeUrl(opts.store, ctx.io));
        const { collectRunReport } = await import("../report/run-data.js");
        const { renderRunHtml } = await import("../report/run-html.js");
        let html: string;
        try {
          html = renderRunHtml(await collectRunReport(opened.store));
        } catch (err) {
          if (err instanceof SyntaxError) throw new UsageError(`${opened.ref}: a run file is not valid JSON (${err.message})`);
          return userError(err);
        } finally {
          await opened.close();
        }
        await writeOutput(ctx, opts.output, html);
        return 0;
      }),
    );
}
