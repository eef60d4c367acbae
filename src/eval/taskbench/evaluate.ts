/**
 * TaskBench's `evaluate.py`, metric for metric: node micro and macro P/R/F1 with per-tool
 * figures and support, argument task–name and task–name–value F1 (the paper's t-F1 and
 * v-F1), link binary F1 and edit distance, per split and per tool count (`-s`, `-n`,
 * modes `add` and `mul`), over `resource` links (read from `<node-i>` arguments) or
 * `temporal` links (the records' `task_links`), with or without the step metrics'
 * `task_steps` (`--prompting`). Results carry evaluate.py's own key names.
 *
 * Odd inputs are scored as evaluate.py scores them; every such rule is named where it is
 * applied. A record evaluate.py would stop on (a line that is not JSON, a record without
 * an id, links that cannot be read) raises TaskBenchStop naming the line, unless the run
 * is lenient, in which case that line is left out, counted and the run restarts without it.
 */
import { isDict, pyJsonParse, PyJsonError, pyKey, pyStr, pyType, type Py, type PyDict } from "./pyjson.js";

export type DependencyType = "resource" | "temporal";

export interface EvaluateOptions {
  /** `resource` (default): links from `<node-i>` arguments; `temporal`: links from `task_links`. */
  dependencyType?: DependencyType;
  /** `cot` (default) includes the step metrics, whose preparation needs `task_steps`; anything else does not. */
  prompting?: string;
  /** evaluate.py's `-s`: `overall`, `single`, `chain`, `dag`, or `all` for every one. Default `["overall"]`. */
  splits?: string[];
  /** evaluate.py's `-n`: `overall`, a node count, or `all` for overall and 1..10. Default `["overall"]`. */
  nTools?: string[];
  /** `add` (default): each split over all counts, each count over all splits; `mul`: every pair. */
  mode?: "add" | "mul";
  /** Leave out the lines evaluate.py would stop on, and count them, instead of failing. */
  lenient?: boolean;
}

/** One tool of tool_desc.json: its id and (resource links) its first output type or `none`. */
export interface EvalTool {
  id: string;
  outputType?: string;
}

/** A line of a records file: where it is (for messages) and its text. */
export interface SourceLine {
  file: string;
  /** 1-based line number (or element number of a JSON array file). */
  line: number;
  text: string;
}

export interface PerType {
  precision: number;
  recall: number;
  "f1-score": number;
  support: number;
}

/** One sample as evaluate.py keeps it once it survives its `try`: names, links, argument strings. */
interface SplitSample {
  gold: Py[];
  pred: Py[];
  goldLinks: Array<[Py, Py]>;
  predLinks: Array<[Py, Py]>;
  argNames: { pred: string[]; gold: string[] };
  argValues: { pred: string[]; gold: string[] };
}

/** One group's figures, keyed as evaluate.py's metrics file keys them (typo `matchcing` included). */
export interface GroupMetrics {
  all_samples: number;
  step_supports: number;
  node_supports: number;
  link_supports: number;
  argument_supports: number;
  node_micro_precision_no_matching?: number;
  node_micro_recall_no_matching?: number;
  node_micro_f1_no_matching?: number;
  node_macro_precision_no_matching?: number;
  node_macro_recall_no_matching?: number;
  node_macro_f1_no_matching?: number;
  node_per_type_no_matchcing?: Record<string, PerType>;
  argument_task_argname_binary_f1_no_matching?: number;
  argument_task_argname_value_binary_f1_no_matching?: number;
  edit_distance?: number;
  link_binary_f1?: number;
}

/** A line left out by a lenient run. */
export interface SkippedLine {
  file: string;
  line: number;
  reason: string;
}

