/**
 * "Lint these paths" as `planspec lint` does it, for the CLI and any in-process caller:
 * files, directories and globs expanded; each file's config found (the nearest
 * planspec.config.yaml, or one pinned file) with its ignores, rule severities and
 * warning budget; revised plans paired with their originals; suppressions applied or
 * reported; a baseline subtracted; findings filtered by confidence. Returns data and
 * throws `LintFilesError` for what stops a lint from starting; formatting and exit codes
 * are the caller's.
 */
import { resolve } from "node:path";
import type { CompileResult } from "../compiler/index.js";
import { compileFile } from "../compiler/index.js";
import { atLeastConfidence, INPUT_ERROR_CODES, LineIndex, type Confidence, type Diagnostic } from "../diagnostic.js";
import { applyBaseline, readBaseline, STALE_BASELINE } from "./baseline.js";
import { ConfigResolver, parseRuleOverride, severityOf, type ResolvedConfig, type RuleOverride, type SeverityLevel } from "./config.js";
import { knownRules, lintFindings, registeredRules, sortFindings, type Finding } from "./engine.js";
import { discoverPlanFiles, isIgnored, pairOriginals } from "./files.js";
import { fixesFor, type Fix } from "./fix.js";
import { loadPlanFile } from "./gate.js";
import type { Rule } from "./rule.js";
import { pushAll } from "../util/arrays.js";

/** Why a lint could not start: a path named nothing, a config file is invalid, an option is wrong. */
export class LintFilesError extends Error {
  constructor(
    message: string,
    /** `paths`: arguments that named no file (`unmatched`); `config`: config problems (`diagnostics`); `option`: a bad option value. */
    readonly reason: "paths" | "config" | "option",
    readonly unmatched: ReadonlyArray<{ arg: string; reason: string }> = [],
    readonly diagnostics: readonly Diagnostic[] = [],
  ) {
    super(message);
    this.name = "LintFilesError";
  }
}

export interface LintConfigOptions {
  /** Paths resolve against it, configs are searched above each file from it (default `process.cwd()`). */
  cwd?: string;
  /** One config file for every file, instead of the nearest planspec.config.yaml (pin it for generated plans). */
  config?: string;
  /** Rule severities on top of the config, as `--rule id=severity`: `{ "unused-output": "off" }`. */
  rules?: Readonly<Record<string, SeverityLevel>>;
}

export interface LintFilesOptions extends LintConfigOptions {
  /** False: suppressions written in the files are reported, not applied (generated plans). Default true. */
  inlineConfig?: boolean;
  /** The original plan (a file, or a directory paired by file name) to check revised plans against. */
  against?: string;
  /** A baseline file: report only findings it does not record, and its stale entries. */
  baseline?: string;
  /** Report only findings at least this sure. */
  minConfidence?: Confidence;
  /** Report errors only. */
  errorsOnly?: boolean;
  /** The warning budget; default the lowest `maxWarnings` of the configs used. */
  maxWarnings?: number;
  /** Keep the line index of every file with a finding in `sources` (for code frames). */
  keepSources?: boolean;
  /** Compute each finding's mechanical fix into `fixes` (SARIF output). */
  withFixes?: boolean;
}

/** The files a lint covers, each with its config; the first half of `lintFiles`. */
export interface LintTargets {
  targets: Array<{ file: string; config: ResolvedConfig }>;
  /** Files found but skipped by a config's `ignores`. */
  ignored: string[];
  /** Revised file -> its original (`against`). */
  originals?: Map<string, string>;
  /** Revised files with no original of their name in the `against` directory (linted as new plans). */
  unpaired: string[];
  resolver: ConfigResolver;
  /** The config that applies to the baseline file (it decides how stale entries are reported). */
  baselineConfig?: ResolvedConfig;
  rules: readonly Rule[];
}

export interface LintFilesResult {
  /** The files linted, relative to cwd when inside it. */
  files: string[];
  /** Files skipped by a config's `ignores`. */
  ignored: string[];
  /** Revised files linted as new plans: no original of their name. */
  unpaired: string[];
  /** Every finding (compiler and lint), sorted, before the baseline: what a new baseline records. */
  findings: Finding[];
  /** What to report: findings minus the baseline (plus its stale entries), filtered by confidence and `errorsOnly`. */
  diagnostics: Diagnostic[];
  /** A file could not be read or parsed. */
  inputError: boolean;
  errors: number;
  warnings: number;
  /** The warning budget that applies, if any. */
  maxWarnings?: number;
  /** Line indexes of reported files (with `keepSources`). */
  sources: Map<string, { index: LineIndex }>;
  /** Each reported finding's fix (with `withFixes`). */
  fixes: Map<Diagnostic, Fix>;
}

/** The config resolver of a lint: the pinned or nearest config, with `rules` on top; throws for an unknown rule. */
export function configResolver(opts: LintConfigOptions = {}, rules: readonly Rule[] = registeredRules()): ConfigResolver {
  const known = knownRules(rules);
  const overrides: RuleOverride[] = Object.entries(opts.rules ?? {}).map(([id, severity]) => {
    const o = parseRuleOverride(`${id}=${severity}`, known);
    if (typeof o === "string") throw new LintFilesError(o, "option");
    return o;
  });
  return new ConfigResolver(known, { cwd: opts.cwd ?? process.cwd(), ...(opts.config !== undefined ? { explicit: opts.config } : {}), overrides });
}

