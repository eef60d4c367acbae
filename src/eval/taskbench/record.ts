/**
 * One line of a TaskBench predictions file, checked for the shape the importer needs.
 * Anything without a usable plan (bad JSON, no result, no nodes) is rejected with a
 * reason; everything else, however malformed as a plan, is kept for the compiler to judge.
 */

/** One task node as the model wrote it; `arguments` is kept as is (it may not be a list). */
export interface TaskBenchNode {
  task: string;
  /** `undefined` when the node has no `arguments` key. */
  arguments: unknown;
}

/** A TaskBench prediction: `{ id, user_request, result: { task_steps, task_nodes } }`. */
export interface TaskBenchRecord {
  id: string;
  userRequest: string;
  /** `result.task_steps`; empty when absent or not a list. Entries may be of any type. */
  taskSteps: unknown[];
  nodes: TaskBenchNode[];
  /** `result.task_links` as written (temporal domains such as dailylifeapis link nodes there); undefined when absent. */
  taskLinks?: unknown;
}

export type ParsedLine =
  | { ok: true; record: TaskBenchRecord }
  | { ok: false; reason: string; /** The id, when the line got far enough to have one. */ id?: string };

/** Ids become file names (`<id>.plan.json`), so they must not hold path syntax. */
const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** Parses one JSON line of a predictions file into a record, or says why it cannot be imported. */
export function parseTaskBenchLine(line: string): ParsedLine {
  if (line.trim() === "") return { ok: false, reason: "empty line" };
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch (err) {
    return { ok: false, reason: `not valid JSON (${(err as Error).message})` };
  }
  if (!isObject(data)) return { ok: false, reason: `expected a JSON object, got ${describe(data)}` };

  const rawId = data.id;
  if (rawId === undefined || rawId === null || rawId === "") return { ok: false, reason: 'missing "id"' };
  if (typeof rawId !== "string" && typeof rawId !== "number") {
    return { ok: false, reason: `"id" must be a string, got ${describe(rawId)}` };
  }
  const id = String(rawId);
  if (!SAFE_ID.test(id)) return { ok: false, id, reason: `id "${id}" cannot be used as a file name` };

  const fail = (reason: string): ParsedLine => ({ ok: false, id, reason });
  const request = data.user_request;
  if (typeof request !== "string" || request.trim() === "") return fail('missing "user_request"');

  const result = data.result;
  if (result === undefined || result === null) return fail('missing "result"');
  // TaskBench stores the raw model text when it could not parse the answer as JSON.
  if (!isObject(result)) return fail(`"result" is ${describe(result)}, not a plan object`);
  const rawNodes = result.task_nodes;
  if (rawNodes === undefined || rawNodes === null) return fail('"result" has no "task_nodes"');
  if (!Array.isArray(rawNodes)) return fail(`"task_nodes" is ${describe(rawNodes)}, not a list`);
  if (rawNodes.length === 0) return fail('"task_nodes" is empty');

  const nodes: TaskBenchNode[] = [];
  for (const [i, raw] of rawNodes.entries()) {
    if (!isObject(raw)) return fail(`task_nodes[${i}] is ${describe(raw)}, not an object`);
    if (typeof raw.task !== "string" || raw.task.trim() === "") return fail(`task_nodes[${i}] has no "task" name`);
    nodes.push({ task: raw.task, arguments: raw.arguments });
  }
  const taskSteps = Array.isArray(result.task_steps) ? (result.task_steps as unknown[]) : [];
  return { ok: true, record: { id, userRequest: request, taskSteps, nodes, ...(result.task_links !== undefined ? { taskLinks: result.task_links } : {}) } };
}
