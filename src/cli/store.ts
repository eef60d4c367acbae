/**
 * `planspec store migrate|export|import`, and the `--store URL` plumbing shared by the
 * run commands: a run argument names a run directory, or a run id in the PostgreSQL
 * store given by `--store` or `PLANSPEC_STORE`.
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import type { CliIO } from "./io.js";
import { UsageError, userError, write } from "./io.js";
import type { PgDatabase } from "../runtime/pg/db.js";
import { openDatabase as openPg } from "../runtime/open-database.js";
import { openRuns, openStore as openRun, storeUrlFrom, type DatabaseOptions, type OpenedRun, type RunStore } from "../runtime/open-store.js";

export const STORE_OPTION = ["--store <url>", "a PostgreSQL run store (postgres://...); default $PLANSPEC_STORE, else run directories"] as const;

/** The store URL from the option or the environment, if any. */
export function storeUrl(option: string | undefined, io: CliIO): string | undefined {
  return storeUrlFrom(option, io.env);
}

/** Opens the runs at `url` (PostgreSQL) or the run directories under the working directory; a store error is one line, exit 2. */
export async function openRunStore(url: string | undefined, io: CliIO, opts: DatabaseOptions = {}): Promise<RunStore> {
  return openRuns(url, { cwd: io.cwd, ...opts }).catch(userError);
}

/** Opens the PostgreSQL store at `url`; a user error (bad URL, server down, schema) becomes one line, exit 2. */
export async function openDatabase(url: string, opts: DatabaseOptions = {}): Promise<PgDatabase> {
  return openPg(url, opts).catch(userError);
}

/** Opens an existing run: a run directory (or id under .planspec/runs), or a run id in the store at `url`. */
export async function openStore(run: string, io: CliIO, url: string | undefined): Promise<OpenedRun> {
  return openRun(run, { cwd: io.cwd, ...(url !== undefined ? { store: url } : {}) }).catch(userError);
}

export function registerStore(program: Command, ctx: ActionContext): void {
  const store = program.command("store").description("manage a PostgreSQL run store: create or upgrade its schema, move runs to and from run directories");

  store
    .command("migrate")
    .description("create or upgrade the store's schema (versioned SQL migrations)")
    .option(...STORE_OPTION)
    .addHelpText("after", "\nExamples:\n  $ planspec store migrate --store postgres://localhost/planspec\n")
    .action(
      ctx.action(async (opts: { store?: string }) => {
        const url = storeUrl(opts.store, ctx.io);
        if (!url) throw new UsageError("store migrate needs --store URL (or PLANSPEC_STORE)");
        const db = await openDatabase(url, { check: false });
        try {
          const r = await db.migrate().catch(userError);
          await write(ctx.io.stdout, r.applied.length ? `store ${db.location}: schema upgraded from version ${r.from} to ${r.to}\n` : `store ${db.location}: schema is at version ${r.to}, nothing to do\n`);
          return 0;
        } finally {
          await db.close();
        }
      }),
    );

  store
    .command("export")
    .description("write a run of the store as a run directory (state.json, plan, events, artifacts, idempotency)")
    .argument("<run>", "the run id")
    .requiredOption("-o, --out <dir>", "the run directory to create")
    .option(...STORE_OPTION)
    .addHelpText("after", "\nExamples:\n  $ planspec store export nightly-1 --store postgres://localhost/planspec -o runs/nightly-1\n")
    .action(
      ctx.action(async (run: string, opts: { out: string; store?: string }) => {
        const url = storeUrl(opts.store, ctx.io);
        if (!url) throw new UsageError("store export needs --store URL (or PLANSPEC_STORE)");
        const opened = await openStore(run, ctx.io, url);
        try {
          const { copyRun } = await import("../runtime/pg/transfer.js");
          const { FileStore } = await import("../runtime/file-store.js");
          const dir = resolve(ctx.io.cwd, opts.out);
          const n = await copyRun(opened.store, new FileStore(dir, run)).catch(userError);
          await write(ctx.io.stdout, `exported run ${run} to ${dir} (${n.events} events, ${n.artifacts} artifacts)\n`);
          return 0;
        } finally {
          await opened.close();
        }
      }),
    );

  store
    .command("import")
    .description("copy a run directory into the store (the run id is the directory name unless --run-id)")
    .argument("<dir>", "a run directory")
    .option("--run-id <id>", "the run id in the store")
    .option(...STORE_OPTION)
    .addHelpText("after", "\nExamples:\n  $ planspec store import .planspec/runs/nightly-1 --store postgres://localhost/planspec\n")
    .action(
      ctx.action(async (dirArg: string, opts: { runId?: string; store?: string }) => {
        const url = storeUrl(opts.store, ctx.io);
        if (!url) throw new UsageError("store import needs --store URL (or PLANSPEC_STORE)");
        const from = await openStore(dirArg, ctx.io, undefined);
        const db = await openDatabase(url);
        try {
          const { copyRun } = await import("../runtime/pg/transfer.js");
          const { PgStore } = await import("../runtime/pg/pg-store.js");
          const runId = opts.runId ?? from.store.runId;
          const n = await copyRun(from.store, new PgStore(db, runId)).catch(userError);
          await write(ctx.io.stdout, `imported ${from.ref} as run ${runId} into ${db.location} (${n.events} events, ${n.artifacts} artifacts)\n`);
          return 0;
        } finally {
          await db.close();
        }
      }),
    );
}

