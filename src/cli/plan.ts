/** `planspec plan "<goal>" --tools catalog.yaml -o plan`: an LLM plans, the compiler and linter check, repairs go back. */
import { rmSync, writeFileSync } from "node:fs";
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import type { ProviderName, ProviderOptions, TraceEvent } from "../planner/index.js";
import { UsageError, write } from "./io.js";
import { useColor } from "./color.js";
import { collect } from "./run.js";

interface PlanOpts extends ProviderFlags {
  tools?: string;
  templates: string[];
  candidates: string;
  maxRepairs: string;
  out: string;
  trace?: string;
  replay?: string;
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

/** `--provider` names one of the wire protocols the planner speaks. */
export function checkProvider(name: string): asserts name is ProviderName {
  if (name !== "openai" && name !== "anthropic" && name !== "azure") throw new UsageError(`--provider must be openai, anthropic or azure, got "${name}"`);
}

/** `--header NAME=VALUE` (repeatable) as a header map; a malformed one is a usage error. */
export function headerOptions(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*[=:]\s?(.*)$/s.exec(v);
    if (!m) throw new UsageError(`--header must be NAME=VALUE (e.g. --header "HTTP-Referer=https://example.org"), got "${v}"`);
    out[m[1]!] = m[2]!;
  }
  return out;
}

/** Parses a positive number of seconds into milliseconds; a usage error otherwise. */
function secondsOption(value: string, flag: string): number {
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`${flag} must be a positive number of seconds, got "${value}"`);
  return Math.round(n * 1000);
}

/** The provider flags every LLM command shares (`--timeout`, `--retries`, `--deadline`, `--max-tokens`, `--header`, `--api-version`). */
export interface ProviderFlags {
  provider: string;
  model?: string;
  baseUrl?: string;
  timeout: string;
  retries?: string;
  deadline?: string;
  maxTokens?: string;
  header?: string[];
  apiVersion?: string;
}

/** The flags as makeProvider options, validated (usage errors name the flag). */
export function providerOptions(f: ProviderFlags, env: NodeJS.ProcessEnv): ProviderOptions {
  checkProvider(f.provider);
  const policy: ProviderOptions["policy"] = { timeoutMs: secondsOption(f.timeout, "--timeout") };
  if (f.retries !== undefined) policy.maxRetries = integerOption(f.retries, "--retries", 0);
  if (f.deadline !== undefined) policy.deadlineMs = secondsOption(f.deadline, "--deadline");
  const o: ProviderOptions = { provider: f.provider, env, policy, headers: headerOptions(f.header ?? []) };
  if (f.model !== undefined) o.model = f.model;
  if (f.baseUrl !== undefined) o.baseUrl = f.baseUrl;
  if (f.maxTokens !== undefined) o.maxTokens = integerOption(f.maxTokens, "--max-tokens", 1);
  if (f.apiVersion !== undefined) o.apiVersion = f.apiVersion;
  return o;
}

/** Adds the provider flags to a command. */
export function addProviderFlags(cmd: Command): Command {
  return cmd
    .option("--provider <name>", "openai (any OpenAI-compatible server), anthropic or azure", "openai")
    .option("--model <model>", "the model name; on Azure the deployment (default: gpt-4.1-mini / claude-sonnet-4-5)")
    .option("--base-url <url>", "the API base URL, e.g. http://localhost:11434/v1 for Ollama (default: OPENAI_BASE_URL / ANTHROPIC_BASE_URL / AZURE_OPENAI_ENDPOINT)")
    .option("--max-tokens <n>", "the output token limit (default: none for OpenAI-compatible servers, 8192 for Anthropic)")
    .option("--header <name=value>", "an extra request header (gateways, OpenRouter); repeatable", collect, [])
    .option("--api-version <v>", "Azure OpenAI api-version (default: OPENAI_API_VERSION, else 2024-10-21)")
    .option("--timeout <seconds>", "per-request timeout (a timeout is not retried)", "120")
    .option("--retries <n>", "retries on 408, 409, 429, 5xx and network errors", "3")
    .option("--deadline <seconds>", "all attempts and waits of one model call together (default: 300, or --timeout if longer)");
}

