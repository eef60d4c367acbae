/**
 * Mechanical fixes for findings: edits to the plan's text by source ranges, so comments,
 * quoting and layout stay as written. One fix per finding at most; `planspec lint --fix`,
 * SARIF `fixes` and the language server's code actions all come from here.
 */
import type { Diagnostic } from "../diagnostic.js";
import type { CompileResult, SourceDoc } from "../compiler/index.js";
import type { DocPath } from "../compiler/source.js";
import { compileSource } from "../compiler/index.js";
import type { ResolvedConfig } from "./config.js";
import { type Finding, lintFindings, registeredRules } from "./engine.js";
import { EffectiveRisk } from "./effective-risk.js";
import { planGraph } from "../graph.js";
import type { Rule } from "./rule.js";
import { templateParts } from "../util/template.js";

/** Replace `[start, end)` of the file's text with `text` (an insertion when start == end). */
export interface TextEdit {
  range: [number, number];
  text: string;
  /** 1-based line and column of the range's ends (SARIF regions). */
  start?: { line: number; col: number };
  end?: { line: number; col: number };
}

export interface Fix {
  /** The rule or compiler code the fix answers. */
  code: string;
  /** What the fix does, imperative: `add idempotency_key to step "page"`. */
  description: string;
  file: string;
  edits: TextEdit[];
}

/** The bounds `--fix` writes where a loop or run has none; a reviewer tightens them. */
export const DEFAULT_BOUNDS = { repeatMaxAttempts: 5, retryMaxAttempts: 3, forEachMaxItems: 100, runTimeout: "30m", maxToolCalls: 100, pollDelay: "30s" } as const;

type Obj = Record<string, unknown>;