export interface EvaluateResult {
  /** Group `"<split>_<n_tools>"` → figures, in evaluate.py's order. */
  groups: Record<string, GroupMetrics>;
  /** Per group, the samples evaluate.py ignores ("Parsing Error ... Ignore #id") and why. */
  dropped: Record<string, Array<{ id: string; reason: string }>>;
  skipped: SkippedLine[];
  /** Per group, link precision and recall beside evaluate.py's link F1 (it prints only the F1). */
  links: Record<string, { precision: number; recall: number; f1: number }>;
}

/** evaluate.py would stop here: the line, and why. */
export class TaskBenchStop extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

interface Rec {
  src: SourceLine;
  value: Py;
}

/** Raised inside a sample: evaluate.py's per-sample `except Exception` drops the id. */
class Drop extends Error {}
const drop = (reason: string): never => {
  throw new Drop(reason);
};

/** `x[key]` on a value, or the failure Python raises. */
function item(v: Py | undefined, key: string, what: string): Py {
  if (!isDict(v ?? null)) return drop(`${what} is ${pyType(v)}, not a dict`);
  if (!(v as PyDict).has(key)) return drop(`${what} has no "${key}"`);
  return (v as PyDict).get(key)!;
}

/** What `for x in v` yields: list items, a string's characters, a dict's keys; undefined where Python raises. */
function iterate(v: Py): Py[] | undefined {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return [...v];
  if (isDict(v)) return [...v.keys()];
  return undefined;
}

/** Python's `int(s)` on a string: spaces, a sign, digits with single `_` between; undefined where it raises. */
function pyInt(s: string): number | undefined {
  return /^\s*[+-]?\d+(_\d+)*\s*$/.test(s) ? Number.parseInt(s.replace(/_/g, ""), 10) : undefined;
}

/** evaluate.py's `get_content_type`: the first extension found anywhere in the string. */
function contentType(s: string): string {
  const c = s.replace(/^'+|'+$/g, "");
  for (const [type, exts] of [
    ["image", ["jpg", "png", "jpeg", "gif", "bmp", "tiff", "svg", "ico"]],
    ["audio", ["mp3", "wav", "wma", "ogg", "aac", "flac", "aiff", "au"]],
    ["video", ["mp4", "avi", "mov", "flv", "wmv", "mkv", "webm", "m4v", "mpg", "mpeg"]],
  ] as const) {
    if (exts.some((e) => c.includes(`.${e}`))) return type;
  }
  return "text";
}

interface Arg {
  name: Py;
  value: Py;
}

/** State that evaluate.py keeps across samples of one group: the last `new_argument` assigned. */
interface GroupState {
  last: Arg | undefined;
}

/**
 * Resource links and the rewritten arguments of one side, as evaluate.py's two loops do it.
 * `gold` selects the label loop, which needs `arguments` and checks no types; an argument
 * whose handling raises re-appends the previous `new_argument` (of any earlier node or
 * sample, as a Python local does), and with none yet the sample is dropped.
 */
function resourceSide(nodes: PyDict[], names: string[], gold: boolean, tools: Map<string, EvalTool>, state: GroupState, links: Array<[Py, Py]>): Arg[][] {
  const out: Arg[][] = [];
  for (const [inx, node] of nodes.entries()) {
    const raw = gold ? item(node, "arguments", "a gold node") : node.has("arguments") ? node.get("arguments")! : [];
    const args = iterate(raw);
    if (!args) drop(`${gold ? "gold" : "predicted"} arguments are ${pyType(raw)}, not iterable`);
    const rewritten: Arg[] = [];
    for (const argument of args!) {
      let a: Py = argument;
      let failed = false;
      let self = false;
      if (isDict(a)) {
        if (a.size === 0) failed = true;
        else a = a.values().next().value!;
      }
      if (!failed && Array.isArray(a)) {
        if (a.every((x) => typeof x === "string")) a = a.join(" ");
        else failed = true;
      }
      if (!failed) {
        if (typeof a === "string" && a.includes("<node-")) {
          const start = a.indexOf("<node-") + 6;
          const end = a.indexOf(">");
          const k = end < 0 ? undefined : pyInt(a.slice(start, Math.max(start, end)));
          if (k === undefined) failed = true;
          else if (k === inx) self = true;
          else {
            const source = k < -names.length || k >= names.length ? undefined : names[k < 0 ? names.length + k : k]!;
            if (source === undefined) failed = true;
            else {
              links.push([source, node.get("task")!]);
              state.last = { name: tools.get(source)?.outputType ?? "other", value: source };
            }
          }
        } else if (typeof a === "string") state.last = { name: contentType(a), value: a };
        else failed = true; // `"<node-" in 5`, or get_content_type on a non-string
      }
      if (self) continue;
      if (failed && !state.last) drop("an argument could not be read and no earlier argument exists (UnboundLocalError)");
      rewritten.push(state.last!);
    }
    out.push(rewritten);
  }
  return out;
}

