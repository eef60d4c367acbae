/** Opens the PostgreSQL store itself (schema migrations, queueing, workers), with the options every command passes. */
import type { DatabaseOptions } from "./open-store.js";
import type { PgDatabase } from "./pg/db.js";

/** Opens the PostgreSQL store at `url`; a bad URL, a server that is down or a schema of another version is a one-line error. */
export async function openDatabase(url: string, opts: DatabaseOptions = {}): Promise<PgDatabase> {
  const { PgDatabase } = await import("./pg/db.js");
  return PgDatabase.open(url, { ...(opts.check !== undefined ? { check: opts.check } : {}), ...(opts.max !== undefined ? { max: opts.max } : {}) });
}