/** The fix of one finding, or undefined when it has no mechanical fix (or its file is not YAML). */
export function fixFor(finding: Finding, result: CompileResult, rules: readonly Rule[]): Fix | undefined {
  const d = finding.diagnostic;
  const doc = result.sources.get(d.file);
  if (!doc || /\.json$/i.test(d.file)) return undefined;
  const edit = new Editor(doc);
  const make = (description: string, edits: TextEdit[] | undefined): Fix | undefined =>
    edits && edits.length
      ? { code: d.code, description, file: d.file, edits: edits.map((e) => ({ ...e, start: doc.index.position(e.range[0]), end: doc.index.position(e.range[1]) })) }
      : undefined;

  if (d.code === "PS127") {
    const m = /^step "([^"]+)" reads steps\.([^.\s]+)/.exec(d.message);
    const path = m && stepPath(result, m[1]!, d.file);
    if (!m || !path) return undefined;
    // A step that reads one of its own dependents cannot need it: that is a cycle, not a fix.
    if (needsTransitively(doc.data, m[2]!, m[1]!)) return undefined;
    return make(`add "${m[2]}" to the needs of "${m[1]}"`, edit.appendToList(path, "needs", m[2]!, "kind"));
  }
  const rule = rules.find((r) => r.id === d.code);
  const step = finding.step;
  const path = step !== undefined ? stepPath(result, step, d.file) : undefined;
  if (!rule) return undefined;
  const messageId = messageIdOf(rule, d.message);
  switch (d.code) {
    case "side-effect-without-idempotency-key":
      if (!path) return undefined;
      return make(`add idempotency_key to step "${step}"`, edit.addKey(path, "idempotency_key", `"\${{ run.id }}:${step}"`, "tool"));
    case "unbounded-loop": {
      if (messageId === "noLimits") {
        const limits = `{ run_timeout: ${DEFAULT_BOUNDS.runTimeout}, max_tool_calls: ${DEFAULT_BOUNDS.maxToolCalls} }`;
        const data = doc.data as Obj;
        if (data.limits !== undefined && data.limits !== null && typeof data.limits === "object") {
          return make("add limits.run_timeout", edit.addKey(["limits"], "run_timeout", DEFAULT_BOUNDS.runTimeout));
        }
        if (data.limits !== undefined) return undefined;
        return make("add run-level limits", edit.addKey([], "limits", limits, keyBefore(data, "steps")));
      }
      if (!path) return undefined;
      const bound =
        messageId === "repeatUnbounded" ? (["repeat", "max_attempts", DEFAULT_BOUNDS.repeatMaxAttempts] as const)
        : messageId === "forEachUnbounded" ? (["for_each", "max_items", DEFAULT_BOUNDS.forEachMaxItems] as const)
        : messageId === "retryUnbounded" ? (["retry", "max_attempts", DEFAULT_BOUNDS.retryMaxAttempts] as const)
        : undefined;
      if (!bound) return undefined;
      const defaults = valueAt(doc.data, ["defaults", "retry"]);
      if (bound[0] === "retry" && valueAt(doc.data, [...path, "retry"]) === undefined && defaults !== null && typeof defaults === "object") {
        // The step inherits its retry from the plan's defaults: bound it there, for every step.
        return make(`add defaults.retry.max_attempts: ${bound[2]}`, edit.addKey(["defaults", "retry"], "max_attempts", String(bound[2])));
      }
      return make(`add ${bound[0]}.${bound[1]}: ${bound[2]} to step "${step}"`, edit.addKey([...path, bound[0]], bound[1], String(bound[2])));
    }
    case "poll-without-delay":
      if (!path) return undefined;
      return make(`add repeat.delay: ${DEFAULT_BOUNDS.pollDelay} to step "${step}"`, edit.addKey([...path, "repeat"], "delay", DEFAULT_BOUNDS.pollDelay));
    case "redundant-dependency": {
      const m = /needs "([^"]+)", which/.exec(d.message);
      if (!path || !m) return undefined;
      const needs = valueAt(doc.data, [...path, "needs"]);
      const i = Array.isArray(needs) ? needs.indexOf(m[1]) : -1;
      if (i < 0) return undefined;
      return make(`drop "${m[1]}" from the needs of "${step}"`, edit.removeListItem([...path, "needs"], i));
    }
    case "risk-under-labelled": {
      const node = step !== undefined && result.ir ? result.ir.nodes.find((n) => n.id === step) : undefined;
      if (!path || !node || !result.ir) return undefined;
      const risk = new EffectiveRisk(result.ir, planGraph(result.ir)).of(node).risk;
      const edits = node.riskInferred ? edit.addKey(path, "risk", risk, "kind") : edit.replaceValue([...path, "risk"], risk);
      return make(`declare risk: ${risk} on step "${step}"`, edits);
    }
    default:
      return undefined;
  }
}

/** Fixes for every finding that has one, keyed by the finding's diagnostic. */
export function fixesFor(findings: readonly Finding[], result: CompileResult, rules: readonly Rule[]): Map<Diagnostic, Fix> {
  const out = new Map<Diagnostic, Fix>();
  for (const f of findings) {
    const fix = fixFor(f, result, rules);
    if (fix) out.set(f.diagnostic, fix);
  }
  return out;
}

/**
 * Applies the fixes whose edits touch no edit already taken (the rest wait for the next
 * pass, on re-linted text). Returns the new text and the fixes applied.
 */
export function applyFixes(text: string, fixes: readonly Fix[]): { text: string; applied: Fix[] } {
  const taken: TextEdit[] = [];
  const applied: Fix[] = [];
  const seen = new Set<string>();
  for (const fix of fixes) {
    const key = JSON.stringify(fix.edits.map((e) => [e.range, e.text]));
    if (seen.has(key)) continue; // the same edit for two findings (two reads of one missing need)
    if (fix.edits.some((e) => taken.some((t) => e.range[0] <= t.range[1] && t.range[0] <= e.range[1]))) continue;
    seen.add(key);
    taken.push(...fix.edits);
    applied.push(fix);
  }
  taken.sort((a, b) => b.range[0] - a.range[0]);
  let out = text;
  for (const e of taken) out = out.slice(0, e.range[0]) + e.text + out.slice(e.range[1]);
  return { text: out, applied };
}