/** `f"{task}-{argument['name']}"` and `...-{argument['value']}` over one side's nodes. */
function argStrings(names: Py[], args: Py[], side: string): { names: string[]; values: string[] } {
  const out = { names: [] as string[], values: [] as string[] };
  for (const [i, task] of names.entries()) {
    const list = iterate(args[i]!);
    if (!list) drop(`${side} arguments are ${pyType(args[i])}, not iterable`);
    for (const a of list!) {
      const name = item(a, "name", `a ${side} argument`);
      out.names.push(`${pyStr(task)}-${pyStr(name)}`);
      out.values.push(`${pyStr(task)}-${pyStr(name)}-${pyStr(item(a, "value", `a ${side} argument`))}`);
    }
  }
  return out;
}

/** Reads a `task_links` list as evaluate.py's link metric does after the loop (where a failure stops it). */
function temporalLinks(links: Py, side: string): Array<[Py, Py]> | string {
  const list = iterate(links);
  if (!list) return `${side} task_links is ${pyType(links)}, not iterable`;
  const out: Array<[Py, Py]> = [];
  for (const l of list) {
    if (!isDict(l) || !l.has("source") || !l.has("target")) return `${side} task_links holds ${pyType(l)} without "source" and "target"`;
    const pair: [Py, Py] = [l.get("source")!, l.get("target")!];
    if (pair.some((x) => pyKey(x) === undefined)) return `${side} task_links has a ${pyType(pair.find((x) => pyKey(x) === undefined))} source or target (unhashable)`;
    out.push(pair);
  }
  return out;
}

interface Context {
  tools: EvalTool[];
  byId: Map<string, EvalTool>;
  temporal: boolean;
  steps: boolean;
}

