/**
 * The tool gateway (sandbox): every tool call of a step goes through `call`, which
 * refuses a tool outside the step's `tool`/`allowed_tools` or above the step's risk
 * (recorded as a `violation` event, never executed), enforces `max_tool_calls`, and logs
 * the call with argument fields named like secrets hidden (secret values are scrubbed
 * where events are written: redacting-store.ts).
 */
import { riskRank, type IRNode, type PlanIR } from "../ir.js";
import { DEFAULT_MAX_OUTPUT_BYTES } from "./limits.js";
import { redact } from "./redact.js";
import type { Lease, RunState } from "./store.js";
import { effectiveRisk } from "./tools/registry.js";
import type { ToolContext, ToolImpl } from "./tools/types.js";
import { PathEscapeError } from "./tools/workspace.js";
import type { StepAbort } from "./step-abort.js";

/** A refused call: fails the step without retry. */
export class ViolationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ViolationError";
  }
}

/** A run-level limit was hit: the run terminates. */
export class LimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LimitError";
  }
}

export interface CallContext {
  node: IRNode;
  attempt: number;
  /** The attempt's abort: the tool's `ctx.signal` is its own signal, made when the tool reads it. */
  abort: StepAbort;
  idempotencyKey?: string;
  /** The lease the session writes under: checked before every call, its token passed on. */
  lease?: Lease;
  /** Writes the events held back so far: a tool's call event is on file before the tool runs (however long, or if it kills the process). */
  flushEvents?: () => void;
}

export class Gateway {
  constructor(
    private readonly plan: PlanIR,
    private readonly registry: ReadonlyMap<string, ToolImpl>,
    private readonly emit: (type: string, data: Record<string, unknown>) => void,
    private readonly state: RunState,
    private readonly workspace: string,
    private readonly maxOutputBytes = DEFAULT_MAX_OUTPUT_BYTES,
    /** What programs the tools start inherit (secrets.ts `programEnv`). */
    private readonly programEnv?: Readonly<Record<string, string>>,
    /** Run records inside the workspace the fs tools refuse (ToolContext `guarded`). */
    private readonly guarded?: readonly string[],
  ) {}

  has(name: string): boolean {
    return this.registry.has(name);
  }

  private violation(node: IRNode, tool: string, reason: string): never {
    this.emit("violation", { node: node.id, tool, reason });
    throw new ViolationError(`step "${node.id}" may not call tool "${tool}": ${reason}`);
  }

  /**
   * Calls `tool` for a step after the sandbox checks. Every caller goes through them,
   * the runtime's own `judge` included: a tool module can register any name.
   */
  async call(tool: string, args: Record<string, unknown>, cc: CallContext): Promise<unknown> {
    const { node } = cc;
    cc.lease?.check();
    const impl = this.registry.get(tool);
    if (!node.allowedTools.includes(tool)) {
      this.violation(node, tool, `not in its allowed tools [${node.allowedTools.join(", ")}]`);
    }
    if (!impl) return this.violation(node, tool, "no such tool");
    const risk = effectiveRisk(this.plan, tool, impl);
    if (riskRank(risk) > riskRank(node.risk)) {
      this.violation(node, tool, `the tool's risk ${risk} is above the step's risk ${node.risk}`);
    }
    const max = this.plan.limits.maxToolCalls;
    if (max !== undefined && this.state.budget.toolCalls >= max) {
      this.emit("limit", { node: node.id, limit: "max_tool_calls", value: max });
      throw new LimitError(`max_tool_calls (${max}) reached`);
    }
    this.state.budget.toolCalls++;
    cc.abort.throwIfAborted();
    const lease = cc.lease;
    const ctx: ToolContext = {
      // Reading the signal consults the lease's clock: a tool that checks it right before a
      // side effect sees a lease lost while the process was frozen, before any timer ran.
      get signal() {
        lease?.isLost();
        return cc.abort.signal;
      },
      runId: this.state.runId,
      stepId: node.id,
      attempt: cc.attempt,
      workspace: this.workspace,
      idempotencyKey: cc.idempotencyKey,
      fencingToken: cc.lease?.token,
      maxOutputBytes: this.maxOutputBytes,
      ...(this.programEnv ? { env: this.programEnv } : {}),
      ...(this.guarded ? { guarded: this.guarded } : {}),
      callTool: (name, a) => this.call(name, a, cc),
    };
    const started = performance.now();
    this.emit("tool.call", { node: node.id, tool, attempt: cc.attempt, args: redact(args, []) });
    cc.flushEvents?.();
    try {
      const result = await abortable(tool, Promise.resolve().then(() => impl.run(args, ctx)), cc.abort);
      this.emit("tool.result", { node: node.id, tool, ok: true, ms: Math.round(performance.now() - started) });
      return result;
    } catch (err) {
      const error = err instanceof PathEscapeError ? err.message : errorMessage(err);
      if (err instanceof PathEscapeError) this.emit("violation", { node: node.id, tool, reason: err.message });
      this.emit("tool.result", {
        node: node.id,
        tool,
        ok: false,
        ms: Math.round(performance.now() - started),
        error,
      });
      if (err instanceof PathEscapeError) throw new ViolationError(`step "${node.id}": ${err.message}`);
      throw err;
    }
  }
}

/** The message of anything thrown. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Settles with `p`, or rejects as soon as the attempt is aborted even if the tool ignores it
 * (the call is then noted as left running: `StepAbort.left`).
 */
function abortable<T>(tool: string, p: Promise<T>, abort: StepAbort): Promise<T> {
  if (abort.aborted) return Promise.reject(abort.reason);
  return new Promise<T>((resolve, reject) => {
    const off = abort.onAbort((reason) => {
      abort.left(tool, p);
      reject(reason);
    });
    p.then(
      (v) => {
        off();
        resolve(v);
      },
      (e) => {
        off();
        reject(e);
      },
    );
  });
}
