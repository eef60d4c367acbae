/** `planspec resolve RUN STEP --rerun | --adopt RESULT.json`: a person settles a lost result or an interrupted call. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { UsageError, write, userError } from "./io.js";
import { openStore, STORE_OPTION, storeUrl } from "./store.js";

function readResult(file: string, cwd: string): unknown {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), "utf8");
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}; --adopt takes a JSON file holding the step's result`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new UsageError(`${file} is not valid JSON (${(err as Error).message}); --adopt takes a JSON file holding the step's result`);
  }
}

export function registerResolve(program: Command, ctx: ActionContext): void {
  program
    .command("resolve")
    .description("settle a keyed step whose effect happened but whose recorded result is lost, or a step interrupted mid-call: run it again, or adopt what it returned")
    .argument("<run>", "a run directory or a run id under .planspec/runs")
    .argument("<step>", "the step id")
    .option("--rerun", "run the step's call again on resume (its idempotency record is forgotten; the effect may repeat)")
    .option("--adopt <result.json>", "the call happened and returned this JSON: record it as the step's result, do not call again")
    .option("--by <name>", "who decides (recorded in the event log)")
    .option(...STORE_OPTION)
    .addHelpText(
      "after",
      `
Examples:
  $ planspec resolve nightly-1 pay --adopt pay-result.json --by ops-lead
  $ planspec resolve nightly-1 pay --rerun
  $ planspec resume nightly-1

Exit codes: 0 recorded, 2 usage error (no such step, the step waits for no resolution, unreadable file).`,
    )
    .action(
      ctx.action(async (run: string, step: string, opts: { rerun?: boolean; adopt?: string; by?: string; store?: string }) => {
        const { io } = ctx;
        if ((opts.rerun === true) === (opts.adopt !== undefined)) throw new UsageError("resolve needs exactly one of --rerun or --adopt RESULT.json");
        const resolution = opts.adopt !== undefined ? { choice: "adopt" as const, result: readResult(opts.adopt, io.cwd) } : { choice: "rerun" as const };
        const opened = await openStore(run, io, storeUrl(opts.store, io));
        const { resolveStep } = await import("../runtime/resolve.js");
        try {
          await resolveStep(opened.store, step, resolution, opts.by, io.env);
          const what = resolution.choice === "adopt" ? `adopted ${opts.adopt} as its result` : "it runs again on resume";
          await write(io.stdout, `resolved: step "${step}": ${what}\nnext: planspec resume ${opened.ref}\n`);
          return 0;
        } catch (err) {
          return userError(err);
        } finally {
          await opened.close();
        }
      }),
    );
}