/** One sample through evaluate.py's `try` block; Drop when it is ignored, a stop message when evaluate.py would crash on it later. */
function scoreSample(g: PyDict, p: PyDict, ctx: Context, state: GroupState): { sample: SplitSample; stepSupport: boolean } | { stepSupport: boolean; dropped: string; argumentSupport: boolean } | { stop: string; side: "gold" | "prediction" } {
  let stepSupport = false;
  let argumentSupport = false;
  try {
    if (ctx.steps) {
      const result = item(p, "result", "the prediction");
      item(result, "task_steps", "the prediction's result");
      const steps = item(g, "task_steps", "the gold record");
      // "\n".join(...) takes a string, a dict (its keys) or a list of strings only.
      const joinable = typeof steps === "string" || isDict(steps) || (Array.isArray(steps) && steps.every((s) => typeof s === "string"));
      if (!joinable) drop(`gold task_steps is ${pyType(steps)}${Array.isArray(steps) ? " with a non-string entry" : ""}, not a list of strings`);
      stepSupport = true;
    }
    const goldNodesRaw = iterate(item(g, "task_nodes", "the gold record"));
    const predNodesRaw = iterate(item(item(p, "result", "the prediction"), "task_nodes", "the prediction's result"));
    if (!goldNodesRaw) drop("gold task_nodes is not iterable");
    if (!predNodesRaw) drop("predicted task_nodes is not iterable");
    // `node["task"]` for node in task_nodes: "" and {} are empty plans; other strings and dicts yield strings, which raise.
    const nodesOf = (raw: Py[], side: string) => raw.map((n) => (item(n, "task", `a ${side} node`), n as PyDict));
    const goldNodes = nodesOf(goldNodesRaw!, "gold");
    const predNodes = nodesOf(predNodesRaw!, "predicted");
    let goldNames: Py[] = goldNodes.map((n) => n.get("task")!);
    let predNames: Py[] = predNodes.map((n) => n.get("task")!);
    let links: { gold: Array<[Py, Py]>; pred: Array<[Py, Py]> } | undefined;
    let goldArgs: Py[];
    let predArgs: Py[];
    let rawLinks: { gold: Py; pred: Py } | undefined;
    if (!ctx.temporal) {
      const norm = (names: Py[], side: string) =>
        names.map((n) => (typeof n === "string" ? n.replace(/_/g, " ") : drop(`a ${side} task name is ${pyType(n)}, not a string`)));
      predNames = norm(predNames, "predicted");
      goldNames = norm(goldNames, "gold");
      links = { gold: [], pred: [] };
      goldArgs = resourceSide(goldNodes, goldNames as string[], true, ctx.byId, state, links.gold).map((a) => a.map(argDict));
      predArgs = resourceSide(predNodes, predNames as string[], false, ctx.byId, state, links.pred).map((a) => a.map(argDict));
    } else {
      rawLinks = { pred: item(item(p, "result", "the prediction"), "task_links", "the prediction's result"), gold: item(g, "task_links", "the gold record") };
      predArgs = predNodes.map((n) => (n.has("arguments") ? n.get("arguments")! : []));
      goldArgs = goldNodes.map((n) => item(n, "arguments", "a gold node"));
    }
    const pa = argStrings(predNames, predArgs, "predicted");
    const ga = argStrings(goldNames, goldArgs, "gold");
    argumentSupport = true;
    if (predNames.some((n) => typeof n !== "string")) drop("a predicted task name is not a string (assert)");
    if (rawLinks) {
      // After the loop, evaluate.py hashes the names and reads every link: failures there stop it.
      const bad = goldNames.find((n) => pyKey(n) === undefined);
      if (bad !== undefined) return { stop: `a gold task name is a ${pyType(bad)} (unhashable)`, side: "gold" };
      const gl = temporalLinks(rawLinks.gold, "gold");
      if (typeof gl === "string") return { stop: gl, side: "gold" };
      const pl = temporalLinks(rawLinks.pred, "predicted");
      if (typeof pl === "string") return { stop: pl, side: "prediction" };
      links = { gold: gl, pred: pl };
    }
    return {
      stepSupport,
      sample: splitSample(goldNames, predNames, links!, ga, pa),
    };
  } catch (err) {
    if (err instanceof Drop) return { stepSupport, dropped: err.message, argumentSupport };
    throw err;
  }
}

const argDict = (a: Arg): Py => new Map<string, Py>([["name", a.name], ["value", a.value]]);

function splitSample(gold: Py[], pred: Py[], links: { gold: Array<[Py, Py]>; pred: Array<[Py, Py]> }, ga: { names: string[]; values: string[] }, pa: { names: string[]; values: string[] }): SplitSample {
  return { gold, pred, goldLinks: links.gold, predLinks: links.pred, argNames: { gold: ga.names, pred: pa.names }, argValues: { gold: ga.values, pred: pa.values } };
}

/** TP/FP/FN of two sets given by keys. */
function count(gold: Iterable<string>, pred: Iterable<string>, into: { tp: number; fp: number; fn: number }): void {
  const g = new Set(gold);
  const p = new Set(pred);
  for (const k of new Set([...g, ...p])) {
    if (g.has(k) && p.has(k)) into.tp++;
    else if (p.has(k)) into.fp++;
    else into.fn++;
  }
}

