/** `planspec lint [paths...]`: compile and lint plan files, report in a chosen format, gate on the result. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import type { Diagnostic } from "../diagnostic.js";
import { CONFIDENCES, type Confidence, INPUT_ERROR_CODES, LineIndex } from "../diagnostic.js";
import type { SeverityLevel } from "../lint/config.js";
import type { LintFilesOptions, LintTargets } from "../lint/lint-files.js";
import type { ActionContext } from "./main.js";
import { useColor } from "./color.js";
import { type CliIO, UsageError, write } from "./io.js";
import { ruleDocsUrl } from "../lint/rule.js";
import { fillTemplate } from "../util/template.js";

interface LintCliOptions {
  format: string;
  output?: string;
  config?: string;
  rule?: string[];
  maxWarnings?: string;
  baseline?: string;
  writeBaseline?: string;
  against?: string;
  quiet?: boolean;
  inlineConfig: boolean;
  printConfig?: string;
  minConfidence?: string;
  fix?: boolean;
  fixDryRun?: boolean;
}

const FORMAT_NAMES = "stylish, json, sarif, github, junit";

const HELP = `
Paths are plan files, directories (searched for *.plan.yaml, *.plan.yml and *.plan.json,
skipping node_modules and dot-directories) or quoted globs ("plans/**/*.plan.json").
With no path, the current directory is linted.

Configuration comes from the nearest planspec.config.yaml above each file, or --config:
  rules: { over-planning: [error, { moderate: 20 }], unused-output: off }
  ignores: [drafts/, "**/*.wip.plan.yaml"]
  maxWarnings: 10

Generated plans: lint them with --no-inline-config and a pinned --config, so nothing the
planner wrote (a "# planspec-disable" comment, an x-planspec-disable key, a
planspec.config.yaml beside the plans) can switch the gate off:
  $ planspec lint generated/ --no-inline-config --config ci/planspec.config.yaml
--print-config FILE shows the config that applies to FILE and every rule's severity.

IR files (*.ir.json, as planspec compile -o or planspec plan write them) are linted like
plan files when named explicitly.

Exit status: 0 clean or warnings only, 1 errors (or more warnings than --max-warnings),
2 usage or input error (unreadable file, bad YAML/JSON, bad config).

Examples:
  $ planspec lint specs/
  $ planspec lint "plans/**/*.plan.json" --format sarif -o lint.sarif
  $ planspec lint plans/ --format github --max-warnings 0
  $ planspec lint plans/ --rule unused-output=off --rule over-planning=error
  $ planspec lint plans/ --write-baseline .planspec-baseline.json
  $ planspec lint plans/ --baseline .planspec-baseline.json
  $ planspec lint revised.plan.yaml --against original.plan.yaml
  $ planspec lint revised/ --against originals/      # pairs plans by file name
  $ planspec lint generated/ --no-inline-config --config ci/planspec.config.yaml
  $ planspec lint --print-config generated/p.plan.yaml
  $ planspec lint plans/ --min-confidence high    # only structural findings, no heuristics
  $ planspec lint plans/ --fix-dry-run        # the fixes as a unified diff, nothing written
  $ planspec lint plans/ --fix                # apply them, then report what is left