export interface FixOptions {
  cwd: string;
  config?: ResolvedConfig;
  rules?: readonly Rule[];
  original?: CompileResult;
}

/** Compiler and lint findings of a plan text, as `planspec lint` reports them. */
export function findingsOf(file: string, text: string, opts: FixOptions): { result: CompileResult; findings: Finding[] } {
  const result = compileSource(file, text, { cwd: opts.cwd });
  const lint = lintFindings(result, { ...(opts.config ? { config: opts.config } : {}), ...(opts.rules ? { rules: opts.rules } : {}), ...(opts.original ? { original: opts.original } : {}) });
  return { result, findings: [...result.diagnostics.map((diagnostic) => ({ diagnostic })), ...lint] };
}

/**
 * Fixes a plan text until no fixable finding is left (a fix can enable another: a missing
 * need added, then a redundant one dropped), at most `maxPasses` rounds.
 */
export function fixSource(file: string, text: string, opts: FixOptions, maxPasses = 10): { text: string; applied: Fix[] } {
  const rules = opts.rules ?? registeredRules();
  const applied: Fix[] = [];
  let current = text;
  for (let pass = 0; pass < maxPasses; pass++) {
    const { result, findings } = findingsOf(file, current, opts);
    const fixes = [...fixesFor(findings, result, rules).values()].filter((f) => f.file === result.ir?.source.file || f.file === file);
    if (fixes.length === 0) break;
    const step = applyFixes(current, fixes);
    if (step.applied.length === 0 || step.text === current) break;
    applied.push(...step.applied);
    current = step.text;
  }
  return { text: current, applied };
}

/** The document path of a step written in `file` (not one expanded from a template file). */
function stepPath(result: CompileResult, step: string, file: string): DocPath | undefined {
  const origin = result.origins.get(step);
  if (origin) return origin.file === file ? origin.path : undefined;
  const data = result.sources.get(file)?.data as Obj | undefined;
  const steps = data?.steps as Obj | undefined;
  return steps && typeof steps === "object" && step in steps ? ["steps", step] : undefined;
}

/** Which of the rule's messages produced `message`. */
function messageIdOf(rule: Rule, message: string): string | undefined {
  for (const [id, template] of Object.entries(rule.meta.messages)) {
    const parts = templateParts(template)
      .filter((p): p is string => typeof p === "string")
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    if (new RegExp(`^${parts.join("[\\s\\S]*?")}$`).test(message)) return id;
  }
  return undefined;
}