/** sklearn's precision_recall_fscore_support with zero_division "warn" (an undefined ratio is 0). */
function prf(tp: number, fp: number, fn: number): [number, number, number] {
  return [tp + fp === 0 ? 0 : tp / (tp + fp), tp + fn === 0 ? 0 : tp / (tp + fn), 2 * tp + fp + fn === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn)];
}

/** Normalised indel similarity of two sequences (Levenshtein.ratio): 2·LCS / (|a| + |b|), 1 for two empty ones. */
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

const linkKey = ([s, t]: [Py, Py]) => `${pyKey(s)}\u0000${pyKey(t)}`;

/** The figures of one group over the samples that survived, as evaluate.py computes them after its loop. */
function groupFigures(samples: SplitSample[], tools: EvalTool[]): { figures: Omit<GroupMetrics, "all_samples" | "step_supports" | "node_supports" | "link_supports" | "argument_supports">; link: [number, number, number] } {
  // flatten(types=...): a name counts for the first tool with that id; names of no tool are ignored.
  const typeIndex = new Map<string, number>();
  tools.forEach((t, i) => {
    if (!typeIndex.has(`s${t.id}`)) typeIndex.set(`s${t.id}`, i);
  });
  const per = tools.map(() => ({ tp: 0, fp: 0, fn: 0 }));
  const argN = { tp: 0, fp: 0, fn: 0 };
  const argV = { tp: 0, fp: 0, fn: 0 };
  const link = { tp: 0, fp: 0, fn: 0 };
  // tool_map: tool_desc position + 1 (a repeated id keeps its last), "<PAD>" → -1, anything else 0.
  const toolNumber = new Map(tools.map((t, i) => [`s${t.id}`, i + 1]));
  toolNumber.set("s<PAD>", -1);
  let similarity = 0;
  for (const s of samples) {
    const g = new Set(s.gold.map((n) => pyKey(n)!));
    const p = new Set(s.pred.map((n) => pyKey(n)!));
    for (const k of new Set([...g, ...p])) {
      const i = typeIndex.get(k);
      if (i === undefined) continue;
      if (g.has(k) && p.has(k)) per[i]!.tp++;
      else if (p.has(k)) per[i]!.fp++;
      else per[i]!.fn++;
    }
    count(s.argNames.gold, s.argNames.pred, argN);
    count(s.argValues.gold, s.argValues.pred, argV);
    count(s.goldLinks.map(linkKey), s.predLinks.map(linkKey), link);
    const numbers = (names: Py[]) => names.map((n) => toolNumber.get(pyKey(n)!) ?? 0);
    similarity += indelSimilarity(numbers(s.pred), numbers(s.gold));
  }
  const sum = per.reduce((a, c) => ({ tp: a.tp + c.tp, fp: a.fp + c.fp, fn: a.fn + c.fn }), { tp: 0, fp: 0, fn: 0 });
  const micro = prf(sum.tp, sum.fp, sum.fn);
  const perType = per.map((c) => prf(c.tp, c.fp, c.fn));
  const mean = (k: 0 | 1 | 2) => perType.reduce((a, r) => a + r[k], 0) / perType.length;
  const byName: Record<string, PerType> = {};
  tools.forEach((t, i) => {
    const [precision, recall, f1] = perType[i]!;
    byName[t.id] = { precision, recall, "f1-score": f1, support: per[i]!.tp + per[i]!.fn };
  });
  const linkPrf = prf(link.tp, link.fp, link.fn);
  const figures = {
    node_micro_precision_no_matching: micro[0],
    node_micro_recall_no_matching: micro[1],
    node_micro_f1_no_matching: micro[2],
    node_macro_precision_no_matching: mean(0),
    node_macro_recall_no_matching: mean(1),
    node_macro_f1_no_matching: mean(2),
    node_per_type_no_matchcing: byName,
    argument_task_argname_binary_f1_no_matching: prf(argN.tp, argN.fp, argN.fn)[2],
    argument_task_argname_value_binary_f1_no_matching: prf(argV.tp, argV.fp, argV.fn)[2],
    edit_distance: 1 - similarity / samples.length,
    link_binary_f1: linkPrf[2],
  };
  return { figures, link: linkPrf };
}

