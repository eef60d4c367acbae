/**
 * The plan IR (SPEC §2): what the compiler and the planner produce and what every
 * consumer reads. This module imports nothing of ours.
 */

export const IR_VERSION = 1 as const;

export const STEP_KINDS = [
  "read",
  "search",
  "analyze",
  "decide",
  "verify",
  "write",
  "external",
  "approval",
  "summarize",
  "phase",
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export const RISKS = ["read", "write", "external"] as const;
export type Risk = (typeof RISKS)[number];

/** `read` < `write` < `external`. */
export function riskRank(r: Risk): number {
  return r === "read" ? 0 : r === "write" ? 1 : 2;
}

export function maxRisk(a: Risk, b: Risk): Risk {
  return riskRank(a) >= riskRank(b) ? a : b;
}

export const COMPLEXITIES = ["simple", "moderate", "complex"] as const;
export type Complexity = (typeof COMPLEXITIES)[number];

/** Where a node or value came from; offsets are `[start, end)` into `file`. */
export interface Span {
  file: string;
  start: number;
  end: number;
  line: number;
  col: number;
}

/** A whole-string expression: `"${{ inputs.x }}"` compiles to `{ "$expr": "inputs.x" }`. */
export interface ExprValue {
  $expr: string;
}

/** An interpolated string: `"a-${{ x }}-b"` compiles to `{ "$template": ["a-", { "$expr": "x" }, "-b"] }`. */
export interface TemplateValue {
  $template: Array<string | ExprValue>;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A `with` argument: JSON where strings holding `${{ }}` became expression values. */
export type Value =
  | null
  | boolean
  | number
  | string
  | ExprValue
  | TemplateValue
  | Value[]
  | { [key: string]: Value };

export function isExprValue(v: unknown): v is ExprValue {
  return typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as ExprValue).$expr === "string";
}

export function isTemplateValue(v: unknown): v is TemplateValue {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Array.isArray((v as TemplateValue).$template);
}

export interface ToolSpec {
  risk: Risk;
  description?: string;
  inputSchema?: JsonValue;
  outputSchema?: JsonValue;
  /** Resource types taken, by argument position (TaskBench `input-type`). */
  inputTypes?: string[];
  /** Resource types returned (TaskBench `output-type`). */
  outputTypes?: string[];
  /** MCP-style behaviour hints. */
  annotations?: ToolAnnotations;
}

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** An MCP server a plan's tools come from (`mcp:` in the DSL); relative paths are resolved at run time. */
export type McpServerSpec =
  | { transport: "stdio"; command: string; args: string[]; env?: { [name: string]: string }; cwd?: string }
  | { transport: "http"; url: string; headers?: { [name: string]: string } };

export type InputType = "string" | "number" | "integer" | "boolean" | "array" | "object";

export interface InputSpec {
  type: InputType;
  description?: string;
  default?: JsonValue;
  /** True when the input has no default: a run must supply it. */
  required: boolean;
  /** A secret: scrubbed from everything the run writes, kept only as a fingerprint, given again on resume. */
  secret?: boolean;
  /** An environment variable the value is read from when no `--input` gives it. */
  env?: string;
}

export interface RetryPolicy {
  /** Absent when the plan wrote a retry without a bound (an `unbounded-loop` finding). */
  maxAttempts?: number;
  backoff: "none" | "fixed" | "exponential";
  initialDelayMs: number;
  maxDelayMs: number;
}

/** One success criterion; exactly one of the three keys is set. */
export interface SuccessCriterion {
  /** Expression source (without `${{ }}`) over `output`, `steps`, `inputs`, `run`. */
  check?: string;
  /** References such as `steps.read_csv` or `steps.read_csv.output.rows`. */
  evidence?: string[];
  /** A semantic criterion decided by a judge tool or a person. */
  judge?: string;
}

export interface RepeatSpec {
  until: string;
  maxAttempts?: number;
  /** The wait between attempts (a poll interval). */
  delayMs?: number;
}

export interface ForEachSpec {
  items: string;
  maxItems?: number;
  concurrency?: number;
}

export interface ApprovalSpec {
  required: boolean;
  approvers: string[];
  timeoutMs?: number;
}

export interface PhaseSpec {
  /** `planner` or the name of a template. */
  expand: string;
  maxSteps?: number;
}

export interface Hypothesis {
  statement: string;
  verifyBy: string[];
}

export interface IRNode {
  id: string;
  kind: StepKind;
  goal: string;
  tool?: string;
  /** `tool` plus `allowed_tools`, de-duplicated, in source order. */
  allowedTools: string[];
  risk: Risk;
  riskInferred: boolean;
  /** Direct `needs`, in source order. */
  dependsOn: string[];
  /**
   * Steps whose outputs this step reads: the steps its expressions and evidence name,
   * or, when it names none, its direct `needs` (their outputs are its context).
   */
  consumes: string[];
  with?: { [key: string]: Value };
  output?: string;
  outputSchema?: JsonValue;
  success: SuccessCriterion[];
  when?: string;
  retry?: RetryPolicy;
  timeoutMs?: number;
  repeat?: RepeatSpec;
  forEach?: ForEachSpec;
  approval?: ApprovalSpec;
  /** A string, or a template value evaluated before the call. */
  idempotencyKey?: string | ExprValue | TemplateValue;
  assumes: string[];
  phase?: PhaseSpec;
  /** Set on steps expanded from a template: the template name and the using step's id. */
  template?: { name: string; instance: string };
  span: Span;
}

export interface PlanLimits {
  runTimeoutMs?: number;
  maxToolCalls?: number;
  maxSteps?: number;
}

export interface PlanIR {
  irVersion: typeof IR_VERSION;
  name: string;
  goal: string;
  deliverables: string[];
  complexity?: Complexity;
  source: { file: string; sha256: string };
  inputs: { [name: string]: InputSpec };
  /** Names of environment variables the plan reads as `secrets.NAME` (absent when none). */
  secrets?: string[];
  tools: { [name: string]: ToolSpec };
  /** MCP servers by name; their tools are `<name>.<tool>`. Absent when the plan declares none. */
  mcp?: { [name: string]: McpServerSpec };
  /** Empty when the plan sets no run-level limits (an `unbounded-loop` finding). */
  limits: PlanLimits;
  hypotheses: { [id: string]: Hypothesis };
  nodes: IRNode[];
  /** A topological order of node ids. */
  order: string[];
  /** sha256 (hex) of the canonical IR without spans, source and planHash. */
  planHash: string;
}
