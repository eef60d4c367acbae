import { afterAll, beforeAll } from "vitest";
import { PgDatabase } from "../../src/runtime/pg/db.js";
import { PgStore } from "../../src/runtime/pg/pg-store.js";
import { storeConformance } from "./conformance.js";
import { freshDatabase, type TestDatabase } from "./pg-helpers.js";

let tdb: TestDatabase;
let db: PgDatabase;

beforeAll(async () => {
  tdb = await freshDatabase();
  db = await PgDatabase.open(tdb.url, { check: false });
  await db.migrate();
});

afterAll(async () => {
  await db?.close();
  await tdb?.drop();
});

storeConformance("PgStore", () => ({ store: (id) => new PgStore(db, id) }));