/** The (split, n_tools) groups evaluate.py's `main` builds from -s, -n and --mode. */
export function groupsOf(splits: string[], nTools: string[], mode: "add" | "mul"): Array<[string, string]> {
  const s = splits.includes("all") ? ["overall", "single", "chain", "dag"] : splits;
  const n = nTools.includes("all") ? ["overall", ...Array.from({ length: 10 }, (_, i) => String(i + 1))] : nTools;
  const out: Array<[string, string]> = [];
  const add = (a: string, b: string) => {
    if (!out.some(([x, y]) => x === a && y === b)) out.push([a, b]);
  };
  if (mode === "mul") for (const a of s) for (const b of n) add(a, b);
  else {
    for (const a of s) add(a, "overall");
    for (const b of n) add("overall", b);
  }
  return out;
}

/** Lines of a file as Python's text-mode iteration yields them (universal newlines). */
export function pyLines(file: string, text: string): SourceLine[] {
  const parts = text.split(/\r\n|\r|\n/);
  if (parts.at(-1) === "") parts.pop();
  return parts.map((t, i) => ({ file, line: i + 1, text: t }));
}

/** A record of a records file: where it is, and its value or why Python's json rejects it. */
export type RecordLine = { src: SourceLine; value: Py } | { src: SourceLine; error: string };
type Parsed = RecordLine;

function parseLine(src: SourceLine): RecordLine {
  try {
    return { src, value: pyJsonParse(src.text) };
  } catch (err) {
    if (err instanceof PyJsonError) return { src, error: `not valid JSON (${err.message})` };
    throw err;
  }
}

/**
 * The records of a JSON-lines file as evaluate.py reads them (Python's text-mode lines,
 * a blank line included), or of a JSON array file (an extension: evaluate.py reads lines only).
 */
export function readRecords(file: string, text: string): RecordLine[] {
  if (text.trimStart().startsWith("[")) {
    const whole = parseLine({ file, line: 1, text });
    if ("value" in whole && Array.isArray(whole.value)) return whole.value.map((value, i) => ({ src: { file, line: i + 1, text: "" }, value }));
  }
  return pyLines(file, text).map(parseLine);
}

/**
 * Scores predictions against gold records over the tools of tool_desc.json, as evaluate.py
 * does for each (split, n_tools) group; records come from `readRecords`.
 */
export function evaluateTaskBench(gold: RecordLine[], pred: RecordLine[], tools: EvalTool[], options: EvaluateOptions = {}): EvaluateResult {
  const ctx: Context = {
    tools,
    // tool_output_type_map is keyed by tool id, though it is looked up with normalised names.
    byId: new Map(tools.map((t) => [t.id, t])),
    temporal: options.dependencyType === "temporal",
    steps: (options.prompting ?? "cot") === "cot",
  };
  const groups = groupsOf(options.splits ?? ["overall"], options.nTools ?? ["overall"], options.mode ?? "add");
  const skipped: SkippedLine[] = [];
  const left = new Set<SourceLine>();
  for (;;) {
    try {
      return { ...runGroups(gold.filter((r) => !left.has(r.src)), pred.filter((r) => !left.has(r.src)), groups, ctx), skipped };
    } catch (err) {
      if (!(err instanceof Stop) || !options.lenient) throw err instanceof Stop ? new TaskBenchStop(err.src.file, err.src.line, err.reason) : err;
      left.add(err.src);
      skipped.push({ file: err.src.file, line: err.src.line, reason: err.reason });
    }
  }
}

