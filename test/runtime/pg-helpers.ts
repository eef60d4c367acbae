/** A fresh PostgreSQL database per test file, dropped afterwards (the server the machine runs). */
import { randomBytes } from "node:crypto";
import pg from "pg";

/** The maintenance database used to create and drop test databases; override with PLANSPEC_TEST_PG. */
export const PG_ADMIN_URL = process.env.PLANSPEC_TEST_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Creates `planspec_test_<pid>_<random>` and returns its URL. */
export async function freshDatabase(): Promise<TestDatabase> {
  const name = `planspec_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}