/** Parses an integer option, a usage error when it is not an integer >= `min`. */
export function integerOption(value: string, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${flag} must be an integer >= ${min}, got "${value}"`);
  return n;
}

export function registerPlan(program: Command, ctx: ActionContext): void {
  const cmd = program
    .command("plan")
    .description("ask an LLM for a plan for a goal; compile and lint it, feed errors back for repair; write it for review")
    .argument("[goal]", "what the plan must achieve (taken from the trace with --replay)")
    .option("--tools <catalog>", "the tool catalogue (*.catalog.yaml) the plan may use; attached to the plan")
    .option("--templates <file>", "a template the model may use as a standard workflow; repeatable", collect, [])
    .option("--candidates <k>", "ask for k plans, score them and keep the lowest-risk adequate one", "1")
    .option("--max-repairs <n>", "how many times diagnostics go back to the model", "2")
    .option("-o, --out <base>", "output base name: writes <base>.plan.yaml, <base>.ir.json, <base>.trace.jsonl", "plan")
    .option("--trace <file>", "where the trace goes (default <base>.trace.jsonl)")
    .option("--replay <trace>", "re-run the loop from a recorded trace, answers taken from it in order; no network");
  addProviderFlags(cmd)
    .addHelpText(
      "after",
      `\nExamples:\n  $ OPENAI_API_KEY=... planspec plan "Fix the login retry bug and add a regression test" --tools tools.catalog.yaml -o fix\n  $ planspec plan "Summarise the CSV" --tools csv.catalog.yaml --base-url http://localhost:11434/v1 --model qwen2.5\n  $ ANTHROPIC_API_KEY=... planspec plan "..." --provider anthropic --tools tools.catalog.yaml --candidates 3\n  $ planspec plan "..." --tools tools.catalog.yaml --model o4-mini --max-tokens 16000\n  $ planspec plan "..." --tools tools.catalog.yaml --base-url https://openrouter.ai/api/v1 --model openai/gpt-4.1 --header "X-Title=planspec"\n  $ AZURE_OPENAI_API_KEY=... planspec plan "..." --provider azure --base-url https://my-res.openai.azure.com --model my-gpt41 --tools tools.catalog.yaml\n  $ HTTPS_PROXY=http://proxy.corp:3128 planspec plan "..." --tools tools.catalog.yaml\n  $ planspec plan --replay specs/planner/fix-typo.trace.jsonl -o /tmp/replayed\n\nKeys come from OPENAI_API_KEY / ANTHROPIC_API_KEY / AZURE_OPENAI_API_KEY and are never written to the trace or printed.\nAlso read: OPENAI_BASE_URL, ANTHROPIC_BASE_URL, AZURE_OPENAI_ENDPOINT, OPENAI_API_VERSION, OPENAI_ORG_ID, OPENAI_PROJECT_ID, HTTP(S)_PROXY, NO_PROXY.\nExit codes: 0 the plan compiles and lints clean, 1 it does not (after repairs), 2 usage, key, network or server error.\n`,
    )
    .action(
      ctx.action(async (goalArg: string | undefined, opts: PlanOpts) => {
        const { io } = ctx;
        const planner = await import("../planner/index.js");
        const { resolve } = await import("node:path");
        const candidates = integerOption(opts.candidates, "--candidates", 1);
        const maxRepairs = integerOption(opts.maxRepairs, "--max-repairs", 0);
        const settings = providerOptions(opts, io.env);

        const base = outputBase(opts.out);
        const planFile = `${base}.plan.yaml`;
        const irFile = `${base}.ir.json`;
        const traceFile = opts.trace ?? `${base}.trace.jsonl`;
        try {
          let provider: import("../planner/index.js").Provider;
          let secrets: string[] = [];
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
            const made = await planner.makeProvider(settings);
            provider = made.provider;
            secrets = made.secrets;
          }
          if (!goal || goal.trim() === "") throw new UsageError("a goal is required: planspec plan \"<goal>\" --tools catalog.yaml");
          if (!catalog) throw new UsageError("--tools <catalog> is required: the plan may use only catalogued tools");

          // Read the replayed trace fully before this opens (and truncates) the new one: they may be the same file.
          const trace = new planner.FileTrace(resolve(io.cwd, traceFile), secrets);
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
