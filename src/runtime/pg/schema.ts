/**
 * The PostgreSQL store's schema as versioned migrations. The SQL lives in TypeScript
 * strings so that `tsc` ships it in dist/ with the code that depends on it.
 * Everything sits in its own PostgreSQL schema, `planspec`, so the store can share a
 * database with an application without name clashes.
 */

export interface SchemaMigration {
  version: number;
  description: string;
  sql: string;
}

/** Applied in order; a migration is never edited once released, only followed by a new one. */
export const SCHEMA_MIGRATIONS: readonly SchemaMigration[] = [
  {
    version: 1,
    description: "runs with state and lease, revisions, artifacts, events, idempotency",
    sql: `
CREATE TABLE planspec.runs (
  run_id            text PRIMARY KEY,
  plan_name         text NOT NULL,
  -- queued (submitted, never started) or the state's own status
  status            text NOT NULL,
  -- json, not jsonb: the state reads back exactly as written (key order included)
  state             json NOT NULL,
  state_version     integer NOT NULL,
  config            json NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  lease_owner       text,
  -- +1 per claim; every write names the generation it holds (fencing)
  lease_generation  bigint NOT NULL DEFAULT 0,
  lease_expires_at  timestamptz
);
CREATE INDEX runs_claimable ON planspec.runs (created_at, run_id) WHERE status IN ('queued', 'running');
CREATE TABLE planspec.revisions (
  run_id    text NOT NULL REFERENCES planspec.runs ON DELETE CASCADE,
  revision  integer NOT NULL,
  plan      json NOT NULL,
  PRIMARY KEY (run_id, revision)
);
-- Content-addressed and shared by all runs: the same output is stored once.
CREATE TABLE planspec.artifacts (
  sha256   text PRIMARY KEY,
  content  text NOT NULL
);
CREATE TABLE planspec.events (
  run_id  text NOT NULL REFERENCES planspec.runs ON DELETE CASCADE,
  seq     integer NOT NULL,
  time    timestamptz NOT NULL,
  type    text NOT NULL,
  data    json NOT NULL,
  PRIMARY KEY (run_id, seq)
);
-- The unique key is what makes a keyed side effect recorded at most once per run.
CREATE TABLE planspec.idempotency (
  run_id      text NOT NULL REFERENCES planspec.runs ON DELETE CASCADE,
  key         text NOT NULL,
  result_ref  text,
  at          timestamptz NOT NULL,
  PRIMARY KEY (run_id, key)
);
`,
  },
];

/** The newest schema version this planspec knows. */
export const STORE_SCHEMA_VERSION = SCHEMA_MIGRATIONS[SCHEMA_MIGRATIONS.length - 1]!.version;
