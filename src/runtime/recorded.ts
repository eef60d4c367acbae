/**
 * A keyed step's recorded result (its idempotency record says the effect happened):
 * read and checked against its hash, restored from the record's inline copy when the
 * artifact is missing or altered, or lost — then a person decides (`planspec resolve`),
 * since re-running would repeat the effect and adopting would trust unchecked content.
 */
import { refHash } from "./artifact-ref.js";
import { INLINE_RESULT_MAX, IntegrityError, type ArtifactRef, type IdempotencyRecord, type Store } from "./store.js";

export type Recorded =
  | { kind: "ok" | "restored"; output: unknown; art: ArtifactRef }
  | { kind: "lost"; problem: string };

/** The keyed step's result is lost: the run pauses on it until `planspec resolve`. */
export class ResultLostError extends Error {
  constructor(
    readonly key: string,
    problem: string,
  ) {
    super(problem);
    this.name = "ResultLostError";
  }
}

/** Reads the result a record points at; restores it from the record when the artifact is missing or altered. */
export async function recordedResult(store: Store, rec: IdempotencyRecord): Promise<Recorded> {
  if (rec.resultRef === null) return { kind: "ok", output: null, art: await store.putArtifact(null, true) };
  const art = { ref: rec.resultRef, hash: refHash(rec.resultRef) ?? "" };
  try {
    return { kind: "ok", output: await store.getArtifact(rec.resultRef), art };
  } catch (err) {
    if (!(err instanceof IntegrityError)) throw err;
    if (rec.result !== undefined) {
      const restored = await store.putArtifact(rec.result, true);
      if (restored.ref === rec.resultRef) return { kind: "restored", output: rec.result, art: restored };
    }
    return { kind: "lost", problem: err.message };
  }
}

/** The inline copy a record keeps of `output`, when it is small enough. */
export function inlineCopy(output: unknown, art: ArtifactRef): unknown {
  return art.size !== undefined && art.size <= INLINE_RESULT_MAX ? output : undefined;
}

/** How to name a run on a command line: its directory, or `<id> --store <url>`. */
export function runRef(store: Store): string {
  return /^postgres(ql)?:\/\//i.test(store.location) ? `${store.runId} --store ${store.location}` : store.location;
}

/** The line that tells a person how to settle a lost result. */
export function resolveHint(store: Store, step: string): string {
  return `planspec resolve ${runRef(store)} ${step} --rerun | --adopt RESULT.json`;
}