class Stop extends Error {
  constructor(
    readonly src: SourceLine,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function runGroups(gold: Parsed[], pred: Parsed[], groups: Array<[string, string]>, ctx: Context): Omit<EvaluateResult, "skipped"> {
  const result: Omit<EvaluateResult, "skipped"> = { groups: {}, dropped: {}, links: {} };
  for (const [split, nTool] of groups) {
    const key = `${split}_${nTool}`;
    const labels = new Map<string, Rec>();
    for (const r of gold) {
      if ("error" in r) throw new Stop(r.src, r.error);
      const d = r.value;
      if (!isDict(d)) throw new Stop(r.src, `a gold record is ${pyType(d)}, not a JSON object`);
      const nodes = d.get("task_nodes");
      if (nodes === undefined) throw new Stop(r.src, 'the gold record has no "task_nodes"');
      if (typeof nodes !== "string" && !Array.isArray(nodes) && !isDict(nodes)) throw new Stop(r.src, `gold task_nodes is ${pyType(nodes)}, which has no len()`);
      const n = typeof nodes === "string" ? [...nodes].length : Array.isArray(nodes) ? nodes.length : nodes.size;
      if (split !== "overall") {
        if (!d.has("type")) throw new Stop(r.src, `the gold record has no "type" (needed by -s ${split})`);
        if (d.get("type") !== split) continue;
      }
      if (nTool !== "overall" && String(n) !== nTool) continue;
      const id = d.get("id");
      if (id === undefined) throw new Stop(r.src, 'the gold record has no "id"');
      const k = pyKey(id);
      if (k === undefined) throw new Stop(r.src, `the gold id is a ${pyType(id)} (unhashable)`);
      // A later record with the same id replaces an earlier one (a dict keeps the first position).
      labels.set(k, { src: r.src, value: d });
    }
    const preds = new Map<string, Rec>();
    for (const r of pred) {
      if ("error" in r) throw new Stop(r.src, r.error);
      const d = r.value;
      if (!isDict(d)) throw new Stop(r.src, `a prediction is ${pyType(d)}, not a JSON object`);
      const id = d.get("id");
      if (id === undefined) throw new Stop(r.src, 'the prediction has no "id"');
      const k = pyKey(id);
      if (k === undefined) throw new Stop(r.src, `the prediction id is a ${pyType(id)} (unhashable)`);
      preds.set(k, { src: r.src, value: d });
    }
    const m: GroupMetrics = { all_samples: 0, step_supports: 0, node_supports: 0, link_supports: 0, argument_supports: 0 };
    const dropped: Array<{ id: string; reason: string }> = [];
    const kept: SplitSample[] = [];
    const state: GroupState = { last: undefined };
    // Samples in gold order (evaluate.py walks a set of ids, whose order Python seeds per run;
    // only the stale-argument rule in resourceSide can see the order).
    for (const [k, g] of labels) {
      const p = preds.get(k);
      if (!p) continue;
      m.all_samples++;
      const id = pyStr((g.value as PyDict).get("id")!);
      const r = scoreSample(g.value as PyDict, p.value as PyDict, ctx, state);
      if ("stop" in r) throw new Stop(r.side === "gold" ? g.src : p.src, `sample ${id}: ${r.stop}`);
      if (r.stepSupport) m.step_supports++;
      if ("dropped" in r) {
        if (r.argumentSupport) m.argument_supports++;
        dropped.push({ id, reason: r.dropped });
        continue;
      }
      m.argument_supports++;
      m.node_supports++;
      m.link_supports++;
      kept.push(r.sample);
    }
    if (m.node_supports === 0) result.groups[key] = m;
    else {
      const { figures, link } = groupFigures(kept, ctx.tools);
      result.groups[key] = { ...m, ...figures };
      result.links[key] = { precision: link[0], recall: link[1], f1: link[2] };
    }
    result.dropped[key] = dropped;
  }
  return result;
}
