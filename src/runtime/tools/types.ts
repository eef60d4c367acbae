/** The tool contract (SPEC §5): what built-ins and user modules implement. */
import type { Risk } from "../../ir.js";

export interface ToolContext {
  /**
   * Fires on the step's timeout, the end of the run, and a lost lease. Reading it checks
   * the lease's clock, so `ctx.signal.throwIfAborted()` right before a side effect is exact.
   */
  readonly signal: AbortSignal;
  runId: string;
  stepId: string;
  attempt: number;
  /** Absolute path of the workspace fs tools are confined to. */
  workspace: string;
  idempotencyKey?: string;
  /**
   * The run's lease generation when a PostgreSQL worker runs it (undefined in a run
   * directory): it grows with every takeover, so a service that remembers the highest
   * token it saw can refuse the calls of a worker that lost the run.
   */
  fencingToken?: number;
  /** The step's output limit in bytes: a tool that reads data (a file, a response body) stops past it. */
  maxOutputBytes?: number;
  /**
   * Real paths of directories inside the workspace that hold run records (the run's own
   * directory, the runs root), and of the run's tool modules: the fs tools refuse them
   * like a path outside.
   */
  guarded?: readonly string[];
  /**
   * The environment for a program the tool starts: the session's without the credentials
   * the plan does not list in `secrets:` (secrets.ts `programEnv`).
   */
  env?: Readonly<Record<string, string>>;
  /** Calls another tool through the gateway (subject to the step's allowed tools and risk). */
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
}

export interface ToolImpl {
  risk: Risk;
  description?: string;
  run(args: Record<string, unknown>, ctx: ToolContext): unknown;
}

/** A tool failure caused by the arguments or the world, reported on the step. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}
