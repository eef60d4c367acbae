/**
 * Moving a run between stores (a run directory <-> PostgreSQL): plan revisions, config,
 * state, events, idempotency records and every artifact the state or a record points at.
 * The copy is a snapshot; it is taken without the source's lease.
 */
import { writeFileAtomic } from "../atomic.js";
import { FileStore } from "../file-store.js";
import { loadRun } from "../run.js";
import type { RunEvent, Store } from "../store.js";
import { StoreError } from "./db.js";
import { PgStore } from "./pg-store.js";
import { join } from "node:path";

export interface CopyReport {
  events: number;
  artifacts: number;
  revisions: number;
}

/** Copies the run held by `from` into `to`, which must not hold it yet. */
export async function copyRun(from: Store, to: Store): Promise<CopyReport> {
  if (!(await from.exists())) throw new StoreError(`no run ${from.runId} in ${from.location}`);
  if (await to.exists()) throw new StoreError(`run ${to.runId} already exists in ${to.location}`);
  const { state } = await loadRun(from);
  const plans = [];
  for (let i = 0; i <= state.revision; i++) plans.push(await from.readPlan(i));
  const config = await from.readConfig();
  const events = await from.readEvents();
  const records = await from.readIdempotency();
  const refs = new Set<string>();
  for (const n of Object.values(state.nodes)) if (n.outputRef) refs.add(n.outputRef);
  for (const r of Object.values(records)) if (r.resultRef) refs.add(r.resultRef);

  await to.lock();
  try {
    for (const ref of refs) {
      let value: unknown;
      try {
        value = await from.getArtifact(ref);
      } catch {
        continue; // A missing artifact stays missing; resume in the new store re-runs its step.
      }
      const art = await to.putArtifact(value, true);
      if (art.ref !== ref) throw new StoreError(`artifact ${ref} does not re-serialise to the same hash; not copied`);
    }
    const version = state.stateVersion;
    // create and the final write each add one: the copy ends at the source's version.
    state.stateVersion = version - 2;
    await to.create(plans[0]!, config, state);
    for (let i = 1; i < plans.length; i++) await to.saveRevision(i, plans[i]!);
    for (const [key, r] of Object.entries(records)) await to.recordIdempotency(key, r.resultRef);
    await importEvents(to, events);
    await to.writeState(state);
    await to.syncEvents();
  } finally {
    await to.unlock();
  }
  return { events: events.length, artifacts: refs.size, revisions: plans.length - 1 };
}

/** Events keep their sequence numbers and times, which `appendEvent` would renumber and restamp. */
async function importEvents(to: Store, events: RunEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (to instanceof PgStore) return to.importEvents(events);
  if (to instanceof FileStore) {
    writeFileAtomic(join(to.dir, "events.jsonl"), events.map((e) => JSON.stringify(e)).join("\n") + "\n", true);
    return;
  }
  for (const e of events) to.appendEvent(e.type, e.data);
}
