/** The planner's public surface. */
export { PlannerError, type PlannerErrorKind } from "../llm/errors.js";
export {
  makeProvider,
  DEFAULT_MODELS,
  KEY_VARS,
  PROVIDERS,
  type Provider,
  type ProviderName,
  type ProviderOptions,
  type Completion,
  type ChatRequest,
  type ChatMessage,
} from "../llm/provider.js";
export { loadCatalog, loadTemplate, type Catalog, type TemplateInfo } from "./catalog.js";
export { planWithRepairs, type LoopResult, type LoopOptions } from "./loop.js";
export { planGoal, templatesFromTrace, type PlanGoalResult } from "./plan.js";
export { scoreCandidate, rankScores, scoreTable, estimateToolCalls, type Score } from "./score.js";
export { ReplayProvider, recordedCompletions, traceStart } from "./replay.js";
export { FileTrace, MemoryTrace, readTrace, redactHeaders, type TraceEvent, type TraceSink } from "../llm/trace.js";
export { planRequestSchema } from "./schema.js";
export { extractJson, readAnswer } from "./extract.js";
export type { HttpPolicy } from "../llm/http.js";
