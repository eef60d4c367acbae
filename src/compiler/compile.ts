/**
 * The compiler pipeline: parse → schema → resolve → build → graph → check → IR.
 * Every stage reports into one collector; nothing throws for bad input.
 */
import { readFileSync } from "node:fs";
import { relative, resolve as resolvePath } from "node:path";
import type { Diagnostic } from "../diagnostic.js";
import { sortDiagnostics } from "../diagnostic.js";
import { IR_VERSION, type Complexity, type InputSpec, type InputType, type IRNode, type PlanIR, type PlanLimits } from "../ir.js";
import { planGraph } from "../graph.js";
import { buildNodes } from "./build.js";
import { lazyProperty, planHash, sha256 } from "./canonical.js";
import { checkReferences } from "./check.js";
import { Collector } from "./diagnostics.js";
import { parseDuration } from "./durations.js";
import { orderSteps } from "./graph.js";
import { parseSource, readSourceText } from "./load.js";
import { checkMcpReferences, compileMcp } from "./mcp.js";
import { validateIRSource } from "./validate-ir.js";
import { resolvePlan } from "./resolve.js";
import { checkSchema, documentKind, type DocKind } from "./schema.js";
import type { DocPath, SourceDoc } from "./source.js";
import { didYouMean } from "./suggest.js";
import { fitsType, jsonType } from "./templates.js";

export interface CompileOptions {
  /** Paths in diagnostics and spans are relative to this directory (default: process.cwd()). */
  cwd?: string;
}

export interface CompileResult {
  ir?: PlanIR;
  kind: DocKind;
  diagnostics: Diagnostic[];
  /** Every document read: the plan, imported catalogues and templates. */
  sources: Map<string, SourceDoc>;
  root?: SourceDoc;
  /** Where each IR node was written: its file and document path. */
  origins: Map<string, { file: string; path: DocPath }>;
}

type Obj = Record<string, unknown>;

/** Schema findings after which every value still has the type later stages expect. */
const SHAPE_PRESERVING = new Set(["PS104", "PS106", "PS107", "PS108", "PS109", "PS110"]);

/** Reads and compiles a plan file. */
export function compileFile(file: string, opts: CompileOptions = {}): CompileResult {
  const cwd = opts.cwd ?? process.cwd();
  const shown = displayPath(file, cwd);
  let text: string;
  try {
    text = readSourceText(resolvePath(cwd, file));
  } catch (err) {
    const out = new Collector();
    const e = err as NodeJS.ErrnoException;
    const reason = e.code === "ENOENT" ? "no such file" : e.code === "EISDIR" ? "it is a directory" : e.message;
    out.report("PS100", shown, [0, 0], { file: shown, reason });
    return { kind: "plan", diagnostics: out.list, sources: new Map(), origins: new Map() };
  }
  return compileSource(shown, text, opts);
}

const shownPaths = new Map<string, string>();

function displayPath(file: string, cwd: string): string {
  const cacheKey = cwd + "\0" + file;
  let shown = shownPaths.get(cacheKey);
  if (shown === undefined) {
    shown = computeDisplayPath(file, cwd);
    if (shownPaths.size > 50_000) shownPaths.clear();
    shownPaths.set(cacheKey, shown);
  }
  return shown;
}

function computeDisplayPath(file: string, cwd: string): string {
  const abs = resolvePath(cwd, file);
  const rel = relative(cwd, abs);
  return rel && !rel.startsWith("..") ? rel : abs;
}

