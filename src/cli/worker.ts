/** `planspec worker --store URL`: claim queued or abandoned runs and execute them; SIGTERM stops it cleanly. */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { UsageError, write } from "./io.js";
import { collect, positiveInt } from "./run.js";
import { openDatabase, STORE_OPTION, storeUrl } from "./store.js";

/** `500ms`, `2s`, `1m` or plain milliseconds. */
function duration(name: string, v: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(v.trim());
  if (!m) throw new UsageError(`${name} must be a duration like 500ms, 10s or 1m, got "${v}"`);
  const n = Number(m[1]) * (m[2] === "s" ? 1000 : m[2] === "m" ? 60_000 : 1);
  if (n < 1) throw new UsageError(`${name} must be positive, got "${v}"`);
  return n;
}

export function registerWorker(program: Command, ctx: ActionContext): void {
  program
    .command("worker")
    .description("claim runs from a PostgreSQL store (queued, or whose worker died) and execute them under a lease")
    .option(...STORE_OPTION)
    .option("--concurrency <n>", "how many runs this worker holds at once", "4")
    .option("--tools <module>", "tool modules to use instead of each run's recorded ones; repeatable", collect)
    .option("--lease <duration>", "lease length: how long a dead worker's run waits before another worker takes it", "15s")
    .option("--poll <duration>", "how often to look for work when idle", "1s")
    .option("--rerun-interrupted", "re-run write/external steps a dead worker left mid-call (safe when keyed tools honour ctx.idempotencyKey)")
    .option("--exit-when-idle", "exit once no run in the store is queued or running")
    .option("--grace <duration>", "after SIGTERM, how long to let runs in hand finish before releasing them", "30s")
    .addHelpText(
      "after",
      `
Examples:
  $ planspec worker --store postgres://localhost/planspec --concurrency 8 --tools ./tools.mjs
  $ PLANSPEC_STORE=postgres://localhost/planspec planspec worker --exit-when-idle

SIGTERM or SIGINT: stop claiming, let the runs in hand finish (up to --grace), then give
back the leases of any still running so another worker resumes them at once.
Exit codes: 0 stopped cleanly, 2 usage error or store unreachable.`,
    )
    .action(
      ctx.action(async (opts: { store?: string; concurrency: string; tools?: string[]; lease: string; poll: string; rerunInterrupted?: boolean; exitWhenIdle?: boolean; grace: string }) => {
        const { io } = ctx;
        const url = storeUrl(opts.store, io);
        if (!url) throw new UsageError("worker needs --store URL (or PLANSPEC_STORE)");
        const concurrency = positiveInt("--concurrency", opts.concurrency) ?? 4;
        const leaseMs = duration("--lease", opts.lease);
        const pollMs = duration("--poll", opts.poll);
        const graceMs = duration("--grace", opts.grace);
        const db = await openDatabase(url, { max: concurrency * 2 + 2 });
        const stop = new AbortController();
        const release = new AbortController();
        let graceTimer: NodeJS.Timeout | undefined;
        const onSignal = () => {
          if (stop.signal.aborted) return release.abort();
          stop.abort();
          void write(io.stderr, "worker: stopping: no new runs; finishing the runs in hand\n");
          graceTimer = setTimeout(() => release.abort(), graceMs);
        };
        process.on("SIGTERM", onSignal);
        process.on("SIGINT", onSignal);
        try {
          const { runWorker } = await import("../runtime/pg/worker.js");
          const summary = await runWorker({
            db,
            concurrency,
            leaseMs,
            pollMs,
            rerunInterrupted: opts.rerunInterrupted === true,
            exitWhenIdle: opts.exitWhenIdle === true,
            stop: stop.signal,
            release: release.signal,
            env: io.env,
            ...(opts.tools ? { toolModules: opts.tools.map((t) => resolve(io.cwd, t)) } : {}),
            onEvent: (e) => {
              const line =
                e.type === "finished" ? `${e.runId}: ${e.status}${e.reason ? ` — ${e.reason}` : ""}` : e.type === "claimed" ? `${e.runId}: claimed (lease generation ${e.generation})` : e.type === "error" ? `${e.runId}: error: ${e.message}` : `${e.runId}: ${e.type === "lost" ? "lease lost; another worker has the run" : "released"}`;
              void write(io.stderr, `worker: ${line}\n`);
            },
          });
          await write(io.stderr, `worker ${summary.owner}: ${summary.finished} run${summary.finished === 1 ? "" : "s"} finished, ${summary.lost} lost, ${summary.errors} errors, ${summary.released} released\n`);
          return 0;
        } finally {
          clearTimeout(graceTimer);
          process.off("SIGTERM", onSignal);
          process.off("SIGINT", onSignal);
          await db.close().catch(() => {});
          // Runs released at a deadline may still have tool calls in flight: their writes are
          // fenced off already, so the process ends here rather than waiting for them.
          if (release.signal.aborted) setTimeout(() => process.exit(), 100).unref();
        }
      }),
    );
}
