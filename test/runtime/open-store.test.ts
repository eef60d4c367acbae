/**
 * `openStore` for library callers: a run directory, a run id under `.planspec/runs`, or a
 * run id in a real PostgreSQL store, opened as the `Store` that `resume` and `approve`
 * take; no such run is one `StoreError`, never a stack of the database's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decide } from "../../src/runtime/decide.js";
import { openDatabase } from "../../src/runtime/open-database.js";
import { openRuns, openStore, StoreError } from "../../src/runtime/open-store.js";
import { resumeRun, startRun } from "../../src/runtime/run.js";
import { plan, tempDir, TEST_TOOLS, writeFile } from "./helpers.js";
import { freshDatabase, GATED_PLAN, type TestDatabase } from "./pg-helpers.js";

describe("openStore", () => {
  it("opens a run directory by path or by run id, and says when there is no such run", async () => {
    const cwd = tempDir();
    const tools = writeFile(cwd, "tools.mjs", TEST_TOOLS);
    const r = await startRun({ plan: plan(GATED_PLAN), cwd, inputs: {}, toolModules: [tools], runId: "g1" });
    expect(r.outcome.status).toBe("paused");
    const byId = await openStore("g1", { cwd });
    expect(byId).toMatchObject({ ref: r.dir, dir: r.dir });
    expect(byId.store.runId).toBe("g1");
    const byPath = await openStore(r.dir);
    expect(byPath.store.location).toBe(r.dir);
    await byPath.close();
    const err = await openStore("nope", { cwd }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toMatch(/^no run "nope": not a run directory, and not a run id under /);
  });

  describe("in PostgreSQL", () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await freshDatabase();
      const admin = await openDatabase(db.url, { check: false });
      await admin.migrate();
      await admin.close();
    });
    afterAll(async () => db?.drop());

    it("opens a run id in the store at a URL; approve and resume take the store", async () => {
      const cwd = tempDir();
      const tools = writeFile(cwd, "tools.mjs", TEST_TOOLS);
      const runs = await openRuns(db.url, { cwd });
      try {
        const r = await startRun({ store: runs.forNewRun("pg-1")!, plan: plan(GATED_PLAN), cwd, inputs: {}, toolModules: [tools] });
        expect(r.outcome.status).toBe("paused");
      } finally {
        await runs.close();
      }
      const opened = await openStore("pg-1", { store: db.url, cwd });
      try {
        expect(opened.dir).toBeUndefined();
        expect(opened.ref).toMatch(/^pg-1 --store postgres:\/\//);
        await decide(opened.store, "send", "approved", "ops");
        expect((await resumeRun(opened.store)).outcome.status).toBe("done");
      } finally {
        await opened.close();
      }
      const err = await openStore("pg-2", { store: db.url, cwd }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreError);
      expect((err as Error).message).toMatch(/^no run "pg-2" in the store postgres:\/\//);
    });
  });
});
