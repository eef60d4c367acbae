/**
 * The lint engine: runs rules over a compiled plan's IR, maps what they report to source
 * positions in one place, applies suppressions and config severities, and adds the
 * engine's own findings about suppressions.
 */
import { type Confidence, type Diagnostic, type LineIndex, type Severity, sortDiagnostics } from "../diagnostic.js";
import type { CompileResult, SourceDoc } from "../compiler/index.js";
import type { PlanIR } from "../ir.js";
import { fillTemplate } from "../util/template.js";
import { STALE_BASELINE } from "./baseline.js";
import { type KnownRule, type ResolvedConfig, severityOf } from "./config.js";
import { EffectiveRisk } from "./effective-risk.js";
import { type PlanGraph, planGraph } from "../graph.js";
import { type Report, type Rule, type RuleContext, ruleDocsUrl } from "./rule.js";
import { rules as registry } from "./rules/index.js";
import { type ImportMark, importMark } from "./import-mark.js";
import {
  IGNORED_SUPPRESSION,
  type Suppression,
  type SuppressibleFinding,
  type SuppressionProblem,
  applySuppressions,
  collectSuppressions,
  ignoredSuppressions,
} from "./suppress.js";
import { pushAll } from "../util/arrays.js";

export interface LintOptions {
  config?: ResolvedConfig;
  /** The plan before revision (`--against`), for rules that compare the two. */
  original?: CompileResult;
  /** Default: every registered rule. */
  rules?: readonly Rule[];
  /**
   * False (`--no-inline-config`): nothing written in the linted files changes how they are
   * linted. Suppression comments and `x-planspec-disable` are reported as
   * `ignored-suppression` instead of applied, and an importer's mark is not honoured.
   */
  inlineConfig?: boolean;
}

/** A positioned finding and the step it is about, which baselines match on. */
export interface Finding {
  diagnostic: Diagnostic;
  step?: string;
}

/** Findings the engine itself reports; config can change their severity like a rule's. */
export const engineCodes: ReadonlyArray<{ id: string; defaultSeverity: Severity; description: string }> = [
  { id: "suppression-without-reason", defaultSeverity: "error", description: "A planspec-disable suppression gives no reason after `--`." },
  { id: "unused-suppression", defaultSeverity: "warning", description: "A suppression that silences no finding." },
  { id: "unknown-rule", defaultSeverity: "error", description: "A suppression names a rule that does not exist." },
  { id: IGNORED_SUPPRESSION, defaultSeverity: "warning", description: "A suppression in a file linted with --no-inline-config: reported, not applied." },
  { id: STALE_BASELINE, defaultSeverity: "info", description: "A baseline entry that matches no current finding." },
];

/** The registered rules. */
export function registeredRules(): readonly Rule[] {
  return registry;
}

/** Ids a config or `--rule` may name: every rule plus the engine's own codes. */
export function knownRules(rules: readonly Rule[] = registry): KnownRule[] {
  const out: KnownRule[] = rules.map((r) => (r.meta.defaultOptions ? { id: r.id, defaultOptions: r.meta.defaultOptions } : { id: r.id }));
  for (const c of engineCodes) out.push({ id: c.id });
  return out;
}

/** Runs the rules on `result.ir` and returns positioned, sorted diagnostics (none when it did not compile). */
export function lintCompiled(result: CompileResult, opts: LintOptions = {}): Diagnostic[] {
  return lintFindings(result, opts).map((f) => f.diagnostic);
}

