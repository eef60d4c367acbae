/** `planspec eval`: score plans against a suite; `eval recovery`, `eval taskbench`, `eval taskbench-report`. */
import { Option, type Command } from "commander";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { ActionContext } from "./main.js";
import type { CliIO } from "./io.js";
import { UsageError, write } from "./io.js";
import { useColor } from "./color.js";
import { collect, positiveInt } from "./run.js";
import { printDiagnostics } from "./shared.js";

function readText(io: CliIO, file: string, what: string): string {
  try {
    return readFileSync(resolve(io.cwd, file), "utf8");
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(`cannot read ${what} ${file}: ${e.code === "ENOENT" ? "no such file" : (e.code ?? e.message)}`);
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Writes the report to `-o FILE` (creating its directory) or stdout. */
async function emit(io: CliIO, text: string, out?: string): Promise<void> {
  if (!out) return write(io.stdout, text);
  const file = resolve(io.cwd, out);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  await write(io.stderr, `wrote ${out}\n`);
}

async function toolDescFrom(io: CliIO, file: string) {
  const { parseToolDesc } = await import("../eval/taskbench/tool-desc.js");
  const parsed = parseToolDesc(parseJson(readText(io, file, "tool description"), file));
  if (!parsed.ok) throw new UsageError(`${file} is not a TaskBench tool_desc.json: ${parsed.reason}`);
  return parsed.tools;
}

interface TaskBenchOptions { gold: string; pred: string; dependencyType: string; dependency_type?: string; prompting: string; splits: string[]; nTools: string[]; n_tools?: string[]; mode: string; lenient?: boolean }

interface SuiteOptions { plans?: string; replay?: string; planner?: string; baseUrl?: string; out?: string; format?: string; baseline?: string; min?: string; max?: string; output?: string; recovery?: boolean; tools: string[]; jobs: string; trials?: string }

const HELP = `
Plans are read from DIR/<case-id>.plan.yaml (or .plan.yml / .plan.json); a case with no
file scores 0. --planner plans every case's goal with an LLM (keys from OPENAI_API_KEY /
ANTHROPIC_API_KEY) and writes <case-id>.plan.yaml and <case-id>.trace.jsonl to --out DIR
(default: a temp dir, printed) before scoring it; a case with no readable answer scores 0.
--trials K plans every case K times (DIR/trial-1 .. trial-K) and adds pass^k: a case
passes^k when all K trials pass (compiles, coverage 1, nothing forbidden or hallucinated,
lint pass); pass^j for j < K and pass@1 are estimated from the same trials.
Metrics are defined in docs/evals.md. --recovery also runs every plan through the
fault-injection trials (slow: child processes).

Exit status: 0 all thresholds met, 1 a --min/--max threshold missed, 2 usage or input error.

Examples:
  $ planspec eval evals/code-change.suite.yaml --plans evals/code-change/gold
  $ planspec eval evals/code-change.suite.yaml --plans out/ --format json -o scores.json
  $ OPENAI_API_KEY=... planspec eval evals/code-change.suite.yaml --planner openai:gpt-4.1-mini --out runs/mini
  $ planspec eval evals/code-change.suite.yaml --replay runs/mini --format json -o scores.json
  $ planspec eval evals/dailylifeapis.suite.yaml --planner openai:gpt-4.1-mini --trials 4 --out runs/k4
  $ planspec eval evals/dailylifeapis.suite.yaml --replay runs/k4 --trials 4
  $ planspec eval evals/code-change.suite.yaml --planner openai:qwen2.5 --base-url http://localhost:11434/v1
  $ planspec eval evals/code-change.suite.yaml --plans out/ --format html --baseline scores.json -o eval.html
  $ planspec eval evals/code-change.suite.yaml --plans out/ --baseline scores.json --min coverage=0.9,lint_pass=1
  $ planspec eval recovery evals/approval-workflow/gold/expense-approval.plan.yaml
  $ planspec eval taskbench --gold data.json --pred predictions.jsonl --tools tool_desc.json -s all -n all --format json
  $ planspec eval taskbench-report predictions.jsonl --tools tool_desc.json -o evals/reports/taskbench-multimedia.md
`;

/** The one tool_desc.json of `--tools`, or a usage error. */
function toolDescOption(tools: string[]): string {
  if (tools.length !== 1) throw new UsageError(tools.length === 0 ? "--tools <tool_desc.json> is required" : "give one --tools <tool_desc.json>");
  return tools[0]!;
}

/** Registers `eval` and its subcommands. */
export function registerEval(program: Command, ctx: ActionContext): void {
  const cmd = program
    .command("eval")
    .description("score plans: a suite's coverage, redundancy, F1, risk, lint and recovery; TaskBench metrics")
    .argument("[suite]", "an eval suite file (evals/*.suite.yaml)")
    .option("--plans <dir>", "directory of plans named <case-id>.plan.yaml|json")
    .option("--replay <dir>", "directory of recorded planner outputs (same layout as --plans)")
    .option("--planner <provider:model>", "plan every case with an LLM first, e.g. openai:gpt-4.1-mini or anthropic:claude-sonnet-4-5")
    .option("--base-url <url>", "--planner's API base URL, e.g. http://localhost:11434/v1 for Ollama")
    .option("--out <dir>", "where --planner writes <case-id>.plan.yaml and .trace.jsonl (default: a temp dir)")
    .option("--format <format>", "table | json | md | html (recovery: table | json; taskbench: table | json)")
    .option("--baseline <file>", "a previous --format json report: print deltas")
    .option("--min <thresholds>", "exit 1 when a metric is below, e.g. coverage=0.9,recovery=1.0")
    .option("--max <thresholds>", "exit 1 when a metric is above, e.g. redundancy=0.1,forbidden=0")
    .option("-o, --output <file>", "write the report to a file instead of stdout")
    .option("--trials <k>", "with --planner: plan every case k times into OUT/trial-1..k and report pass^k (all k trials pass) and pass@1; with --replay: re-score such a directory")
    .option("--recovery", "also run the recovery trials of every plan")
    .option("--tools <file>", "tool module for recovery runs (repeatable); tool_desc.json for taskbench", collect, [])
    .option("--jobs <n>", "recovery trials run at once", "2")
    .addHelpText("after", HELP)
    .action(
      ctx.action(async (suiteFile: string | undefined, opts: SuiteOptions) => {
        const { io } = ctx;
        if (!suiteFile) throw new UsageError("eval needs a suite file (or a subcommand: recovery, taskbench, taskbench-report)");
        opts.format ??= "table";
        if (!["table", "json", "md", "html"].includes(opts.format)) throw new UsageError(`--format must be table, json, md or html, got "${opts.format}"`);
        let dir = opts.plans ?? opts.replay;
        if ([opts.plans, opts.replay, opts.planner].filter(Boolean).length > 1) throw new UsageError("give one of --plans, --replay or --planner");
        if (!dir && !opts.planner) throw new UsageError("eval needs --plans DIR (or --replay DIR)");
        if ((opts.out || opts.baseUrl) && !opts.planner) throw new UsageError("--out and --base-url go with --planner");
        if (dir) {
          try {
            if (!statSync(resolve(io.cwd, dir)).isDirectory()) throw new Error();
          } catch {
            throw new UsageError(`${dir} is not a directory`);
          }
        }
        const report = await import("../eval/report.js");
        let min: ReturnType<typeof report.parseThresholds> = [];
        let max: typeof min = [];
        try {
          min = report.parseThresholds(opts.min ?? "");
          max = report.parseThresholds(opts.max ?? "");
        } catch (err) {
          throw new UsageError(`${(err as Error).message}`);
        }
        if (!opts.recovery && [...min, ...max].some((t) => t.metric === "recovery")) throw new UsageError("a recovery threshold needs --recovery");
        const jobs = positiveInt("--jobs", opts.jobs) ?? 2;
        const trials = opts.trials === undefined ? undefined : positiveInt("--trials", opts.trials);
        if (trials !== undefined && !opts.planner && !opts.replay) throw new UsageError("--trials goes with --planner (or --replay of a --trials run)");
        const baseline = opts.baseline ? parseJson(readText(io, opts.baseline, "baseline"), opts.baseline) : undefined;

        const { loadSuite } = await import("../eval/suite.js");
        const loaded = loadSuite(suiteFile, io.cwd);
        if (!loaded.ok) {
          await printDiagnostics(loaded.diagnostics, loaded.sources, io, useColor(program, io, "stderr"));
          await write(io.stderr, `planspec: ${suiteFile} is not a valid suite\n`);
          return 2;
        }
        // --trials K: K plannings (or K recorded ones under DIR/trial-N), each scored on its own.
        const trialDirs: string[] = [];
        if (trials !== undefined) {
          if (opts.planner) {
            const base = opts.out ? resolve(io.cwd, opts.out) : mkdtempSync(join(tmpdir(), "planspec-eval-"));
            for (let t = 1; t <= trials; t++) trialDirs.push(join(base, `trial-${t}`));
          } else {
            for (let t = 1; t <= trials; t++) {
              const d = join(resolve(io.cwd, dir!), `trial-${t}`);
              if (!existsSync(d)) throw new UsageError(`${join(dir!, `trial-${t}`)} is missing: --replay DIR --trials ${trials} reads DIR/trial-1 .. DIR/trial-${trials}`);
              trialDirs.push(d);
            }
          }
        }
        if (opts.planner) {
          const { planSuite } = await import("./eval-planner.js");
          const plannerOpts = { planner: opts.planner, ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}) };
          if (trials === undefined) dir = await planSuite(loaded.suite, { ...plannerOpts, ...(opts.out ? { out: opts.out } : {}) }, io);
          else for (const [t, d] of trialDirs.entries()) {
            await write(io.stderr, `trial ${t + 1}/${trials}\n`);
            await planSuite(loaded.suite, { ...plannerOpts, out: d }, io);
          }
        }
        const { scoreSuite } = await import("../eval/score.js");
        const { recoverPlan } = await import("../eval/recovery.js");
        const { compileFile } = await import("../compiler/index.js");
        const toolModules = opts.tools.map((t) => resolve(io.cwd, t));
        const scoreDir = (d: string, withRecovery: boolean) =>
          scoreSuite(loaded.suite, d, {
            cwd: io.cwd,
            ...(withRecovery
              ? {
                  recovery: async (file: string) => {
                    const ir = compileFile(file, { cwd: io.cwd }).ir!;
                    const r = await recoverPlan(file, ir, { toolModules, jobs });
                    return { trials: r.trials.length, succeeded: r.succeeded, rate: r.rate, failures: r.trials.filter((t) => !t.ok).map((t) => ({ trial: t.name, reason: t.reason ?? "" })) };
                  },
                }
              : {}),
          });
        // The report and thresholds are trial 1's; the trials section adds pass^k over all of them.
        const score = await scoreDir(trialDirs[0] ?? resolve(io.cwd, dir!), opts.recovery === true);
        let trialsReport: import("../eval/trials.js").TrialsReport | undefined;
        if (trials !== undefined) {
          const { combineTrials } = await import("../eval/trials.js");
          const rest = [];
          for (const d of trialDirs.slice(1)) rest.push(await scoreDir(d, false));
          trialsReport = combineTrials([score, ...rest]);
        }
        let d: ReturnType<typeof report.deltas> | undefined;
        try {
          d = baseline === undefined ? undefined : report.deltas(score.summary, baseline);
        } catch (err) {
          throw new UsageError(`${opts.baseline}: ${(err as Error).message}`);
        }
        let text: string;
        if (opts.format === "html") {
          const { renderEvalHtml } = await import("../report/eval-html.js");
          // A baseline is a previous `--format json` report: a SuiteScore plus deltas.
          text = renderEvalHtml(score, baseline === undefined ? {} : { baseline: baseline as Parameters<typeof renderEvalHtml>[0] });
        } else {
          text = opts.format === "json" ? report.formatJson(score, d) : opts.format === "md" ? report.formatMarkdown(score, d) : report.formatTable(score, d);
          if (trialsReport) {
            const { formatTrials } = await import("../eval/trials.js");
            text = opts.format === "json" ? JSON.stringify({ ...JSON.parse(text), trials: trialsReport }, null, 2) + "\n" : text + formatTrials(trialsReport);
          }
        }
        await emit(io, text, opts.output);
        const misses = report.checkThresholds(score.summary, min, max);
        for (const m of misses) await write(io.stderr, `threshold missed: ${m}\n`);
        return misses.length > 0 ? 1 : 0;
      }),
    );

  const shared = () => cmd.opts<SuiteOptions>();

  cmd
    .command("recovery")
    .description("run fault-injection trials (crash at every step boundary and mid-step, transient failure, deleted artifact, changed input) on plans")
    .argument("<plans...>", "plan files")
    .option("--keep", "keep the trial workspaces for debugging")
    .option("--workspace-from <dir>", "start every trial's workspace as a copy of DIR (without .git, node_modules, .planspec)")
    .option("--faults <list>", "fault families: crash, error, timeout (a call that never answers), artifact, input, corrupt (silently wrong results); default crash, error, artifact, input")
    .addHelpText(
      "after",
      `\ncorrupt: each tool step's first call returns a wrong-shaped, truncated or subtly wrong result;\nthe trial succeeds when a success criterion catches it (the run then ends as the fault-free one).\n\nExit status: 0 every trial succeeded, 1 a trial failed, 2 usage or input error.\n\nExamples:\n  $ planspec eval recovery evals/approval-workflow/gold/expense-approval.plan.yaml\n  $ planspec eval recovery evals/approval-workflow/gold/*.plan.yaml --format json\n  $ planspec eval recovery specs/examples/csv-anomalies.plan.yaml --tools specs/examples/tools/csv-tools.mjs --workspace-from .\n  $ planspec eval recovery plan.yaml --tools tools.mjs --faults crash,error,corrupt\n`,
    )
    .action(
      ctx.action(async (plans: string[], own: { keep?: boolean; workspaceFrom?: string; faults?: string }) => {
        const { io } = ctx;
        // --tools, --jobs and --format belong to `eval` (commander hands shared option names to the parent).
        const opts = { ...shared(), ...own };
        opts.format ??= "text";
        if (opts.format === "table") opts.format = "text";
        if (!["text", "json"].includes(opts.format)) throw new UsageError(`--format must be text or json, got "${opts.format}"`);
        const jobs = positiveInt("--jobs", opts.jobs) ?? 2;
        const seed = own.workspaceFrom === undefined ? undefined : resolve(io.cwd, own.workspaceFrom);
        if (seed !== undefined && !statSync(seed, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--workspace-from ${own.workspaceFrom} is not a directory`);
        const { compileOrExit } = await import("./shared.js");
        const { recoverPlan, FAULT_KINDS } = await import("../eval/recovery.js");
        const families = { crash: ["boundary", "mid-step"], error: ["transient"], timeout: ["timeout"], artifact: ["artifact"], input: ["input"], corrupt: ["corrupt"] } as const;
        let faults: Array<(typeof families)[keyof typeof families][number]> | undefined;
        if (own.faults !== undefined) {
          const names = own.faults.split(",").map((x) => x.trim()).filter(Boolean);
          const bad = names.find((x) => !(FAULT_KINDS as readonly string[]).includes(x));
          if (bad !== undefined || names.length === 0) throw new UsageError(`--faults takes a comma list of ${FAULT_KINDS.join(", ")}; got "${own.faults}"`);
          faults = names.flatMap((x) => [...families[x as keyof typeof families]]);
        }
        const results = [];
        for (const file of plans) {
          const compiled = await compileOrExit(file, io, useColor(program, io, "stderr"));
          if (typeof compiled === "number") return 2;
          if (!compiled.ir) throw new UsageError(`${file} is a ${compiled.kind}, not a plan`);
          const r = await recoverPlan(resolve(io.cwd, file), compiled.ir, {
            toolModules: opts.tools.map((t) => resolve(io.cwd, t)),
            jobs,
            ...(opts.keep ? { keep: true } : {}),
            ...(seed ? { workspaceFrom: seed } : {}),
            ...(faults ? { faults } : {}),
          });
          results.push({ ...r, plan: file });
          if (opts.format === "text") {
            await write(io.stdout, `${file}: ${r.succeeded}/${r.trials.length} trials recovered (${(100 * r.rate).toFixed(1)} %)\n`);
            const per = Object.entries(r.byFault).map(([f, v]) => `${f} ${v.succeeded}/${v.trials}`);
            if (per.length) await write(io.stdout, `  by fault: ${per.join(", ")}${r.byFault.corrupt ? " (corrupt: caught by a criterion)" : ""}\n`);
            for (const t of r.trials.filter((x) => !x.ok)) await write(io.stdout, `  FAILED ${t.name}: ${t.reason ?? ""}\n`);
          }
        }
        const trials = results.reduce((a, r) => a + r.trials.length, 0);
        const ok = results.reduce((a, r) => a + r.succeeded, 0);
        const rate = trials === 0 ? 1 : ok / trials;
        if (opts.format === "json") await write(io.stdout, JSON.stringify({ rate, trials, succeeded: ok, plans: results }, null, 2) + "\n");
        else await write(io.stdout, `recovery success rate: ${ok}/${trials} (${(100 * rate).toFixed(1)} %)\n`);
        return ok === trials ? 0 : 1;
      }),
    );

  cmd
    .command("taskbench")
    .description("every TaskBench metric of its evaluate.py (node micro/macro/per-tool, t-F1/v-F1, links, edit distance, per split and tool count), plus redundancy and lint pass rate")
    .requiredOption("--gold <data.json>", "TaskBench gold records (JSON lines or a JSON array)")
    .requiredOption("--pred <predictions.jsonl>", "predictions, one JSON line per plan")
    .option("--dependency-type <type>", "resource (links from <node-i> arguments) | temporal (links from task_links, dailylifeapis)", "resource")
    .option("--prompting <mode>", "cot (task_steps required, as for the step metrics) | direct", "cot")
    .option("-s, --splits <split>", "overall | single | chain | dag | all (repeatable)", collect, [])
    .option("-n, --n-tools <n>", "overall | a node count | all (repeatable)", collect, [])
    .option("--mode <mode>", "how -s and -n combine: add | mul", "add")
    .option("--lenient", "skip and count the lines evaluate.py would stop on, instead of failing")
    .addOption(new Option("--dependency_type <type>").hideHelp())
    .addOption(new Option("--n_tools <n>").argParser(collect).hideHelp())
    .addHelpText(
      "after",
      `
Also takes --tools <tool_desc.json> (required) and --format table|json. Definitions are in
docs/evals.md; --format json names every figure as evaluate.py's metrics file does, under
"groups" ("<split>_<n_tools>"). A line evaluate.py would stop on (not JSON, a record
without an id, unreadable task_links) is an error naming the line, unless --lenient.

Examples:
  $ planspec eval taskbench --gold data.json --pred predictions.jsonl --tools tool_desc.json
  $ planspec eval taskbench --gold data.json --pred p.jsonl --tools tool_desc.json -s all -n all --format json
  $ planspec eval taskbench --gold data.json --pred p.jsonl --tools tool_desc.json --dependency-type temporal --prompting direct
`,
    )
    .action(
      ctx.action(async (own: TaskBenchOptions) => {
        const { io } = ctx;
        const base = shared();
        const opts = { ...own, tools: toolDescOption(base.tools), format: base.format ?? "table" };
        if (!["table", "json"].includes(opts.format)) throw new UsageError(`--format must be table or json, got "${opts.format}"`);
        const dependencyType = own.dependency_type ?? own.dependencyType;
        if (dependencyType !== "resource" && dependencyType !== "temporal") throw new UsageError(`--dependency-type must be resource or temporal, got "${dependencyType}"`);
        if (own.mode !== "add" && own.mode !== "mul") throw new UsageError(`--mode must be add or mul, got "${own.mode}"`);
        const rawDesc = parseJson(readText(io, opts.tools, "tool description"), opts.tools);
        const tools = await toolDescFrom(io, opts.tools);
        const nodes = ((rawDesc as { nodes?: unknown }).nodes ?? rawDesc) as Array<Record<string, unknown>>;
        const untyped = dependencyType === "resource" ? nodes.find((t) => !("output-type" in t)) : undefined;
        if (untyped) throw new UsageError(`${opts.tools}: tool "${String(untyped.id)}" has no "output-type", which resource links need; for a domain such as dailylifeapis give --dependency-type temporal`);
        const { readRecords, evaluateTaskBench, TaskBenchStop } = await import("../eval/taskbench/evaluate.js");
        const { corpusStats } = await import("../eval/taskbench/corpus.js");
        const predText = readText(io, opts.pred, "predictions");
        let r;
        try {
          r = evaluateTaskBench(
            readRecords(opts.gold, readText(io, opts.gold, "gold data")),
            readRecords(opts.pred, predText),
            [...tools.values()].map((t) => ({ id: t.id, outputType: t.outputTypes[0] ?? "none" })),
            {
              dependencyType,
              prompting: own.prompting,
              splits: own.splits.length ? own.splits : ["overall"],
              nTools: [...own.nTools, ...(own.n_tools ?? [])].length ? [...own.nTools, ...(own.n_tools ?? [])] : ["overall"],
              mode: own.mode,
              ...(own.lenient ? { lenient: true } : {}),
            },
          );
        } catch (err) {
          // evaluate.py would stop on this line (it reads predictions with `exit()` on the first bad one).
          if (err instanceof TaskBenchStop) throw new UsageError(`${err.message}: evaluate.py stops here (fix the line, or give --lenient to skip and count such lines)`);
          throw err;
        }
        const ours = corpusStats(predText, tools);
        const overall = r.groups.overall_overall;
        const taskbench =
          overall === undefined ? null : (
            {
              samples: overall.all_samples,
              scored: overall.node_supports,
              dropped: r.dropped.overall_overall ?? [],
              metrics:
                r.links.overall_overall === undefined ? null : (
                  {
                    node: { precision: overall.node_micro_precision_no_matching, recall: overall.node_micro_recall_no_matching, f1: overall.node_micro_f1_no_matching },
                    link: r.links.overall_overall,
                    editDistance: overall.edit_distance,
                  }
                ),
            }
          );
        const out = { taskbench, groups: r.groups, dropped: r.dropped, skipped: r.skipped, redundancy: ours.meanRedundancy, lint_pass: ours.lintPass, hallucinated_plans: ours.hallucinatedPlans, malformed_plans: ours.malformed, plans: ours.plans };
        if (opts.format === "json") {
          await write(io.stdout, JSON.stringify(out, null, 2) + "\n");
          return 0;
        }
        const f = (x: number | undefined) => (x === undefined ? "n/a" : x.toFixed(4));
        const lines: string[] = [];
        for (const [key, g] of Object.entries(r.groups)) {
          lines.push(
            `[${key}] samples ${g.all_samples}, supports: steps ${g.step_supports}, nodes ${g.node_supports}, links ${g.link_supports}, arguments ${g.argument_supports}`,
            `  node micro  P ${f(g.node_micro_precision_no_matching)}  R ${f(g.node_micro_recall_no_matching)}  F1 ${f(g.node_micro_f1_no_matching)}`,
            `  node macro  P ${f(g.node_macro_precision_no_matching)}  R ${f(g.node_macro_recall_no_matching)}  F1 ${f(g.node_macro_f1_no_matching)}`,
            `  link F1 ${f(g.link_binary_f1)}  t-F1 ${f(g.argument_task_argname_binary_f1_no_matching)}  v-F1 ${f(g.argument_task_argname_value_binary_f1_no_matching)}  edit distance ${f(g.edit_distance)}`,
          );
        }
        if (r.skipped.length) lines.push(`skipped ${r.skipped.length} line${r.skipped.length === 1 ? "" : "s"} evaluate.py would stop on (--lenient): ${r.skipped.slice(0, 5).map((s) => `${s.file}:${s.line}`).join(", ")}${r.skipped.length > 5 ? ", ..." : ""}`);
        lines.push(
          `redundancy ${ours.meanRedundancy.toFixed(4)} (mean over ${ours.compiled} compiled plans), lint pass rate ${ours.lintPass.toFixed(4)}`,
          `hallucinated tools in ${ours.hallucinatedPlans} plans, ${ours.malformed} malformed plans of ${ours.plans}`,
        );
        await write(io.stdout, lines.join("\n") + "\n");
        return 0;
      }),
    );

  cmd
    .command("taskbench-report")
    .description("write the Markdown report of a TaskBench predictions corpus: redundancy, hallucinated tools, malformed plans, lint findings per rule")
    .argument("<predictions>", "predictions, one JSON line per plan")
    .addHelpText("after", "\nAlso takes --tools <tool_desc.json> (required) and -o FILE.\n")
    .option("--title <text>", "the report's title", "TaskBench multimedia: what the planspec metrics and linter find")
    .action(
      ctx.action(async (predictions: string, own: { title: string }) => {
        const { io } = ctx;
        const parent = shared();
        const opts = { ...own, tools: toolDescOption(parent.tools), ...(parent.output ? { output: parent.output } : {}) };
        const tools = await toolDescFrom(io, opts.tools);
        const text = readText(io, predictions, "predictions");
        const { corpusStats } = await import("../eval/taskbench/corpus.js");
        const { formatCorpusReport } = await import("../eval/taskbench/corpus-report.js");
        const stats = corpusStats(text, tools);
        const base = (p: string) => p.replace(/^.*[\\/]/, "");
        const command = `planspec eval taskbench-report ${base(predictions)} --tools ${base(opts.tools)}${opts.output ? ` -o ${opts.output}` : ""}`;
        await emit(io, formatCorpusReport(stats, { title: opts.title, command, source: base(predictions) }), opts.output);
        return 0;
      }),
    );
}