--fix repairs mechanical findings in place, keeping comments and layout: a missing
idempotency_key, an unbounded repeat/for_each/retry or plan (limits), a missing or
redundant need, a risk label below the step's effective risk.
`;

/** Registers `lint`. */
export function registerLint(program: Command, ctx: ActionContext): void {
  program
    .command("lint")
    .description("lint plan files for planner failures (unsafe writes, unbounded loops, goal drift, ...)")
    .argument("[paths...]", "plan files, directories or globs (default: .)")
    .option("-f, --format <name>", `output format: ${FORMAT_NAMES}`, "stylish")
    .option("-o, --output <file>", "write the report to a file instead of stdout")
    .option("-c, --config <file>", "use this config file instead of the nearest planspec.config.yaml")
    .option("--rule <id=severity>", "set a rule's severity: off, info, warning or error (repeatable)", (v: string, acc?: string[]) => [...(acc ?? []), v])
    .option("--max-warnings <n>", "exit 1 when there are more than n warnings")
    .option("--baseline <file>", "report only findings not recorded in this baseline")
    .option("--write-baseline <file>", "record every current finding in a baseline file and exit 0")
    .option("--against <file|dir>", "the original plan, to check a revised plan as a diff; a directory pairs each plan with the original of the same file name")
    .option("--no-inline-config", "ignore suppression comments, x-planspec-disable and importer marks in the linted files (the mode for generated plans)")
    .option("--print-config <file>", "print the config that applies to a file and the resolved rules, then exit")
    .option("-q, --quiet", "report errors only")
    .option("--min-confidence <level>", "report only findings at least this sure: high, medium or low (default: low, all)")
    .option("--fix", "apply mechanical fixes to the files, then report the findings left")
    .option("--fix-dry-run", "print the fixes as a unified diff on stdout; write nothing (exit 0)")
    .addHelpText("after", HELP)
    .action(ctx.action((paths: string[], opts: LintCliOptions) => runLint(paths, opts, program, ctx.io)));
}

async function runLint(paths: string[], opts: LintCliOptions, program: Command, io: CliIO): Promise<number> {
  const { formatLoaders } = await import("../lint/format/loaders.js");
  const loadFormatter = Object.hasOwn(formatLoaders, opts.format) ? formatLoaders[opts.format] : undefined;
  if (!loadFormatter) throw new UsageError(`unknown format "${opts.format}"; use one of ${FORMAT_NAMES}`);
  const [lib, engine, config, files, baseline, formatter, compilerDiagnostics] = await Promise.all([
    import("../lint/lint-files.js"),
    import("../lint/engine.js"),
    import("../lint/config.js"),
    import("../lint/files.js"),
    import("../lint/baseline.js"),
    loadFormatter(),
    import("../compiler/diagnostics.js"),
  ]);
  let maxWarnings: number | undefined;
  if (opts.maxWarnings !== undefined) {
    if (!/^\d+$/.test(opts.maxWarnings)) throw new UsageError(`--max-warnings expects a whole number, got "${opts.maxWarnings}"`);
    maxWarnings = Number(opts.maxWarnings);
  }
  const minConfidence = opts.minConfidence;
  if (minConfidence !== undefined && !CONFIDENCES.includes(minConfidence as Confidence)) {
    throw new UsageError(`--min-confidence expects high, medium or low, got "${minConfidence}"`);
  }
  const rules = engine.registeredRules();
  const known = engine.knownRules(rules);
  const ruleLevels: Record<string, SeverityLevel> = {};
  for (const r of opts.rule ?? []) {
    const o = config.parseRuleOverride(r, known);
    if (typeof o === "string") throw new UsageError(o);
    ruleLevels[o.id] = o.severity;
  }
  const lintOpts: LintFilesOptions = {
    cwd: io.cwd,
    rules: ruleLevels,
    inlineConfig: opts.inlineConfig,
    keepSources: opts.format === "stylish",
    withFixes: opts.format === "sarif",
    errorsOnly: opts.quiet === true,
    ...(opts.config ? { config: opts.config } : {}),
    ...(opts.against ? { against: opts.against } : {}),
    ...(opts.baseline ? { baseline: opts.baseline } : {}),
    ...(minConfidence !== undefined ? { minConfidence: minConfidence as Confidence } : {}),
    ...(maxWarnings !== undefined ? { maxWarnings } : {}),
  };
  if (opts.printConfig) {
    const resolver = lib.configResolver(lintOpts, rules);
    const applied = resolver.forFile(opts.printConfig);
    if (resolver.diagnostics.length) return printConfigErrors(resolver.diagnostics, program, io);
    const printed = config.describeConfig(applied, opts.printConfig, rules, engine.engineCodes, io.cwd, opts.inlineConfig, files.isIgnored);
    await write(io.stdout, `${JSON.stringify(printed, null, 2)}\n`);
    return 0;
  }
  let found: LintTargets;
  try {
    found = lib.lintTargets(paths, lintOpts);
  } catch (err) {
    if (!(err instanceof lib.LintFilesError)) throw err;
    if (err.reason === "config") return printConfigErrors([...err.diagnostics], program, io);
    if (err.reason === "option") throw new UsageError(err.message);
    for (const u of err.unmatched) await write(io.stderr, `planspec: ${u.arg}: ${u.reason}\n`);
    return 2;
  }
  const { targets } = found;
  if (targets.length === 0) {
    await write(io.stderr, `planspec: all ${found.ignored.length} files are ignored by the config's ignores\n`);
    return 0;
  }
  for (const u of found.unpaired) await write(io.stderr, `planspec: no original for ${u} in ${opts.against}; linted as a new plan\n`);

  const asUsage = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      throw err instanceof lib.LintFilesError ? new UsageError(err.message) : err;
    }
  };
  if (opts.fix || opts.fixDryRun) {
    const { runFixes } = await import("./lint-fix.js");
    const originalOf = (f: string) => {
      const a = found.originals?.get(f);
      return a !== undefined ? asUsage(() => lib.compileOriginal(a, io.cwd)) : undefined;
    };
    await runFixes(targets, { cwd: io.cwd, rules, dryRun: opts.fixDryRun === true, originalOf }, io);
    if (opts.fixDryRun) return 0;
  }
  // A baseline being written is not read.
  const result = asUsage(() => lib.lintResolved(found, opts.writeBaseline ? { ...lintOpts, baseline: undefined } : lintOpts));
  const { findings, sources, fixes } = result;

  if (opts.writeBaseline) {
    if (result.inputError) return report(findings.filter((f) => INPUT_ERROR_CODES.has(f.diagnostic.code)).map((f) => f.diagnostic), 2);
    const b = baseline.createBaseline(findings, opts.writeBaseline, io.cwd);
    const path = resolve(io.cwd, opts.writeBaseline);
    writeOrFail(path, baseline.serializeBaseline(b), opts.writeBaseline);
    await write(io.stderr, `wrote ${b.findings.length} finding${b.findings.length === 1 ? "" : "s"} to ${opts.writeBaseline}\n`);
    return 0;
  }
  const { warnings, maxWarnings: budget } = result;
  let code = result.inputError ? 2 : result.errors > 0 ? 1 : 0;
  await report(result.diagnostics, code);
  if (code === 0 && budget !== undefined && warnings > budget) {
    await write(io.stderr, `planspec: ${warnings} warnings, more than the maximum of ${budget} (--max-warnings / maxWarnings)\n`);
    code = 1;
  }
  return code;

  async function report(list: Diagnostic[], exit: number): Promise<number> {
    const rulesMeta = [
      ...rules.map((r) => ({ id: r.id, description: r.meta.description, defaultSeverity: r.meta.defaultSeverity, docsUrl: ruleDocsUrl(r.id) })),
      ...engine.engineCodes.map((c) => ({ ...c, docsUrl: ruleDocsUrl(c.id) })),
      ...compilerRules(list),
    ];
    const text = formatter(list, {
      cwd: io.cwd,
      sources,
      color: opts.output ? program.opts().color === true : useColor(program, io, "stdout"),
      width: io.stdout.columns ?? 160,
      rules: rulesMeta,
      files: targets.map((t) => t.file),
      version: programVersion(program),
      fixes,
    });
    if (opts.output) writeOrFail(resolve(io.cwd, opts.output), text, opts.output);
    else await write(io.stdout, text);
    return exit;
  }

  /** Compiler codes in the output, described from the PS1xx catalogue. */
  function compilerRules(list: readonly Diagnostic[]) {
    const cat = compilerDiagnostics.catalogue as Record<string, { title: string; message: string }>;
    const codes = [...new Set(list.map((d) => d.code))].filter((c) => c in cat).sort();
    return codes.map((c) => ({
      id: c,
      description: `${cat[c]!.title}: ${fillTemplate(cat[c]!.message, (name) => `<${name}>`)}`,
      defaultSeverity: "error" as const,
      docsUrl: compilerDiagnostics.diagnosticsDocsUrl(c),
    }));
  }
}

function programVersion(program: Command): string | undefined {
  return typeof program.version === "function" ? (program.version() as string | undefined) : undefined;
}

function writeOrFail(path: string, text: string, shown: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  } catch (err) {
    throw new UsageError(`cannot write ${shown}: ${(err as Error).message}`);
  }
}

/** Config problems are input errors: printed with code frames on stderr, exit 2. */
async function printConfigErrors(diagnostics: Diagnostic[], program: Command, io: CliIO): Promise<number> {
  const { renderText } = await import("../lint/format/stylish.js");
  const { readFileSync } = await import("node:fs");
  const sources = new Map<string, { index: LineIndex }>();
  for (const f of new Set(diagnostics.map((d) => d.file))) {
    try {
      sources.set(f, { index: new LineIndex(readFileSync(resolve(io.cwd, f), "utf8")) });
    } catch {
      // An unreadable config is reported without a frame.
    }
  }
  await write(io.stderr, renderText(diagnostics, { sources, color: useColor(program, io, "stderr") }));
  return 2;
}