/** Compiles plan text; `file` names it in diagnostics and resolves relative imports. */
export function compileSource(file: string, text: string, opts: CompileOptions = {}): CompileResult {
  const cwd = opts.cwd ?? process.cwd();
  const out = new Collector();
  const origins = new Map<string, { file: string; path: DocPath }>();
  // Paths come from a handful of files (the plan and its templates) but are shown per node:
  // remember the last one.
  let lastFile = "";
  let lastShown = "";
  const show = (f: string): string => (f === lastFile ? lastShown : ((lastFile = f), (lastShown = displayPath(f, cwd))));
  const finish = (kind: DocKind, ir?: PlanIR, root?: SourceDoc): CompileResult => {
    const sources = new Map<string, SourceDoc>();
    for (const [f, d] of out.sources) sources.set(show(f), d);
    const diagnostics = sortDiagnostics(out.list.map((d) => ({ ...d, file: show(d.file) })));
    const result: CompileResult = { kind, diagnostics, sources, origins };
    if (root) result.root = root;
    if (ir && !out.hasErrors) result.ir = ir;
    return result;
  };

  const doc = parseSource(resolvePath(cwd, file), text, out);
  if (!doc) return finish("plan");
  const kind = documentKind(doc.data);
  if (doc.data === null || typeof doc.data !== "object" || Array.isArray(doc.data)) {
    out.report("PS139", doc.file, [0, Math.min(text.length, 1)], { reason: "a plan file must be a map with planspec, name, goal and steps" });
    return finish(kind, undefined, doc);
  }
  if (kind !== "plan") {
    // Templates and catalogues are checked on their own, and compiled through the plans that import them.
    checkSchema(doc, kind, out);
    return finish(kind, undefined, doc);
  }
  const before = out.list.length;
  if (!checkSchema(doc, "plan", out)) {
    // Problems that leave the document's shape intact do not stop later stages, so one run reports everything.
    const shapeKept = out.list.slice(before).every((d) => SHAPE_PRESERVING.has(d.code));
    if (!shapeKept) return finish(kind, undefined, doc);
  }
  const data = doc.data as Obj;
  if (Object.keys(data.steps as Obj).length === 0) {
    out.report("PS138", doc.file, doc.rangeOf(["steps"], "key"));
    return finish(kind, undefined, doc);
  }

  const inputs = compileInputs(doc, data, out);
  const hypotheses = compileHypotheses(data);
  const resolved = resolvePlan(doc, out);
  const built = buildNodes(resolved, new Set(Object.keys(hypotheses)), out);
  for (const b of built) origins.set(b.node.id, { file: show(b.site.doc.file), path: b.site.path });

  const ids = built.map((b) => b.node.id);
  const idSet = new Set(ids);
  for (const [h, spec] of Object.entries(hypotheses)) {
    spec.verifyBy.forEach((step, i) => {
      if (!idSet.has(step)) {
        const hint = didYouMean(step, idSet);
        out.report("PS143", doc.file, doc.rangeOf(["hypotheses", h, "verify_by", i]), { id: h, step }, hint ? { hint } : {});
      }
    });
  }

  const { order, cycles } = orderSteps({ ids, deps: new Map(built.map((b) => [b.node.id, b.node.dependsOn])) });
  reportCycles(cycles, built, out);

  const nodes = built.map((b) => b.node);
  for (const n of nodes) n.span.file = show(n.span.file);
  const secrets = Array.isArray(data.secrets) ? data.secrets.map(String) : [];
  const ir: Omit<PlanIR, "planHash"> = {
    irVersion: IR_VERSION,
    name: String(data.name),
    goal: String(data.goal),
    deliverables: Array.isArray(data.deliverables) ? data.deliverables.map(String) : [],
    source: { file: show(doc.file) } as PlanIR["source"],
    inputs,
    ...(secrets.length > 0 ? { secrets } : {}),
    tools: resolved.tools,
    limits: compileLimits(data),
    hypotheses,
    nodes: nodes.map(readableKeyOrder),
    order,
  };
  // The linter asks for the same graph (`planGraph`): it is built once per plan.
  checkReferences(built, planGraph(ir as PlanIR), new Set(Object.keys(inputs)), out, new Set(secrets));
  // `consumes` is known only now; the IR's nodes are reordered copies of the built ones.
  ir.nodes.forEach((n, i) => (n.consumes = built[i]!.node.consumes));
  if (typeof data.complexity === "string") (ir as PlanIR).complexity = data.complexity as Complexity;
  if (data.mcp && typeof data.mcp === "object") {
    checkMcpReferences(doc, data.mcp as Obj, new Set(secrets), out);
    (ir as PlanIR).mcp = compileMcp(data.mcp as Obj);
  }
  // Hashes are computed when first read: linting thousands of plans never needs them.
  lazyProperty(ir.source, "sha256", () => sha256(text));
  lazyProperty(ir, "planHash", () => planHash(ir));
  return finish(kind, ir as PlanIR, doc);
}

const NODE_KEYS: ReadonlyArray<keyof IRNode> = [
  "id", "kind", "goal", "tool", "allowedTools", "risk", "riskInferred", "dependsOn", "consumes", "with", "output",
  "outputSchema", "success", "when", "retry", "timeoutMs", "repeat", "forEach", "approval", "idempotencyKey",
  "assumes", "phase", "template", "span",
];

