/**
 * A connection to a PostgreSQL store: the pool, the schema version check, migrations,
 * and the translation of driver errors into one-line `StoreError`s a user can act on.
 */
import pg from "pg";
import { SCHEMA_MIGRATIONS, STORE_SCHEMA_VERSION } from "./schema.js";
import { StoreError } from "../store.js";
import { backoffMs, type Backoff } from "../../util/backoff.js";

/** Between retries of a statement whose connection dropped: 100, 200, 400 ms at most. */
const RECONNECT: Backoff = { initialMs: 100, maxMs: 400 };

export { StoreError };

/** True when `url` names a PostgreSQL store rather than a run directory. */
export function isPgUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The URL without its password, for messages and `location`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ":***@");
  }
}

const TRANSIENT = new Set(["ECONNRESET", "EPIPE", "ETIMEDOUT", "57P01", "57P02", "57P03", "08000", "08003", "08006", "40001", "40P01"]);

/** Whether an error is worth retrying the same idempotent statement for (a dropped connection, a serialisation failure). */
export function isTransient(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (e.code !== undefined && TRANSIENT.has(e.code)) || /Connection terminated|connection.*(closed|ended)/i.test(e.message ?? "");
}

function describeError(url: string, err: unknown): string {
  const e = err as { code?: string; message?: string };
  const where = redactUrl(url);
  switch (e.code) {
    case "ECONNREFUSED":
      return `cannot connect to the store ${where}: connection refused (is PostgreSQL running?)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot connect to the store ${where}: unknown host`;
    case "3D000":
      return `cannot open the store ${where}: ${e.message ?? "database does not exist"}`;
    case "28P01":
    case "28000":
      return `cannot open the store ${where}: authentication failed (${e.message ?? ""})`;
    default:
      return `cannot connect to the store ${where}: ${e.message ?? String(err)}`;
  }
}

export interface OpenOptions {
  /** Check the schema version (default); `store migrate` opens without, to create or upgrade it. */
  check?: boolean;
  /** Pool size; a worker needs about two connections per concurrent run. */
  max?: number;
}

export class PgDatabase {
  /** The redacted URL. */
  readonly location: string;
  private closed = false;

  private constructor(
    readonly pool: pg.Pool,
    url: string,
  ) {
    this.location = redactUrl(url);
  }

  /** Connects, checks the schema version (unless `check: false`), and returns the database. */
  static async open(url: string, opts: OpenOptions = {}): Promise<PgDatabase> {
    if (!isPgUrl(url)) throw new StoreError(`--store must be a postgres:// URL, got "${redactUrl(url)}"`);
    try {
      new URL(url);
    } catch {
      throw new StoreError(`--store "${redactUrl(url)}" is not a valid URL`);
    }
    const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, connectionTimeoutMillis: 5000, idleTimeoutMillis: 10_000 });
    // An idle client losing its connection must not crash the process; the next query reports it.
    pool.on("error", () => {});
    const db = new PgDatabase(pool, url);
    try {
      await pool.query("SELECT 1");
    } catch (err) {
      await pool.end().catch(() => {});
      throw new StoreError(describeError(url, err));
    }
    try {
      if (opts.check !== false) await db.checkVersion();
    } catch (err) {
      await db.close();
      throw err instanceof StoreError ? err : new StoreError(describeError(url, err));
    }
    return db;
  }

  /** The schema version the database holds (0: none). */
  async version(): Promise<number> {
    const exists = await this.pool.query<{ t: string | null }>("SELECT to_regclass('planspec.schema_version')::text AS t");
    if (!exists.rows[0]?.t) return 0;
    const r = await this.pool.query<{ v: number | null }>("SELECT max(version) AS v FROM planspec.schema_version");
    return r.rows[0]?.v ?? 0;
  }

  private async checkVersion(): Promise<void> {
    const v = await this.version();
    if (v > STORE_SCHEMA_VERSION) {
      throw new StoreError(`the store ${this.location} has schema version ${v}, newer than this planspec knows (${STORE_SCHEMA_VERSION}); upgrade planspec`);
    }
    if (v < STORE_SCHEMA_VERSION) {
      throw new StoreError(`the store ${this.location} has schema version ${v}, this planspec needs ${STORE_SCHEMA_VERSION}: run planspec store migrate --store URL`);
    }
  }

  /** Applies the migrations the database lacks, each in its own transaction; returns the versions applied. */
  async migrate(): Promise<{ from: number; to: number; applied: number[] }> {
    const client = await this.pool.connect();
    try {
      // One migrator at a time: concurrent `store migrate` runs queue here instead of colliding.
      await client.query("SELECT pg_advisory_lock(hashtext('planspec.migrate'))");
      await client.query("CREATE SCHEMA IF NOT EXISTS planspec");
      await client.query("CREATE TABLE IF NOT EXISTS planspec.schema_version (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
      const from = await this.version();
      if (from > STORE_SCHEMA_VERSION) {
        throw new StoreError(`the store ${this.location} has schema version ${from}, newer than this planspec knows (${STORE_SCHEMA_VERSION}); upgrade planspec`);
      }
      const applied: number[] = [];
      for (const m of SCHEMA_MIGRATIONS) {
        if (m.version <= from) continue;
        await client.query("BEGIN");
        try {
          await client.query(m.sql);
          await client.query("INSERT INTO planspec.schema_version (version, description) VALUES ($1, $2)", [m.version, m.description]);
          await client.query("COMMIT");
        } catch (err) {
          await client.query("ROLLBACK");
          throw err;
        }
        applied.push(m.version);
      }
      return { from, to: STORE_SCHEMA_VERSION, applied };
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('planspec.migrate'))").catch(() => {});
      client.release();
    }
  }

  /**
   * Runs one statement, retrying it a few times when the connection drops (statements
   * passed here must be idempotent). A `name` prepares it once per connection: later
   * runs send only the parameters, not the text, and the server skips the parse.
   */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = [], name?: string): Promise<pg.QueryResult<R>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.pool.query<R>(name ? { name, text: sql, values: params } : { text: sql, values: params });
      } catch (err) {
        if (attempt >= 4 || this.closed || !isTransient(err)) throw err;
        // Jittered, so workers that lost the server together do not reconnect in lockstep.
        await new Promise((r) => setTimeout(r, backoffMs(RECONNECT, attempt - 1)));
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
