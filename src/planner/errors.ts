/** Errors the planner raises for problems a user can fix (keys, URLs, models, network). */

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
