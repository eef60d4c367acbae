/**
 * TaskBench's own plan metrics (node micro-F1, link binary F1, edit distance) with the
 * semantics of its `evaluate.py`, default options (resource links, tool types on, every
 * metric on), so that a published figure can be reproduced. Where evaluate.py has a quirk
 * that changes a number, it is kept and named in a comment.
 */

/** Precision, recall and F1 of one metric. */
export interface PRF {
  precision: number;
  recall: number;
  f1: number;
}

export interface TaskBenchMetrics {
  /** Micro-averaged over the tool names of tool_desc, each sample's names taken as a set. */
  node: PRF;
  /** Binary over each sample's set of (source tool, target tool) links. */
  link: PRF;
  /** 1 − mean normalised indel similarity of the tool-name sequences. */
  editDistance: number;
}

export interface TaskBenchScores {
  /** Ids present in both gold and predictions. */
  samples: number;
  /** Samples that were scored; the rest were dropped as evaluate.py drops them. */
  scored: number;
  dropped: Array<{ id: string; reason: string }>;
  /** `null` when no sample could be scored (evaluate.py prints "No supports, skip"). */
  metrics: TaskBenchMetrics | null;
}

export interface ScoreOptions {
  /**
   * evaluate.py's default metric set includes the step metrics (ROUGE, BERTScore), whose
   * preparation drops a sample without `task_steps` on either side. Default true.
   */
  requireTaskSteps?: boolean;
}

interface SampleGraph {
  /** Tool names, `_` normalised to spaces. */
  names: string[];
  /** Links as `source \u0000 target`. */
  links: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Python's `int(s)` on ASCII: optional spaces and sign, digits with single `_` between. */
function pyInt(s: string): number | undefined {
  return /^\s*[+-]?\d+(_\d+)*\s*$/.test(s) ? Number.parseInt(s.replace(/_/g, ""), 10) : undefined;
}

/** The items evaluate.py iterates for `for argument in arguments`, or undefined where Python raises. */
function iterate(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return [...v];
  if (isObject(v)) return Object.keys(v);
  return undefined;
}

/** The source node index of one argument, or undefined where evaluate.py records no link. */
function linkIndex(argument: unknown): number | undefined {
  let arg = argument;
  if (isObject(arg)) arg = Object.values(arg)[0];
  if (Array.isArray(arg)) arg = arg.every((x) => typeof x === "string") ? arg.join(" ") : undefined;
  if (typeof arg !== "string") return undefined;
  const start = arg.indexOf("<node-");
  if (start < 0) return undefined;
  // Quirks kept: only the first reference in a string counts, and it ends at the
  // string's first ">", wherever that is.
  const end = arg.indexOf(">");
  if (end < 0) return undefined;
  return pyInt(arg.slice(start + 6, Math.max(start + 6, end)));
}

/** A sample's tool names and links, or the reason evaluate.py would drop the sample. */
function sampleGraph(nodes: unknown, argsRequired: boolean): SampleGraph | string {
  if (!Array.isArray(nodes)) return "task_nodes is not a list";
  const raw: string[] = [];
  for (const node of nodes) {
    if (!isObject(node) || !("task" in node)) return "a node has no task";
    if (typeof node.task !== "string") return "a task name is not a string";
    raw.push(node.task);
  }
  const names = raw.map((n) => n.replace(/_/g, " "));
  const links: string[] = [];
  for (const [inx, node] of (nodes as Record<string, unknown>[]).entries()) {
    if (argsRequired && !("arguments" in node)) return "a node has no arguments";
    const args = iterate("arguments" in node ? node.arguments : []);
    if (!args) return "arguments are not iterable";
    for (const argument of args) {
      const j = linkIndex(argument);
      if (j === undefined || j === inx) continue;
      // Python indexing: a negative index counts from the end; past the end raises (no link).
      const source = names[j < 0 ? names.length + j : j];
      if (j < -names.length || source === undefined) continue;
      // Quirk kept: the source is the normalised name, the target the name as written.
      links.push(`${source}\u0000${raw[inx]}`);
    }
  }
  return { names, links };
}

function prf(tp: number, fp: number, fn: number): PRF {
  // sklearn's zero_division default: an undefined ratio counts as 0.
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** Normalised indel similarity of two sequences: 2·LCS / (|a| + |b|), 1 for two empty ones. */
export function indelSimilarity<T>(a: readonly T[], b: readonly T[]): number {
  if (a.length + b.length === 0) return 1;
  let prev = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const cur = [0];
    for (let j = 1; j <= b.length; j++) cur.push(x === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!));
    prev = cur;
  }
  return (2 * prev[b.length]!) / (a.length + b.length);
}

