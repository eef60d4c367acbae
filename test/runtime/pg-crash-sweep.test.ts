/**
 * The scheduler's last turn writes no state of its own (its changes go into the session's
 * closing write), on the PostgreSQL store too: a real `planspec run --store postgres://`
 * of a plan with an approval pause and an output stored as an artifact, killed with
 * SIGKILL after each of its state writes, resumes to the same end, its keyed payment once.
 */
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileLines, planspec } from "../cli/run-helpers.js";
import { tempDir, TEST_TOOLS, writeFile } from "./helpers.js";
import { freshDatabase, type TestDatabase } from "./pg-helpers.js";
import { GATED_PLAN } from "./crash-plans.js";


let tdb: TestDatabase;
let ws: string;
let db: pg.Client;

beforeAll(async () => {
  tdb = await freshDatabase();
  ws = tempDir("planspec-pgcrash-");
  writeFile(ws, "tools.mjs", TEST_TOOLS);
  writeFile(ws, "gated.plan.yaml", GATED_PLAN);
  expect(planspec(ws, ["store", "migrate", "--store", tdb.url]).code).toBe(0);
  db = new pg.Client({ connectionString: tdb.url });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await tdb?.drop();
});

interface Shown {
  status: string;
  stateVersion: number;
  nodes: Record<string, { status: string; outputHash?: string; awaiting?: { kind: string } }>;
}

const show = (id: string, env: Record<string, string>): Shown => JSON.parse(planspec(ws, ["status", id, "--json"], env).stdout) as Shown;

/** A killed session's lease runs out (15 s by default): the time passes at once. */
let kills = 0;
async function expireLease(id: string): Promise<void> {
  kills++;
  await db.query("UPDATE planspec.runs SET lease_expires_at = clock_timestamp() - interval '1 second' WHERE run_id = $1", [id]);
}

/** Approves when asked and resumes (re-running an interrupted call) until the run is done; `kill` is passed on. */
async function drive(id: string, env: Record<string, string>, kill?: string): Promise<string[]> {
  const said: string[] = [];
  for (let i = 0; i < 8; i++) {
    const st = show(id, env);
    if (st.status === "done") return said;
    if (st.nodes.pay!.awaiting?.kind === "approval") said.push(planspec(ws, ["approve", id, "pay", "--by", "ops"], env).stderr);
    const r = planspec(ws, ["resume", id, "--rerun-interrupted"], kill ? { ...env, PLANSPEC_FAULT_KILL_AT_STATE_VERSION: kill } : env);
    said.push(`${r.code ?? r.signal}: ${r.stderr}`);
    if (r.signal === "SIGKILL") await expireLease(id);
  }
  return said;
}

describe("the PostgreSQL store, killed after every state write", () => {
  it("resumes to the same end from each kill, its keyed payment once", async () => {
    const env = { PLANSPEC_STORE: tdb.url };
    const run = (id: string, extra: Record<string, string> = {}) => planspec(ws, ["run", "gated.plan.yaml", "--tools", "tools.mjs", "--run-id", id, "--no-lint-gate"], { ...env, ...extra });
    expect(run("clean").code).toBe(3);
    await drive("clean", env);
    const ref = show("clean", env);
    expect(ref.status).toBe("done");
    expect(ref.stateVersion).toBeGreaterThanOrEqual(5);
    const killedAt: number[] = [];
    for (let v = 1; v < ref.stateVersion; v++) {
      const id = `k${v}`;
      const before = kills;
      if (run(id, { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: String(v) }).signal === "SIGKILL") await expireLease(id);
      const said = [...(await drive(id, env, String(v))), ...(await drive(id, env))];
      killedAt.push(kills > before ? v : -v);
      const end = show(id, env);
      expect(end.status, `kill at ${v}: ${said.join("\n")}`).toBe("done");
      expect(Object.values(end.nodes).map((n) => n.status), `kill at ${v}`).toEqual(["done", "done", "done"]);
      expect(end.nodes.after!.outputHash, `kill at ${v}`).toBe(ref.nodes.after!.outputHash);
      expect(fileLines(join(ws, "ledger.txt")).filter((l) => l.startsWith(`${id}:pay `)), `pay after a kill at ${v}`).toEqual([`${id}:pay 9`]);
    }
    // Every write but the creation's (PgStore creates the run in one statement before the hook) and approve's killed a session.
    expect(killedAt.filter((v) => v > 0).length, `kills: ${killedAt.join(" ")}`).toBeGreaterThanOrEqual(ref.stateVersion - 3);
  }, 240_000); // a child per state write, each ~1 s on a loaded 2-core machine
});