/** The node with its keys in the order a reader expects (SPEC §2), not the order they were filled in. */
function readableKeyOrder(node: IRNode): IRNode {
  const out: Record<string, unknown> = {};
  for (const k of NODE_KEYS) if (node[k] !== undefined) out[k] = node[k];
  return out as unknown as IRNode;
}

function compileInputs(doc: SourceDoc, data: Obj, out: Collector): PlanIR["inputs"] {
  const inputs: PlanIR["inputs"] = {};
  for (const [name, raw] of Object.entries((data.inputs ?? {}) as Record<string, Obj>)) {
    const spec: InputSpec = { type: raw.type as InputType, required: !("default" in raw) };
    if (typeof raw.description === "string") spec.description = raw.description;
    if (raw.secret === true) spec.secret = true;
    if (typeof raw.env === "string") spec.env = raw.env;
    if ("default" in raw) {
      if (!fitsType(raw.default, spec.type)) {
        out.report("PS142", doc.file, doc.rangeOf(["inputs", name, "default"]), { name, expected: spec.type, actual: jsonType(raw.default) });
      }
      spec.default = raw.default as InputSpec["default"];
    }
    inputs[name] = spec;
  }
  return inputs;
}

function compileHypotheses(data: Obj): PlanIR["hypotheses"] {
  const out: PlanIR["hypotheses"] = {};
  for (const [id, raw] of Object.entries((data.hypotheses ?? {}) as Record<string, Obj>)) {
    out[id] = { statement: String(raw.statement), verifyBy: (raw.verify_by as string[]).map(String) };
  }
  return out;
}

function compileLimits(data: Obj): PlanLimits {
  const raw = (data.limits ?? {}) as Obj;
  const limits: PlanLimits = {};
  const t = parseDuration(raw.run_timeout);
  if (t !== undefined) limits.runTimeoutMs = t;
  if (typeof raw.max_tool_calls === "number") limits.maxToolCalls = raw.max_tool_calls;
  if (typeof raw.max_steps === "number") limits.maxSteps = raw.max_steps;
  return limits;
}

/** One diagnostic per distinct cycle, at the `needs` entry that closes it in the first step. */
function reportCycles(cycles: string[][], built: ReturnType<typeof buildNodes>, out: Collector): void {
  const seen = new Set<string>();
  const byId = new Map(built.map((b) => [b.node.id, b]));
  for (const cycle of cycles) {
    const ring = cycle.slice(0, -1);
    const key = [...ring].sort().join("\u0000");
    if (seen.has(key)) continue;
    seen.add(key);
    // Start the printed path at the step written first, as a reader scans the file.
    const first = ring.reduce((a, b) => (built.findIndex((x) => x.node.id === a) <= built.findIndex((x) => x.node.id === b) ? a : b));
    const at = ring.indexOf(first);
    const path = [...ring.slice(at), ...ring.slice(0, at), first];
    const b = byId.get(first)!;
    const need = path[1]!;
    const needs = b.site.def.needs;
    const idx = Array.isArray(needs) ? needs.indexOf(need) : -1;
    const p: DocPath = [...b.site.path, "needs", ...(idx >= 0 ? [idx] : [])];
    out.report("PS113", b.site.doc.file, b.site.doc.rangeOf(p), { path: path.join(" -> ") });
  }
}

/** Reads and validates an IR file (`planspec validate`). */
export function validateIRFile(file: string, opts: CompileOptions = {}): CompileResult {
  const cwd = opts.cwd ?? process.cwd();
  const shown = displayPath(file, cwd);
  const out = new Collector();
  let text: string;
  try {
    text = readFileSync(resolvePath(cwd, file), "utf8");
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    out.report("PS100", shown, [0, 0], { file: shown, reason: e.code === "ENOENT" ? "no such file" : e.message });
    return { kind: "plan", diagnostics: out.list, sources: new Map(), origins: new Map() };
  }
  const { ir, doc } = validateIRSource(shown, text, out);
  const sources = new Map<string, SourceDoc>();
  if (doc) sources.set(shown, doc);
  const result: CompileResult = { kind: "plan", diagnostics: sortDiagnostics(out.list), sources, origins: new Map() };
  if (ir) result.ir = ir;
  if (doc) result.root = doc;
  return result;
}
