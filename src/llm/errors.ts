/** Errors the planner raises for problems a user can fix (keys, URLs, models, network). */
import { scrub } from "./trace.js";

/** Why a provider call failed, so the CLI can word the one-line message. */
export type PlannerErrorKind = "missing-key" | "auth" | "not-found" | "network" | "timeout" | "http" | "bad-response" | "replay" | "input";

/** A user-facing planner failure: the CLI prints its message on one line and exits 2. */
export class PlannerError extends Error {
  constructor(
    readonly kind: PlannerErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "PlannerError";
  }
}

/** Runs a provider call; a PlannerError it raises leaves with every secret (4+ characters) masked in its message. */
export async function maskingSecrets<T>(secrets: readonly string[], call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof PlannerError) {
      throw new PlannerError(err.kind, scrub(err.message, secrets, 4), err.status);
    }
    throw err;
  }
}
