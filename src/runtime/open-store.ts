/**
 * Where runs live, chosen in one place for every command and library caller: run
 * directories under a working directory when no URL is given, or the PostgreSQL store a
 * `postgres://` URL names. `openStore` opens one existing run, `openRuns` the runs (to
 * create one in), `openDatabase` (./open-database.ts) the PostgreSQL store itself;
 * `storeUrlFrom` applies the `PLANSPEC_STORE` fallback. Every failure a user can cause is
 * a one-line `StoreError` (or the database's own one-line errors), never a stack trace.
 * No declaration here names a type of the `pg` package: the library's users type-check
 * without `@types/pg`.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { StoreError, type Store } from "./store.js";

export { StoreError };

export interface RunStore {
  /** `files`: run directories; `postgres`: a PostgreSQL store. */
  readonly kind: "files" | "postgres";
  /** The runs directory, or the store's URL without its password. */
  readonly location: string;
  /** An existing run: a run directory or a run id under `.planspec/runs` (files), or a run id (PostgreSQL). */
  open(run: string): Promise<Store>;
  /** The store a new run with this id is created in; undefined for run directories (`startRun` makes the directory). */
  forNewRun(runId: string): Store | undefined;
  /** How a command line names the run: its directory, or `<id> --store <url>`. */
  ref(store: Store): string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** Check the PostgreSQL schema version (default); `store migrate` opens without. */
  check?: boolean;
  /** PostgreSQL pool size. */
  max?: number;
}

export interface OpenRunsOptions extends DatabaseOptions {
  /** The working directory run ids of the file store are resolved under. */
  cwd: string;
}

export interface OpenStoreOptions {
  /** A PostgreSQL store (`postgres://...`) the run is in; default: run directories. */
  store?: string;
  /** The working directory a run id or relative run directory is resolved under (default `process.cwd()`). */
  cwd?: string;
}

/** An existing run, opened: `store` is what `resume`, `approve` and the runtime take. */
export interface OpenedRun {
  store: Store;
  /** How a command line names the run: its directory, or `<id> --store <url>`. */
  ref: string;
  /** The run directory, when the run is in one. */
  dir?: string;
  /** Closes the database connection of a PostgreSQL store (nothing to close for a run directory). */
  close(): Promise<void>;
}

/** The store URL: the explicit one, else `PLANSPEC_STORE`; blank means run directories. */
export function storeUrlFrom(explicit: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const url = explicit ?? env.PLANSPEC_STORE;
  return url && url.trim() !== "" ? url.trim() : undefined;
}

/** The directory that holds run directories under a working directory. */
export function runsRootOf(cwd: string): string {
  return resolve(cwd, ".planspec", "runs");
}

/** A run argument is a run directory or a run id under `.planspec/runs` of the working directory. */
export function findRunDir(arg: string, cwd: string): string {
  const direct = resolve(cwd, arg);
  if (existsSync(join(direct, "state.json"))) return direct;
  const byId = join(runsRootOf(cwd), arg);
  if (existsSync(join(byId, "state.json"))) return byId;
  throw new StoreError(`no run "${arg}": not a run directory, and not a run id under ${runsRootOf(cwd)}`);
}

/**
 * Opens an existing run: a run directory (or a run id under `.planspec/runs` of `cwd`), or
 * a run id in the PostgreSQL store `opts.store`. Throws `StoreError` when there is no such run.
 */
export async function openStore(run: string, opts: OpenStoreOptions = {}): Promise<OpenedRun> {
  const runs = await openRuns(opts.store, { cwd: opts.cwd ?? process.cwd() });
  try {
    const store = await runs.open(run);
    return { store, ref: runs.ref(store), ...(runs.kind === "files" ? { dir: store.location } : {}), close: () => runs.close() };
  } catch (err) {
    await runs.close();
    throw err;
  }
}

/** Opens the runs at `url` (a PostgreSQL store) or, without one, the run directories under `opts.cwd`. */
export async function openRuns(url: string | undefined, opts: OpenRunsOptions): Promise<RunStore> {
  if (url === undefined) {
    const { openRun } = await import("./load.js");
    return {
      kind: "files",
      location: runsRootOf(opts.cwd),
      open: async (run) => openRun(findRunDir(run, opts.cwd)),
      forNewRun: () => undefined,
      ref: (store) => store.location,
      close: async () => {},
    };
  }
  const [{ PgStore }, { openDatabase }] = await Promise.all([import("./pg/pg-store.js"), import("./open-database.js")]);
  const db = await openDatabase(url, opts);
  return {
    kind: "postgres",
    location: db.location,
    async open(run) {
      const store = new PgStore(db, run);
      if (!(await store.exists())) throw new StoreError(`no run "${run}" in the store ${db.location}`);
      return store;
    },
    forNewRun: (runId) => new PgStore(db, runId),
    ref: (store) => `${store.runId} --store ${db.location}`,
    close: () => db.close(),
  };
}
