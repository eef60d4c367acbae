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

/** The store tests' plan: a read step, then a keyed external send behind an approval by "ops" (tools: TEST_TOOLS). */
export const GATED_PLAN = `planspec: 1
name: gated
goal: Prepare a note and send it after approval
tools: { echo: { risk: read }, ledger: { risk: external } }
limits: { max_tool_calls: 20 }
steps:
  prep: { kind: read, goal: prep, tool: echo, with: { x: 1 }, output: prepared }
  send:
    kind: external
    goal: send
    needs: [prep]
    tool: ledger
    risk: external
    approval: { required: true, approvers: [ops] }
    idempotency_key: "\${{ run.id }}:send"
    with: { entry: "\${{ steps.prep.output.x }}" }
    output: sent
`;
