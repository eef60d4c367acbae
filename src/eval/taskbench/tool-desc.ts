/**
 * TaskBench's `tool_desc.json` (a domain's tool list) and how its tools map onto the
 * planspec catalogue: the risk of each tool and the step kind of a step that calls it.
 */
import type { JsonValue, Risk, StepKind } from "../../ir.js";

/** One TaskBench tool: `{ id, desc, input-type[], output-type[] }`. */
export interface ToolDescEntry {
  id: string;
  desc: string;
  inputTypes: string[];
  outputTypes: string[];
}

/** The tools of one TaskBench domain, by name. */
export type ToolDesc = ReadonlyMap<string, ToolDescEntry>;

/** A catalogue entry in the DSL's JSON form (`tools: { name: ... }`). */
export interface DslToolEntry {
  risk: Risk;
  description?: string;
  input_schema?: { [key: string]: JsonValue };
  /** TaskBench `input-type`, by argument position: what wiring-type-mismatch checks. */
  input_types?: string[];
  /** TaskBench `output-type`. */
  output_types?: string[];
}

export type ToolDescResult = { ok: true; tools: ToolDesc } | { ok: false; reason: string };

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/**
 * Reads a parsed `tool_desc.json`: `{ nodes: [...] }` as TaskBench ships it, or a bare list.
 * Entries of other domains (dailylifeapis' `parameters`) keep their id and description.
 */
export function parseToolDesc(data: unknown): ToolDescResult {
  const list =
    Array.isArray(data) ? data
    : data && typeof data === "object" && Array.isArray((data as { nodes?: unknown }).nodes) ?
      (data as { nodes: unknown[] }).nodes
    : undefined;
  if (!list) return { ok: false, reason: 'expected { "nodes": [ { "id", "desc", ... } ] }' };
  const tools = new Map<string, ToolDescEntry>();
  for (const [i, raw] of list.entries()) {
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { ok: false, reason: `nodes[${i}] is not an object` };
    const node = raw as Record<string, unknown>;
    if (typeof node.id !== "string" || node.id.trim() === "") return { ok: false, reason: `nodes[${i}] has no "id"` };
    if (tools.has(node.id)) return { ok: false, reason: `tool "${node.id}" is listed twice` };
    tools.set(node.id, {
      id: node.id,
      desc: typeof node.desc === "string" ? node.desc : "",
      inputTypes: stringList(node["input-type"]),
      outputTypes: stringList(node["output-type"]),
    });
  }
  if (tools.size === 0) return { ok: false, reason: "it lists no tools" };
  return { ok: true, tools };
}

/**
 * The catalogue risk of a tool. Every multimedia tool computes a value (a caption, an
 * edited image, a transcript) and hands it to the next step: none overwrites state that
 * existed before the plan, publishes or sends anything. So all 40 are `read`. (Labelling
 * the 30 media producers `write` made `write-without-evidence` fire on 73 % of the corpus
 * for plans that merely generate a picture from a prompt: noise, not a planner failure.)
 */
export function toolRisk(_tool: ToolDescEntry): Risk {
  return "read";
}

/**
 * The step kind of a step calling this tool: `search` for the search tools, `read` for
 * tools that fetch from a URL, `analyze` for the rest — generation, transformation and
 * text processing all compute a new value from their inputs (see `toolRisk`).
 */
export function stepKind(tool: ToolDescEntry | undefined): StepKind {
  if (!tool) return "analyze";
  if (/\bsearch\b/i.test(tool.id) || /^(searches|performs\b.*\bsearch)\b/i.test(tool.desc)) return "search";
  if (/^downloads\b/i.test(tool.desc) || tool.inputTypes.some((t) => t.toLowerCase() === "url")) return "read";
  return "analyze";
}

/**
 * The DSL catalogue entry of a tool. `input_types`/`output_types` carry TaskBench's
 * resource types; `input_schema` records the arity they imply: `with.args` holds exactly
 * one argument per input type.
 */
export function toolEntry(tool: ToolDescEntry): DslToolEntry {
  const entry: DslToolEntry = { risk: toolRisk(tool) };
  if (tool.desc) entry.description = tool.desc;
  if (tool.inputTypes.length > 0) entry.input_types = [...tool.inputTypes];
  if (tool.outputTypes.length > 0) entry.output_types = [...tool.outputTypes];
  if (tool.inputTypes.length > 0) {
    entry.input_schema = {
      type: "object",
      required: ["args"],
      properties: {
        args: {
          type: "array",
          minItems: tool.inputTypes.length,
          maxItems: tool.inputTypes.length,
          description: `positional inputs: ${tool.inputTypes.join(", ")}`,
        },
      },
    };
  }
  return entry;
}
