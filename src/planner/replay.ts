/**
 * Replay: a provider that answers from a recorded trace, in order, with no network,
 * so a planner run can be re-scored deterministically.
 */
import { PlannerError } from "../llm/errors.js";
import type { ChatRequest, Completion, Provider } from "../llm/provider.js";
import type { TraceEvent, TraceSink } from "../llm/trace.js";

/** The answers of a trace: its `completion` events, in order. */
export function recordedCompletions(events: readonly TraceEvent[]): Completion[] {
  return events
    .filter((e) => e.type === "response" && typeof e.completion === "object" && e.completion !== null)
    .map((e) => e.completion as Completion);
}

/** The `start` event of a trace: the goal, the catalogue and the options it ran with. */
export function traceStart(events: readonly TraceEvent[]): TraceEvent | undefined {
  return events.find((e) => e.type === "start");
}

/** Answers each request with the next recorded completion. */
export class ReplayProvider implements Provider {
  readonly name: string;
  readonly model: string;
  private next = 0;

  constructor(
    private readonly answers: readonly Completion[],
    start?: TraceEvent,
  ) {
    this.name = typeof start?.provider === "string" ? start.provider : "replay";
    this.model = typeof start?.model === "string" ? start.model : "replay";
  }

  async complete(req: ChatRequest, trace: TraceSink): Promise<Completion> {
    const answer = this.answers[this.next++];
    if (!answer) throw new PlannerError("replay", `the trace has no recorded answer left for candidate ${(req.candidate ?? 0) + 1}, round ${(req.round ?? 0) + 1}`);
    trace.record({ type: "request", candidate: req.candidate, round: req.round, provider: "replay", messages: req.messages.length });
    return { ...answer, mode: "replay" };
  }
}