const idKey = (id: unknown): string | undefined =>
  typeof id === "string" ? `s:${id}` : typeof id === "number" ? `n:${id}` : undefined;

/**
 * Scores predictions (`{ id, result: { task_steps, task_nodes } }`) against gold records
 * (`{ id, task_steps, task_nodes }`) over the tool names of tool_desc, in its order.
 */
export function scoreTaskBench(
  gold: Iterable<unknown>,
  predictions: Iterable<unknown>,
  toolNames: readonly string[],
  options: ScoreOptions = {},
): TaskBenchScores {
  const requireSteps = options.requireTaskSteps ?? true;
  // Later records with the same id replace earlier ones, as in evaluate.py's dicts.
  const byId = (records: Iterable<unknown>) => {
    const m = new Map<string, Record<string, unknown>>();
    for (const r of records) if (isObject(r) && idKey(r.id)) m.set(idKey(r.id)!, r);
    return m;
  };
  const goldById = byId(gold);
  const predById = byId(predictions);
  // tool_desc position + 1 is evaluate.py's tool number; unknown names are all 0.
  const toolNumber = new Map(toolNames.map((n, i) => [n, i + 1]));

  const dropped: TaskBenchScores["dropped"] = [];
  let samples = 0;
  const node = { tp: 0, fp: 0, fn: 0 };
  const link = { tp: 0, fp: 0, fn: 0 };
  let similarity = 0;
  let scored = 0;
  for (const [key, g] of goldById) {
    const p = predById.get(key);
    if (!p) continue;
    samples++;
    const id = String(g.id);
    const result = p.result;
    if (requireSteps && (!isObject(result) || !("task_steps" in result) || !("task_steps" in g))) {
      dropped.push({ id, reason: "no task_steps" });
      continue;
    }
    const goldGraph = sampleGraph(g.task_nodes, true);
    const predGraph = isObject(result) ? sampleGraph(result.task_nodes, false) : "result is not an object";
    if (typeof goldGraph === "string" || typeof predGraph === "string") {
      dropped.push({ id, reason: typeof goldGraph === "string" ? `gold: ${goldGraph}` : `prediction: ${predGraph}` });
      continue;
    }
    scored++;

    const goldNames = new Set(goldGraph.names);
    const predNames = new Set(predGraph.names);
    for (const name of new Set([...goldNames, ...predNames])) {
      if (!toolNumber.has(name)) continue;
      if (goldNames.has(name) && predNames.has(name)) node.tp++;
      else if (predNames.has(name)) node.fp++;
      else node.fn++;
    }
    const goldLinks = new Set(goldGraph.links);
    const predLinks = new Set(predGraph.links);
    for (const l of new Set([...goldLinks, ...predLinks])) {
      if (goldLinks.has(l) && predLinks.has(l)) link.tp++;
      else if (predLinks.has(l)) link.fp++;
      else link.fn++;
    }
    const numbers = (names: string[]) => names.map((n) => toolNumber.get(n) ?? 0);
    similarity += indelSimilarity(numbers(predGraph.names), numbers(goldGraph.names));
  }

  const metrics: TaskBenchMetrics | null =
    scored === 0 ? null : (
      {
        node: prf(node.tp, node.fp, node.fn),
        link: prf(link.tp, link.fp, link.fn),
        editDistance: 1 - similarity / scored,
      }
    );
  return { samples, scored, dropped, metrics };
}