/** Expands `paths` (default `.`) to the files to lint, each with its config, and pairs revisions with originals. */
export function lintTargets(paths: readonly string[], opts: LintFilesOptions = {}): LintTargets {
  const cwd = opts.cwd ?? process.cwd();
  const rules = registeredRules();
  const resolver = configResolver(opts, rules);
  const found = discoverPlanFiles(paths.length ? paths : ["."], cwd);
  if (found.unmatched.length) throw new LintFilesError(found.unmatched.map((u) => `${u.arg}: ${u.reason}`).join("\n"), "paths", found.unmatched);
  const targets: LintTargets["targets"] = [];
  const ignored: string[] = [];
  for (const file of found.files) {
    const config = resolver.forFile(file);
    if (config.ignores.length > 0 && isIgnored(resolve(cwd, file), config.ignores, config.baseDir)) ignored.push(file);
    else targets.push({ file, config });
  }
  // The baseline's own config decides how stale entries are reported; load it before the check.
  const baselineConfig = opts.baseline ? resolver.forFile(resolve(cwd, opts.baseline)) : undefined;
  if (resolver.diagnostics.length) throw new LintFilesError(resolver.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message}`).join("\n"), "config", [], resolver.diagnostics);
  const base = { targets, ignored, unpaired: [] as string[], resolver, rules, ...(baselineConfig ? { baselineConfig } : {}) };
  if (!opts.against || targets.length === 0) return base;
  const originals = pairOriginals(targets.map((t) => t.file), opts.against, cwd);
  if (typeof originals === "string") throw new LintFilesError(originals, "option");
  return { ...base, originals: originals.pairs, unpaired: originals.unpaired };
}

/** Compiles the original a revised plan is checked against; throws when it does not compile to a plan. */
export function compileOriginal(file: string, cwd = process.cwd()): CompileResult {
  const original = compileFile(file, { cwd });
  const errors = original.diagnostics.filter((d) => d.severity === "error");
  if (errors.length || !original.ir) {
    const why = errors[0] ? `${errors[0].file}:${errors[0].line}:${errors[0].col}: ${errors[0].message}` : "it is not a plan";
    throw new LintFilesError(`--against ${file} does not compile: ${why}`, "option");
  }
  return original;
}

/** Lints the targets `lintTargets` found; the second half of `lintFiles`. */
export function lintResolved(t: LintTargets, opts: LintFilesOptions = {}): LintFilesResult {
  const cwd = opts.cwd ?? process.cwd();
  const sources = new Map<string, { index: LineIndex }>();
  const fixes = new Map<Diagnostic, Fix>();
  let findings: Finding[] = [];
  for (const { file, config } of t.targets) {
    const result = loadPlanFile(file, { cwd });
    const againstFile = t.originals?.get(file);
    const original = againstFile !== undefined ? compileOriginal(againstFile, cwd) : undefined;
    const lint = lintFindings(result, { config, rules: t.rules, inlineConfig: opts.inlineConfig !== false, ...(original ? { original } : {}) });
    if (opts.keepSources && (lint.length || result.diagnostics.length)) for (const [f, doc] of result.sources) sources.set(f, doc);
    for (const d of result.diagnostics) findings.push({ diagnostic: d });
    pushAll(findings, lint);
    if (opts.withFixes) for (const [d, f] of fixesFor([...result.diagnostics.map((diagnostic) => ({ diagnostic })), ...lint], result, t.rules)) fixes.set(d, f);
  }
  findings = sortFindings(findings);
  let diagnostics = findings.map((f) => f.diagnostic);
  if (opts.baseline) {
    const loaded = readBaseline(opts.baseline, cwd);
    if (typeof loaded === "string") throw new LintFilesError(loaded, "option");
    const staleLevel = severityOf(t.baselineConfig, STALE_BASELINE, "info");
    const { kept, stale } = applyBaseline(findings, loaded, cwd, staleLevel === "off" ? "info" : staleLevel);
    diagnostics = [...kept.map((f) => f.diagnostic), ...(staleLevel === "off" ? [] : stale)];
    if (stale.length && opts.keepSources) sources.set(opts.baseline, { index: new LineIndex(loaded.text) });
  }
  if (opts.minConfidence !== undefined) diagnostics = diagnostics.filter((d) => atLeastConfidence(d.confidence, opts.minConfidence!));
  if (opts.errorsOnly) diagnostics = diagnostics.filter((d) => d.severity === "error");
  const maxWarnings = opts.maxWarnings ?? minBudget(t.resolver.configs().map((c) => c.maxWarnings));
  return {
    files: t.targets.map((x) => x.file),
    ignored: t.ignored,
    unpaired: t.unpaired,
    findings,
    diagnostics,
    inputError: findings.some((f) => INPUT_ERROR_CODES.has(f.diagnostic.code)),
    errors: diagnostics.filter((d) => d.severity === "error").length,
    warnings: diagnostics.filter((d) => d.severity === "warning").length,
    ...(maxWarnings !== undefined ? { maxWarnings } : {}),
    sources,
    fixes,
  };
}

/**
 * Lints plan files, directories (searched for `*.plan.yaml|yml|json`) and globs with
 * config discovery, suppressions, an optional baseline and original; a gate passes when
 * `!inputError && errors === 0` and warnings stay within `maxWarnings`.
 */
export function lintFiles(paths: readonly string[], opts: LintFilesOptions = {}): LintFilesResult {
  return lintResolved(lintTargets(paths, opts), opts);
}

function minBudget(values: Array<number | undefined>): number | undefined {
  const set = values.filter((v): v is number => v !== undefined);
  return set.length ? Math.min(...set) : undefined;
}
