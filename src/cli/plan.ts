/** `planspec plan "<goal>" --tools catalog.yaml -o plan`: an LLM plans, the compiler and linter check, repairs go back. */
import { rmSync, writeFileSync } from "node:fs";
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import type { ProviderName, TraceEvent } from "../planner/index.js";
import { UsageError, write } from "./io.js";
import { useColor } from "./color.js";
import { collect } from "./run.js";

interface PlanOpts {
  tools?: string;
  templates: string[];
  provider: string;
  model?: string;
  baseUrl?: string;
  candidates: string;
  maxRepairs: string;
  out: string;
  trace?: string;
  replay?: string;
  timeout: string;
  retries: string;
}

/** `plan`, `plan.plan.yaml`, `plan.ir.json` → the base `plan` the three outputs share. */
export function outputBase(out: string): string {
  return out.replace(/\.(plan\.yaml|plan\.yml|plan\.json|ir\.json|trace\.jsonl|ya?ml|json)$/i, "");
}

/** Reads a `--replay` trace; a file that cannot be read or parsed is a usage error. */
export async function readReplayTrace(file: string, cwd: string): Promise<TraceEvent[]> {
  const { readTrace } = await import("../planner/index.js");
  const { resolve } = await import("node:path");
  try {
    return readTrace(resolve(cwd, file));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(e.code ? `cannot read trace ${file}: ${e.code}` : e.message);
  }
}

/** `--provider` names one of the two wire protocols the planner speaks. */
export function checkProvider(name: string): asserts name is ProviderName {
  if (name !== "openai" && name !== "anthropic") throw new UsageError(`--provider must be openai or anthropic, got "${name}"`);
}

/** Parses an integer option, a usage error when it is not an integer >= `min`. */
export function integerOption(value: string, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${flag} must be an integer >= ${min}, got "${value}"`);
  return n;
}

export function registerPlan(program: Command, ctx: ActionContext): void {
  program
    .command("plan")
    .description("ask an LLM for a plan for a goal; compile and lint it, feed errors back for repair; write it for review")
    .argument("[goal]", "what the plan must achieve (taken from the trace with --replay)")
    .option("--tools <catalog>", "the tool catalogue (*.catalog.yaml) the plan may use; attached to the plan")
    .option("--templates <file>", "a template the model may use as a standard workflow; repeatable", collect, [])
    .option("--provider <name>", "openai (any OpenAI-compatible server) or anthropic", "openai")
    .option("--model <model>", "the model name (default: gpt-4.1-mini / claude-sonnet-4-5)")
    .option("--base-url <url>", "the API base URL, e.g. http://localhost:11434/v1 for Ollama")
    .option("--candidates <k>", "ask for k plans, score them and keep the lowest-risk adequate one", "1")
    .option("--max-repairs <n>", "how many times diagnostics go back to the model", "2")
    .option("-o, --out <base>", "output base name: writes <base>.plan.yaml, <base>.ir.json, <base>.trace.jsonl", "plan")
    .option("--trace <file>", "where the trace goes (default <base>.trace.jsonl)")
    .option("--replay <trace>", "re-run the loop from a recorded trace, answers taken from it in order; no network")
    .option("--timeout <seconds>", "per-request timeout", "120")
    .option("--retries <n>", "retries on 429, 5xx, timeouts and network errors", "3")
    .addHelpText(
      "after",
      `\nExamples:\n  $ OPENAI_API_KEY=... planspec plan "Fix the login retry bug and add a regression test" --tools tools.catalog.yaml -o fix\n  $ planspec plan "Summarise the CSV" --tools csv.catalog.yaml --base-url http://localhost:11434/v1 --model qwen2.5\n  $ ANTHROPIC_API_KEY=... planspec plan "..." --provider anthropic --tools tools.catalog.yaml --candidates 3\n  $ planspec plan --replay specs/planner/fix-typo.trace.jsonl -o /tmp/replayed\n\nKeys come from OPENAI_API_KEY / ANTHROPIC_API_KEY and are never written to the trace.\nExit codes: 0 the plan compiles and lints clean, 1 it does not (after repairs), 2 usage, key, network or server error.\n`,
    )
    .action(
      ctx.action(async (goalArg: string | undefined, opts: PlanOpts) => {
        const { io } = ctx;
        const planner = await import("../planner/index.js");
        const { resolve } = await import("node:path");
        const candidates = integerOption(opts.candidates, "--candidates", 1);
        const maxRepairs = integerOption(opts.maxRepairs, "--max-repairs", 0);
        const timeoutS = Number(opts.timeout);
        if (!(timeoutS > 0)) throw new UsageError(`--timeout must be a positive number of seconds, got "${opts.timeout}"`);
        const retries = integerOption(opts.retries, "--retries", 0);
        checkProvider(opts.provider);

        const base = outputBase(opts.out);
        const planFile = `${base}.plan.yaml`;
        const irFile = `${base}.ir.json`;
        const traceFile = opts.trace ?? `${base}.trace.jsonl`;
        try {
          let provider: import("../planner/index.js").Provider;
          let secret = "";
          let goal = goalArg;
          let catalog: import("../planner/index.js").Catalog | undefined = opts.tools ? planner.loadCatalog(opts.tools, io.cwd) : undefined;
          let templates = opts.templates.map((t) => planner.loadTemplate(t, io.cwd));
          if (opts.replay) {
            const events = await readReplayTrace(opts.replay, io.cwd);
            const start = planner.traceStart(events);
            if (!start) throw new UsageError(`${opts.replay} has no start event: not a planspec plan trace`);
            goal ??= typeof start.goal === "string" ? start.goal : undefined;
            catalog ??= start.catalog as import("../planner/index.js").Catalog | undefined;
            if (!opts.templates.length) templates = planner.templatesFromTrace(start.templates, io.cwd);
            provider = new planner.ReplayProvider(planner.recordedCompletions(events), start);
          } else {
            const made = await planner.makeProvider({
              provider: opts.provider,
              model: opts.model,
              baseUrl: opts.baseUrl,
              env: io.env,
              policy: { timeoutMs: timeoutS * 1000, maxRetries: retries },
            });
            provider = made.provider;
            secret = made.secret;
          }
          if (!goal || goal.trim() === "") throw new UsageError("a goal is required: planspec plan \"<goal>\" --tools catalog.yaml");
          if (!catalog) throw new UsageError("--tools <catalog> is required: the plan may use only catalogued tools");

          // Read the replayed trace fully before this opens (and truncates) the new one: they may be the same file.
          const trace = new planner.FileTrace(resolve(io.cwd, traceFile), secret ? [secret] : []);
          const { results, scores, chosen } = await planner.planGoal({ goal, provider, catalog, templates, planFile, cwd: io.cwd, maxRepairs, candidates, trace });
          return await report(io, program, { results, scores, chosen, planFile, irFile, traceFile, candidates });
        } catch (err) {
          if (err instanceof planner.PlannerError) throw new UsageError(err.message);
          throw err;
        }
      }),
    );
}

