import { setMaxListeners } from "node:events";

const noop = (): void => undefined;

/**
 * An attempt's abort, its AbortController made only when something needs one of its own.
 *
 * A step without a timeout is aborted by the run alone, so the gateway's checks and its
 * race against a tool that ignores the signal can listen on the run's signal directly. A
 * controller of the step's own (≈ 7 µs with its run listener, a tenth of a step's
 * JavaScript) is made when the step has a timeout or runs calls side by side (`for_each`),
 * or when the tool reads `ctx.signal`: a tool's listeners then go on a signal dropped with
 * the attempt, never on the run's, which lives as long as the session.
 */
export class StepAbort {
  private controller: AbortController | undefined;
  private onRunAbort: (() => void) | undefined;
  private disposed = false;
  private running: Array<{ tool: string; settled: Promise<void> }> | undefined;

  /**
   * `inFlight`: how many calls of the step may wait on its signal at once (a `for_each`'s
   * concurrency); more than one, or `own` (a timeout will abort the step, and the calls must
   * listen on the step's signal to see it), makes the step's controller at once.
   */
  constructor(
    private readonly run: AbortSignal,
    opts: { own?: boolean; inFlight?: number } = {},
  ) {
    const inFlight = opts.inFlight ?? 1;
    if (opts.own === true || inFlight > 1) {
      // Each call in flight waits on it, and a tool reading it may add one of its own: no leak.
      setMaxListeners(Math.max(10, 2 * inFlight + 1), this.signal);
    }
  }

  /** The step's own signal, aborted by the run's and by `abort`; made on first use. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const c = (this.controller = new AbortController());
      const run = this.run;
      if (run.aborted) c.abort(run.reason);
      // A tool reading it after its attempt ended (a task left running) gets a signal no run links to.
      else if (!this.disposed) {
        this.onRunAbort = () => c.abort(run.reason);
        run.addEventListener("abort", this.onRunAbort, { once: true });
      }
    }
    return this.controller.signal;
  }

  /** What aborts the attempt now: its own signal once made, else the run's (the only other cause). */
  private get source(): AbortSignal {
    return this.controller?.signal ?? this.run;
  }

  /** Aborts the step (its timeout). */
  abort(reason: unknown): void {
    void this.signal;
    this.controller!.abort(reason);
  }

  get aborted(): boolean {
    return this.source.aborted;
  }

  get reason(): unknown {
    return this.source.reason;
  }

  throwIfAborted(): void {
    this.source.throwIfAborted();
  }

  /**
   * Calls `listener` once with the reason when the attempt is aborted; returns what removes
   * it. The reason is the signal's it listens on: a run's abort reaches it before the step's
   * own signal (made after it began listening) has taken that reason over.
   */
  onAbort(listener: (reason: unknown) => void): () => void {
    const s = this.source;
    const once = () => listener(s.reason);
    s.addEventListener("abort", once, { once: true });
    return () => s.removeEventListener("abort", once);
  }

  /**
   * Notes a call of `tool` still running when the attempt was aborted: the tool does not heed
   * its signal (JavaScript cannot be stopped from outside).
   */
  left(tool: string, call: Promise<unknown>): void {
    (this.running ??= []).push({ tool, settled: call.then(noop, noop) });
  }

  /** The tool of a call left running that has not settled within `ms`; undefined when all have. */
  async stillRunning(ms: number): Promise<string | undefined> {
    const calls = this.running ?? [];
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((res) => (timer = setTimeout(() => res("late"), ms)));
    try {
      for (const c of calls) if ((await Promise.race([c.settled, late])) === "late") return c.tool;
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The attempt is over: its link to the run's signal goes. */
  dispose(): void {
    this.disposed = true;
    if (this.onRunAbort) this.run.removeEventListener("abort", this.onRunAbort);
    this.onRunAbort = undefined;
  }
}
