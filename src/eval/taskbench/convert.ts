/**
 * TaskBench record -> planspec plan document (the DSL's JSON form): one step per task
 * node, `needs` rebuilt from `<node-j>` references. Conversion is total: a malformed plan
 * is written as the model meant it and noted, so the compiler reports it with a position.
 */
import type { JsonValue, StepKind } from "../../ir.js";
import { IMPORT_KEY, type ImportFeature, importMarkJson } from "../../lint/import-mark.js";
import type { TaskBenchRecord } from "./record.js";
import { type DslToolEntry, type ToolDesc, stepKind, toolEntry } from "./tool-desc.js";

/** What was odd about a converted plan; the compiler turns most of these into errors. */
export type NoteKind =
  /** A task name not in tool_desc: left out of the catalogue, so the compiler reports PS114. */
  | "unknown-tool"
  /** `<node-i>` inside node i: kept as `needs: [node_i]`, so the compiler reports PS112. */
  | "self-reference"
  /** `<node-j>` with no node j: kept as a `needs` on a missing step, so the compiler reports PS111. */
  | "dangling-reference"
  /** `arguments` is not a list: kept as `with.args` as is. */
  | "non-list-arguments"
  /** A node without `arguments`: the step has no `with`. */
  | "missing-arguments"
  /** `<node-j>` inside a longer string: it becomes an interpolated `${{ }}` string. */
  | "embedded-reference"
  /** `task_steps` and `task_nodes` differ in length, so step goals may not match their nodes. */
  | "step-count-mismatch"
  /** An argument holds `${{`, which planspec reads as an expression. */
  | "expression-in-argument";

export interface ImportNote {
  kind: NoteKind;
  /** The 0-based task node, for node-level notes. */
  node?: number;
  message: string;
}

export interface DslStep {
  kind: StepKind;
  goal: string;
  tool: string;
  needs?: string[];
  with?: { args: JsonValue };
  output: string;
}

/**
 * What a TaskBench plan cannot say, so the importer does not invent it: success criteria,
 * deliverables (the user request names them in prose) and a complexity (the only measure
 * would be the plan's own size, which would make `over-planning` unable to fire).
 */
export const TASKBENCH_CANNOT_EXPRESS: readonly ImportFeature[] = ["success", "deliverables"];

/** A plan document in the DSL's JSON form, as the importer writes it. */
export interface PlanDoc {
  planspec: 1;
  name: string;
  goal: string;
  [IMPORT_KEY]: { format: string; cannot_express: ImportFeature[] };
  tools: { [name: string]: DslToolEntry };
  limits: { max_tool_calls: number };
  steps: { [id: string]: DslStep };
}

const NODE_REF = /<node-(\d+)>/g;

const stepId = (j: string | number): string => `node_${j}`;
const outputName = (j: number): string => `node_${j}_out`;

/**
 * The run-level bound: one call per node, a retry for each, and a little slack. It is
 * there so a run cannot loop forever and so the plan is not flagged for having no limits.
 */
export function maxToolCallsFor(nodeCount: number): number {
  return 2 * nodeCount + 4;
}

/** `Step 1: Extract ...` -> `Extract ...`: the numbering repeats the step order. */
function stepGoal(text: unknown, tool: string): string {
  const goal = typeof text === "string" ? text.replace(/^\s*step\s*\d+\s*[:.)-]\s*/i, "").trim() : "";
  return goal === "" ? `Run ${tool}` : goal;
}

interface ArgScan {
  /** Referenced node indices as digit strings without leading zeros, in order of appearance. */
  refs: string[];
  embedded: boolean;
  expression: boolean;
}