interface ReportArgs {
  results: import("../planner/index.js").LoopResult[];
  scores: import("../planner/index.js").Score[];
  chosen: import("../planner/index.js").LoopResult;
  planFile: string;
  irFile: string;
  traceFile: string;
  candidates: number;
}

/** Writes the chosen plan and prints the lint result; the exit code says whether it is clean. */
async function report(io: ActionContext["io"], program: Command, a: ReportArgs): Promise<number> {
  const { resolve } = await import("node:path");
  const { scoreTable } = await import("../planner/index.js");
  const { renderText } = await import("../lint/format/stylish.js");
  const color = useColor(program, io, "stdout");
  const c = a.chosen;
  if (a.candidates > 1) await write(io.stdout, scoreTable(a.scores, c.ok ? c.candidate : undefined));
  const written: string[] = [];
  if (c.checked) {
    writeFileSync(resolve(io.cwd, a.planFile), c.checked.yaml);
    written.push(a.planFile);
  }
  const ir = c.checked?.compiled.ir;
  if (ir && c.ok) {
    writeFileSync(resolve(io.cwd, a.irFile), JSON.stringify(ir, null, 2) + "\n");
    written.push(a.irFile);
  } else {
    // A stale IR from an earlier run must not pass for this one.
    rmSync(resolve(io.cwd, a.irFile), { force: true });
  }
  written.push(a.traceFile);
  if (c.checked && c.diagnostics.length) await write(io.stdout, renderText(c.diagnostics, { sources: c.checked.compiled.sources, color, width: io.stdout.columns ?? 160 }));
  const errors = c.problem ? 1 : c.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = c.diagnostics.filter((d) => d.severity === "warning").length;
  const rounds = a.results.reduce((n, r) => n + r.rounds, 0);
  const tokensIn = a.results.reduce((n, r) => n + r.usage.inputTokens, 0);
  const tokensOut = a.results.reduce((n, r) => n + r.usage.outputTokens, 0);
  const usage = `${rounds} model call${rounds === 1 ? "" : "s"}, ${tokensIn} tokens in, ${tokensOut} out`;
  if (c.problem) await write(io.stdout, `the last answer could not be read: ${c.problem}\n`);
  const verdict = c.ok
    ? `${a.planFile}: compiles and lints clean${warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""}`
    : `${a.planFile}: ${errors} error${errors === 1 ? "" : "s"} left after ${c.rounds - 1} repair${c.rounds - 1 === 1 ? "" : "s"}`;
  await write(io.stdout, `${verdict}; ${usage}\nwrote ${written.join(", ")}\n`);
  return c.ok ? 0 : 1;
}
