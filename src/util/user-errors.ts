/**
 * The one list of errors a user can cause — a bad input, a tool that does not load, a run
 * held by another process or lease, a broken or edited run, a store that cannot be used,
 * a refused revision, decision or plan, lint that cannot start. Commands print them as one
 * line (exit 2); anything else reaching the top is a bug. By class name, so this module
 * stays below every stage that defines one of them.
 */
export const USER_ERRORS: ReadonlySet<string> = new Set([
  "InputError",
  "ToolSetupError",
  "LockHeldError",
  "StateError",
  "ReviseError",
  "DecisionError",
  "StoreError",
  "LeaseHeldError",
  "LeaseLostError",
  "IntegrityError",
  "GateError",
  "LintFilesError",
]);

/** True for an error a user caused (see `USER_ERRORS`): its message is meant for them. */
export function isUserError(err: unknown): err is Error {
  return err instanceof Error && USER_ERRORS.has(err.name);
}
