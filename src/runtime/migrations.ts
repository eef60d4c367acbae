/**
 * State migrations, by `schemaVersion`: each entry turns a state of version n into
 * version n + 1, so a run started by an older planspec resumes under a newer one.
 * After migrating, the state is validated against schemas/state.schema.json.
 */
import { STATE_SCHEMA_VERSION, type RunState } from "./store.js";

type Migration = (old: Record<string, unknown>) => Record<string, unknown>;

/**
 * v0 (planspec 0.x): no schemaVersion, steps under `steps` with `state`/`tries`/`error`/
 * `artifact`, the tool-call count at top level, no revisions.
 */
function v0ToV1(old: Record<string, unknown>): Record<string, unknown> {
  const steps = (old.steps ?? {}) as Record<string, Record<string, unknown>>;
  const nodes: Record<string, unknown> = {};
  for (const [id, s] of Object.entries(steps)) {
    const artifact = typeof s.artifact === "string" ? s.artifact : undefined;
    nodes[id] = clean({
      status: s.state,
      attempts: typeof s.tries === "number" ? s.tries : 0,
      lastError: typeof s.error === "string" ? s.error : undefined,
      startedAt: s.startedAt,
      endedAt: s.endedAt,
      outputRef: artifact ? `artifacts/${artifact}.json` : undefined,
      outputHash: artifact,
    });
  }
  const createdAt = String(old.createdAt ?? old.updatedAt ?? new Date(0).toISOString());
  return clean({
    schemaVersion: 1,
    stateVersion: typeof old.version === "number" ? old.version : 1,
    runId: old.runId,
    planHash: old.planHash,
    revision: 0,
    status: old.status,
    createdAt,
    updatedAt: String(old.updatedAt ?? createdAt),
    inputs: old.inputs ?? {},
    nodes,
    budget: { toolCalls: typeof old.toolCalls === "number" ? old.toolCalls : 0, startedAt: createdAt, elapsedMs: 0 },
  });
}

/**
 * v1 → v2: the document is unchanged; run directories keep a journal beside state.json
 * from v2 on. The version bump makes an older planspec refuse such a run instead of
 * resuming it from the snapshot alone (which may lag the journal) and repeating steps.
 */
function v1ToV2(old: Record<string, unknown>): Record<string, unknown> {
  return { ...old, schemaVersion: 2 };
}

function clean(o: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** The registry: `migrations[n]` upgrades a version-n state to n + 1. */
export const migrations: Readonly<Record<number, Migration>> = { 0: v0ToV1, 1: v1ToV2 };

/** A state file that cannot be read as any known version. */
export class StateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StateError";
  }
}

type Validate = ((d: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null };

async function validate(state: unknown): Promise<void> {
  // Precompiled by scripts/gen-state-validator.mjs: neither ajv nor its schema compilation is loaded to read a run.
  const generated = await import("./generated/state-validator.js");
  const whole = generated.state as Validate;
  const node = generated.node as Validate;
  const doc = state as Record<string, unknown>;
  const nodes = doc.nodes;
  // The nodes one by one against the node schema, the rest against the whole with no nodes:
  // the whole schema's loop builds an error path for every node it checks (a string and an
  // object each, 100,000 of them in a long run). A failure is checked again whole, for the
  // message it has always given.
  const valid =
    nodes !== null && typeof nodes === "object" && !Array.isArray(nodes)
      ? everyNode(nodes as Record<string, unknown>, node) && whole({ ...doc, nodes: {} })
      : whole(state);
  if (valid) return;
  const e = whole(state) ? node.errors?.[0] : whole.errors?.[0];
  throw new StateError(`state.json is invalid: ${e ? `${e.instancePath || "(root)"} ${e.message ?? ""}` : "unknown error"}`);
}

function everyNode(nodes: Record<string, unknown>, node: Validate): boolean {
  for (const id in nodes) if (!node(nodes[id])) return false;
  return true;
}

/** Migrates a raw state to the current version and validates it; reports the version it started from. */
export async function loadState(raw: unknown): Promise<{ state: RunState; migratedFrom?: number }> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new StateError("state.json is not an object");
  let doc = raw as Record<string, unknown>;
  const from = typeof doc.schemaVersion === "number" ? doc.schemaVersion : 0;
  if (from > STATE_SCHEMA_VERSION) {
    throw new StateError(`state.json has schemaVersion ${from}; this planspec reads up to ${STATE_SCHEMA_VERSION}`);
  }
  for (let v = from; v < STATE_SCHEMA_VERSION; v++) {
    const m = migrations[v];
    if (!m) throw new StateError(`no migration from state schemaVersion ${v}`);
    doc = m(doc);
  }
  await validate(doc);
  return { state: doc as unknown as RunState, ...(from !== STATE_SCHEMA_VERSION ? { migratedFrom: from } : {}) };
}