/** Rewrites `<node-j>` in every string of an argument value into a step-output expression. */
function convertValue(v: unknown, scan: ArgScan): JsonValue {
  if (typeof v === "string") {
    if (v.includes("${{")) scan.expression = true;
    const whole = /^<node-(\d+)>$/.test(v);
    const out = v.replace(NODE_REF, (_m, digits: string) => {
      const j = digits.replace(/^0+(?=\d)/, "");
      scan.refs.push(j);
      if (!whole) scan.embedded = true;
      return `\${{ steps.${stepId(j)}.output }}`;
    });
    return out;
  }
  if (Array.isArray(v)) return v.map((x) => convertValue(x, scan));
  if (v !== null && typeof v === "object") {
    // No prototype, so keys such as "__proto__" or "constructor" stay plain data.
    const out: { [key: string]: JsonValue } = Object.create(null);
    for (const [k, x] of Object.entries(v)) out[k] = convertValue(x, scan);
    return out;
  }
  if (typeof v === "number" || typeof v === "boolean" || v === null) return v;
  return null;
}

/** Converts a TaskBench record into a plan document plus notes on what was malformed. */
export function toPlanDoc(record: TaskBenchRecord, toolDesc: ToolDesc): { doc: PlanDoc; notes: ImportNote[] } {
  const notes: ImportNote[] = [];
  const n = record.nodes.length;
  // Tool names are free text from the model: no prototype to collide with.
  const tools: { [name: string]: DslToolEntry } = Object.create(null);
  const steps: { [id: string]: DslStep } = {};

  if (record.taskSteps.length > 0 && record.taskSteps.length !== n) {
    notes.push({
      kind: "step-count-mismatch",
      message: `${record.taskSteps.length} task_steps for ${n} task_nodes; step goals follow task_steps by position`,
    });
  }

  for (const [i, node] of record.nodes.entries()) {
    const known = toolDesc.get(node.task);
    if (known) {
      if (!Object.hasOwn(tools, node.task)) tools[node.task] = toolEntry(known);
    }
    else notes.push({ kind: "unknown-tool", node: i, message: `node ${i} calls "${node.task}", which is not in tool_desc` });

    const scan: ArgScan = { refs: [], embedded: false, expression: false };
    let args: JsonValue | undefined;
    if (node.arguments === undefined) {
      notes.push({ kind: "missing-arguments", node: i, message: `node ${i} has no arguments` });
    } else {
      args = convertValue(node.arguments, scan);
      if (!Array.isArray(node.arguments)) {
        notes.push({ kind: "non-list-arguments", node: i, message: `node ${i}: arguments is not a list; kept as with.args` });
      }
    }

    const needs: string[] = [];
    for (const j of new Set(scan.refs)) {
      const index = j.length <= 9 ? Number(j) : Infinity;
      if (index === i) {
        notes.push({ kind: "self-reference", node: i, message: `node ${i} uses its own output <node-${j}>` });
      } else if (index >= n) {
        notes.push({ kind: "dangling-reference", node: i, message: `node ${i} uses <node-${j}>, but the plan has ${n} nodes` });
      }
      needs.push(stepId(j));
    }
    if (scan.embedded) {
      notes.push({ kind: "embedded-reference", node: i, message: `node ${i} embeds a <node-j> reference in a longer string` });
    }
    if (scan.expression) {
      notes.push({ kind: "expression-in-argument", node: i, message: `node ${i} has an argument containing "\${{"` });
    }

    steps[stepId(i)] = {
      kind: stepKind(known),
      goal: stepGoal(record.taskSteps[i], node.task),
      tool: node.task,
      ...(needs.length > 0 ? { needs } : {}),
      ...(args !== undefined ? { with: { args } } : {}),
      output: outputName(i),
    };
  }

  const slug = record.id.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  const doc: PlanDoc = {
    planspec: 1,
    name: slug === "" ? "taskbench" : `taskbench-${slug}`,
    goal: record.userRequest,
    [IMPORT_KEY]: importMarkJson("taskbench", TASKBENCH_CANNOT_EXPRESS),
    tools,
    limits: { max_tool_calls: maxToolCallsFor(n) },
    steps,
  };
  return { doc, notes };
}
