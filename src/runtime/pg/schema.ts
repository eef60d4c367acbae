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
  {
    version: 2,
    description: "node state as rows (run_nodes): a commit writes the nodes that changed, not the whole state",
    sql: `
-- One row per node of a run. fillfactor leaves room on each page, so that rewriting a
-- row in place (a HOT update: the key is unchanged) needs no index entry.
CREATE TABLE planspec.run_nodes (
  run_id   text NOT NULL REFERENCES planspec.runs ON DELETE CASCADE,
  node_id  text NOT NULL,
  -- the node's place in the state's key order, so the state reads back as written
  ord      integer NOT NULL,
  state    json NOT NULL,
  PRIMARY KEY (run_id, node_id)
) WITH (fillfactor = 80);
INSERT INTO planspec.run_nodes (run_id, node_id, ord, state)
SELECT r.run_id, n.key, n.ord - 1, n.value
FROM planspec.runs r, json_each(r.state->'nodes') WITH ORDINALITY AS n(key, value, ord);
-- runs.state keeps the rest of the state, with "nodes" left as {} in its place (key order).
UPDATE planspec.runs r SET state = (
  SELECT json_object_agg(e.key, CASE WHEN e.key = 'nodes' THEN '{}'::json ELSE e.value END ORDER BY e.ord)
  FROM json_each(r.state) WITH ORDINALITY AS e(key, value, ord)
);
`,
  },
];

/** The newest schema version this planspec knows. */
export const STORE_SCHEMA_VERSION = SCHEMA_MIGRATIONS[SCHEMA_MIGRATIONS.length - 1]!.version;
