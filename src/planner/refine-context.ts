/**
 * What a refinement prompt may show: the step being expanded, the plan around it, and
 * only the artifacts that step references — cut to a size a prompt can carry.
 */
import type { IRNode, PlanIR } from "../ir.js";
import { catalogEntries } from "./catalog.js";

const MAX_ARTIFACT_CHARS = 4000;

/** The DSL type name of a JSON value, as template params declare it. */
export function jsonTypeOf(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (v === null || v === undefined) return "object";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v === "object" ? "object" : typeof v;
}

function excerpt(v: unknown): string {
  const s = JSON.stringify(v);
  if (s === undefined) return "null";
  return s.length > MAX_ARTIFACT_CHARS ? `${s.slice(0, MAX_ARTIFACT_CHARS)}… (${s.length} characters, cut)` : s;
}

export interface RefineSubject {
  plan: PlanIR;
  node: IRNode;
  /** "phase": expand a phase; "failed": replace a step that failed. */
  mode: "phase" | "failed";
  artifacts: ReadonlyMap<string, unknown>;
  params: Record<string, { type: string; description: string }>;
  /** The failure message, for replanning. */
  lastError?: string;
  /** Steps already done, for context. */
  done: string[];
}

/** The user message of a refinement request. */
export function refineMessage(s: RefineSubject): string {
  const { plan, node } = s;
  const bound = node.phase?.maxSteps;
  const lines = [
    `Plan "${plan.name}" — goal: ${plan.goal}`,
    `Deliverables: ${plan.deliverables.join(", ") || "(none)"}`,
    `Steps done so far: ${s.done.join(", ") || "(none)"}`,
    "",
    s.mode === "phase"
      ? `Expand the phase step "${node.id}" (goal: ${node.goal}) into concrete sub-steps${bound ? `, at most ${bound}` : ""}.`
      : `Step "${node.id}" (kind ${node.kind}, goal: ${node.goal}${node.tool ? `, tool ${node.tool}` : ""}) failed: ${s.lastError ?? "no message recorded"}.\nReplace it with sub-steps that reach the same goal another way.`,
    node.approval?.required ? `The step had an approval gate (approvers: ${node.approval.approvers.join(", ") || "none named"}): put approval: { required: true, approvers: [...] } on the first sub-step that writes or acts outside.` : "",
    node.output ? `The last sub-step (the sink) must have output "${node.output}", which later steps use.` : "",
    "Answer with { \"steps\": { <local id>: <step> } }. Sub-steps may need each other by local id. They cannot see the plan's other steps or inputs directly: they read the context only through the parameters below, as ${{ params.<name> }}.",
    "",
    "Parameters (the artifacts this step references, as recorded in the run):",
  ];
  const names = Object.keys(s.params);
  if (!names.length) lines.push("(none)");
  for (const name of names) {
    const value = s.artifacts.has(name) ? excerpt(s.artifacts.get(name)) : "(not recorded yet)";
    lines.push(`- params.${name} (${s.params[name]!.type}): ${s.params[name]!.description}\n  value: ${value}`);
  }
  return lines.filter((l, i) => l !== "" || i > 0).join("\n");
}

/** The system prompt of a refinement: the catalogue of the run's plan and the rules. */
export function refineSystem(plan: PlanIR, basePrompt: (tools: string) => string): string {
  const tools = catalogEntries({ file: "", tools: plan.tools as Record<string, unknown> })
    .map((t) => `- ${t.name} (risk: ${t.risk})${t.description ? `: ${t.description}` : ""}`)
    .join("\n");
  return basePrompt(tools);
}