function valueAt(data: unknown, path: DocPath): unknown {
  let v = data;
  for (const seg of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

/** True when step `from` needs step `to`, directly or through other needs, in the written plan. */
function needsTransitively(data: unknown, from: string, to: string): boolean {
  const steps = valueAt(data, ["steps"]);
  if (steps === null || typeof steps !== "object") return false;
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    const needs = valueAt(steps, [id, "needs"]);
    if (Array.isArray(needs)) for (const n of needs) if (typeof n === "string") stack.push(n);
  }
  return false;
}

/** The key written just before `key` at the document root, to insert after it. */
function keyBefore(data: Obj, key: string): string | undefined {
  const keys = Object.keys(data);
  const i = keys.indexOf(key);
  return i > 0 ? keys[i - 1] : undefined;
}

/** Range edits on one YAML document, in its own style (flow or block, its indentation, its line ends). */
class Editor {
  private readonly eol: string;

  constructor(private readonly doc: SourceDoc) {
    this.eol = doc.text.includes("\r\n") ? "\r\n" : "\n";
  }

  private get text(): string {
    return this.doc.text;
  }

  private isFlow(path: DocPath, open: string): boolean {
    return this.text[this.doc.rangeOf(path)[0]] === open;
  }

  private lineStart(off: number): number {
    return this.text.lastIndexOf("\n", off - 1) + 1;
  }

  /** The end of the line holding `off`, before its line break. */
  private lineEnd(off: number): number {
    const nl = this.text.indexOf("\n", off);
    const end = nl < 0 ? this.text.length : nl;
    return this.text[end - 1] === "\r" ? end - 1 : end;
  }

  /** Adds `key: value` to the map at `path`, after key `after` (default: the last key). */
  addKey(path: DocPath, key: string, value: string, after?: string): TextEdit[] | undefined {
    const map = valueAt(this.doc.data, path);
    if (map === null || typeof map !== "object" || Array.isArray(map) || key in map) return undefined;
    const keys = Object.keys(map);
    if (path.length > 0 && this.isFlow(path, "{")) {
      const close = this.doc.rangeOf(path)[1] - 1;
      let at = close;
      while (at > 0 && this.text[at - 1] === " ") at--;
      return [{ range: [at, at], text: `${keys.length ? ", " : ""}${key}: ${value}` }];
    }
    if (keys.length === 0) return undefined;
    const first = this.doc.rangeOf([...path, keys[0]!], "key")[0];
    const indent = first - this.lineStart(first);
    const anchor = after !== undefined && keys.includes(after) ? after : keys[keys.length - 1]!;
    const end = this.doc.rangeOf([...path, anchor])[1];
    const at = this.lineEnd(Math.max(first, end - 1));
    return [{ range: [at, at], text: `${this.eol}${" ".repeat(indent)}${key}: ${value}` }];
  }

  /** Appends `item` to the list at `path/key`, or adds `key: [item]` after key `after`. */
  appendToList(path: DocPath, key: string, item: string, after?: string): TextEdit[] | undefined {
    const list = valueAt(this.doc.data, [...path, key]);
    if (list === undefined || list === null) return this.addKey(path, key, `[${item}]`, after);
    if (!Array.isArray(list)) return undefined;
    if (list.includes(item)) return undefined;
    const listPath = [...path, key];
    if (this.isFlow(listPath, "[")) {
      const close = this.doc.rangeOf(listPath)[1] - 1;
      if (list.length === 0) return [{ range: [close, close], text: item }];
      const last = this.doc.rangeOf([...listPath, list.length - 1])[1];
      return [{ range: [last, last], text: `, ${item}` }];
    }
    const [s, e] = this.doc.rangeOf([...listPath, list.length - 1]);
    const prefix = this.text.slice(this.lineStart(s), s);
    const at = this.lineEnd(Math.max(s, e - 1));
    return [{ range: [at, at], text: `${this.eol}${prefix}${item}` }];
  }

  /** Removes item `i` of the list at `path` with its separator (flow) or its line (block). */
  removeListItem(path: DocPath, i: number): TextEdit[] | undefined {
    const list = valueAt(this.doc.data, path);
    if (!Array.isArray(list) || i >= list.length) return undefined;
    const [s, e] = this.doc.rangeOf([...path, i]);
    if (this.isFlow(path, "[")) {
      if (list.length === 1) return [{ range: [s, e], text: "" }];
      if (i < list.length - 1) return [{ range: [s, this.doc.rangeOf([...path, i + 1])[0]], text: "" }];
      return [{ range: [this.doc.rangeOf([...path, i - 1])[1], e], text: "" }];
    }
    const start = this.lineStart(s);
    const end = this.lineEnd(Math.max(s, e - 1));
    const next = this.text.indexOf("\n", end);
    return [{ range: [start, next < 0 ? end : next + 1], text: "" }];
  }

  replaceValue(path: DocPath, value: string): TextEdit[] | undefined {
    if (valueAt(this.doc.data, path) === undefined) return undefined;
    return [{ range: this.doc.rangeOf(path), text: value }];
  }
}