/** Like `lintCompiled`, keeping the step each finding is about. */
export function lintFindings(result: CompileResult, opts: LintOptions = {}): Finding[] {
  const ir = result.ir;
  if (!ir) return [];
  const rules = opts.rules ?? registry;
  const graph = planGraph(ir);
  const original = opts.original?.ir;
  const mapper = new PositionMapper(result, ir, graph);
  const findings: Array<Finding & SuppressibleFinding> = [];
  const ran = new Set<string>();
  const optionsOf = optionsCache(opts.config);

  // One context per plan, re-pointed at each rule: a corpus run lints thousands of plans.
  let rule: Rule = rules[0]!;
  let severity: Severity = "error";
  const ctx = new PlanContext(ir, graph, (r: Report) => {
    const diagnostic = mapper.diagnostic(rule, r, severity);
    findings.push({ diagnostic, step: r.node, file: diagnostic.file, line: diagnostic.line, code: rule.id });
  });
  if (original) {
    ctx.original = original;
    ctx.originalGraph = planGraph(original);
  }
  const inline = opts.inlineConfig !== false;
  const imported = inline ? importMark(result.root) : undefined;
  if (imported) ctx.imported = imported;
  for (const r of rules) {
    const level = severityOf(opts.config, r.id, r.meta.defaultSeverity);
    if (level === "off" || (r.meta.needsOriginal && !original)) continue;
    ran.add(r.id);
    rule = r;
    severity = level;
    ctx.options = optionsOf(r);
    r.check(ctx);
  }

  const suppressions: Suppression[] = [];
  // Source map keys are the paths diagnostics show; a SourceDoc's own `file` may be absolute.
  for (const [file, doc] of result.sources) pushAll(suppressions, collectSuppressions(doc, file));
  if (suppressions.length === 0) return sortFindings(findings);
  const { kept, problems } = inline ? applySuppressions(findings, suppressions, new Set(rules.map((r) => r.id)), ran) : { kept: findings, problems: ignoredSuppressions(suppressions) };
  const out: Finding[] = kept;
  for (const p of problems) {
    const d = problemDiagnostic(p, result.sources.get(p.file), opts.config);
    if (d) out.push({ diagnostic: d });
  }
  return sortFindings(out);
}

/**
 * The rule context of one plan. A class, not an object literal with a getter: V8 builds
 * accessor literals slowly, and the effective risk must stay lazy (computed on first use).
 */
class PlanContext implements RuleContext {
  options: Record<string, unknown> = {};
  original?: PlanIR;
  originalGraph?: PlanGraph;
  imported?: ImportMark;
  private effective: EffectiveRisk | undefined;
  private originalEffective: EffectiveRisk | undefined;

  constructor(
    readonly ir: PlanIR,
    readonly graph: PlanGraph,
    readonly report: (r: Report) => void,
  ) {}

  get risk(): EffectiveRisk {
    return (this.effective ??= new EffectiveRisk(this.ir, this.graph));
  }

  get originalRisk(): EffectiveRisk | undefined {
    if (!this.original || !this.originalGraph) return undefined;
    return (this.originalEffective ??= new EffectiveRisk(this.original, this.originalGraph));
  }
}

const noConfig = {};
const optionsByConfig = new WeakMap<object, Map<Rule, Record<string, unknown>>>();

/** A rule's options (defaults merged with the config's), computed once per config and rule. */
function optionsCache(config: ResolvedConfig | undefined): (rule: Rule) => Record<string, unknown> {
  const key = config ?? noConfig;
  let cache = optionsByConfig.get(key);
  if (!cache) optionsByConfig.set(key, (cache = new Map()));
  const c = cache;
  return (rule) => {
    let options = c.get(rule);
    if (!options) {
      options = Object.freeze(Object.assign({}, rule.meta.defaultOptions, config?.rules[rule.id]?.options));
      c.set(rule, options);
    }
    return options;
  };
}

/** Sorts by file, line and column (as `sortDiagnostics` does) and drops duplicates. */
export function sortFindings<F extends Finding>(findings: readonly F[]): F[] {
  if (findings.length < 2) return [...findings];
  const byDiagnostic = new Map(findings.map((f) => [f.diagnostic, f]));
  return sortDiagnostics(findings.map((f) => f.diagnostic)).map((d) => byDiagnostic.get(d)!);
}

/**
 * A positioned diagnostic, built field by field: object spread with extra keys is slow
 * in V8 (microseconds per object), which shows when a corpus yields tens of thousands.
 */
function positioned(
  index: LineIndex | undefined,
  f: { code: string; severity: Severity; message: string; file: string; range: [number, number]; hint?: string | undefined; confidence?: Confidence },
): Diagnostic {
  const s = index ? index.position(f.range[0]) : { line: 1, col: 1 };
  const e = index ? index.position(Math.max(f.range[0], f.range[1])) : s;
  const d: Diagnostic = {
    code: f.code,
    severity: f.severity,
    message: f.message,
    file: f.file,
    range: f.range,
    line: s.line,
    col: s.col,
    endLine: e.line,
    endCol: e.col,
    confidence: f.confidence ?? "high",
    docsUrl: ruleDocsUrl(f.code),
  };
  if (f.hint !== undefined) d.hint = f.hint;
  return d;
}

function problemDiagnostic(p: SuppressionProblem, doc: SourceDoc | undefined, config: ResolvedConfig | undefined): Diagnostic | undefined {
  const fallback = engineCodes.find((c) => c.id === p.code)!.defaultSeverity;
  const severity = severityOf(config, p.code, fallback);
  if (severity === "off") return undefined;
  return positioned(doc?.index, { ...p, severity });
}

/**
 * The one place where a rule's report becomes a source range: a step's origin (its file
 * and document path, which for template steps is inside the template) plus the report's
 * path; the step's key when there is no path; the document root for plan-level reports.
 */
class PositionMapper {
  constructor(
    private readonly result: CompileResult,
    private readonly ir: PlanIR,
    private readonly graph: PlanGraph,
  ) {}

  diagnostic(rule: Rule, r: Report, severity: Severity): Diagnostic {
    const template = rule.meta.messages[r.messageId];
    if (template === undefined) throw new Error(`rule ${rule.id} reported unknown message id "${r.messageId}"`);
    const { file, range } = this.place(r);
    const confidence = r.confidence ?? rule.meta.defaultConfidence ?? "high";
    const fields = { code: rule.id, severity, message: fillTemplate(template, r.data), file, range, hint: r.hint, confidence };
    const doc = this.result.sources.get(file);
    if (doc) return positioned(doc.index, fields);
    const d = positioned(undefined, fields);
    // No source text (an IR handed over without its file): the span still knows its line.
    const span = r.node !== undefined ? this.graph.node(r.node)?.span : undefined;
    if (span && span.file === file) {
      d.line = d.endLine = span.line;
      d.col = span.col;
      d.endCol = span.col + Math.max(0, span.end - span.start);
    }
    return d;
  }

  private place(r: Report): { file: string; range: [number, number] } {
    if (r.node !== undefined) {
      const origin = this.result.origins.get(r.node);
      const doc = origin && this.result.sources.get(origin.file);
      if (origin && doc) {
        const range = r.path?.length ? doc.rangeOf([...origin.path, ...r.path]) : doc.rangeOf(origin.path, "key");
        return { file: origin.file, range };
      }
      const span = this.graph.node(r.node)?.span;
      if (span) return { file: span.file, range: [span.start, span.end] };
    }
    const root = this.result.root;
    const file = this.ir.source.file;
    if (!root) return { file, range: [0, 0] };
    if (r.path?.length) return { file, range: root.rangeOf(r.path) };
    return { file, range: firstLine(root.text) };
  }
}

/** A plan-level finding with no path points at the first line, not at the whole document. */
function firstLine(text: string): [number, number] {
  let start = 0;
  // Skip the comment header (suppressions, schema modelines) to the first key.
  for (;;) {
    const nl = text.indexOf("\n", start);
    const line = text.slice(start, nl < 0 ? text.length : nl).trim();
    if (nl < 0 || (line !== "" && !line.startsWith("#") && line !== "---")) break;
    start = nl + 1;
  }
  const nl = text.indexOf("\n", start);
  const end = (nl < 0 ? text.length : nl) - (text[nl - 1] === "\r" ? 1 : 0);
  return [start, Math.max(start, end)];
}
