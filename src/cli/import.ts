/** `planspec import taskbench`: TaskBench predictions -> planspec plan files (JSON form). */
import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ActionContext } from "./main.js";
import { UsageError, write } from "./io.js";
import { registerImportMcp } from "./import-mcp.js";

interface TaskBenchOptions {
  tools: string;
  domain?: string;
  out: string;
  json?: boolean;
  verbose?: boolean;
}

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(`cannot read ${what} ${file}: ${e.code === "ENOENT" ? "no such file" : (e.code ?? e.message)}`);
  }
}

const HELP = `
Each JSON line { id, user_request, result: { task_steps, task_nodes } } becomes
DIR/<id>.plan.json: one step per task node (tool = the task name, with.args = the
arguments), needs rebuilt from "<node-j>" references, the tool catalogue taken from
tool_desc.json. Malformed plans (self-references, unknown tools, references to missing
nodes) are written as they are, so \`planspec compile\`/\`lint\` reports them; lines with no
usable plan (bad JSON, no result, no task_nodes) are rejected and listed on stderr.
A dailylifeapis tool_desc.json (typed "parameters", no input-type) is detected: its
plans take with = { name: value } per argument, needs from "task_links", and each tool
its reviewed risk (docs/evals.md#dailylifeapis).

Exit status: 0 all plans imported, 1 some lines rejected, 2 usage or input error.

Examples:
  $ planspec import taskbench predictions.jsonl --tools tool_desc.json --out plans/
  $ planspec import taskbench predictions.jsonl --tools tool_desc.json --out plans/ --json
  $ planspec import taskbench daily.jsonl --tools dailylifeapis/tool_desc.json --out plans/   # detected: dailylifeapis
`;

/** Registers `import` and its `taskbench` subcommand. */
export function registerImport(program: Command, ctx: ActionContext): void {
  const cmd = program.command("import").description("convert plans from other formats into planspec plan files");
  cmd
    .command("taskbench")
    .description("convert TaskBench predictions (JSON lines) into DIR/<id>.plan.json files")
    .argument("<predictions>", "predictions file, one JSON plan per line")
    .requiredOption("--tools <tool_desc.json>", "the domain's TaskBench tool_desc.json")
    .requiredOption("--out <dir>", "directory to write the plan files to (created if missing)")
    .option("--domain <name>", "multimedia (resource links) | dailylifeapis (typed parameters, temporal task_links); default: detected from tool_desc.json")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--verbose", "also list each malformed plan that was written (on stderr)")
    .addHelpText("after", HELP)
    .action(
      ctx.action(async (predictions: string, opts: TaskBenchOptions) => {
        const { io } = ctx;
        const { importTaskBench, ImportWriteError } = await import("../eval/taskbench/importer.js");
        const { parseToolDesc } = await import("../eval/taskbench/tool-desc.js");

        const toolsFile = resolve(io.cwd, opts.tools);
        let toolJson: unknown;
        try {
          toolJson = JSON.parse(readText(toolsFile, "tool description"));
        } catch (err) {
          if (err instanceof UsageError) throw err;
          throw new UsageError(`${opts.tools} is not valid JSON: ${(err as Error).message}`);
        }
        const toolDesc = parseToolDesc(toolJson);
        if (!toolDesc.ok) throw new UsageError(`${opts.tools} is not a TaskBench tool_desc.json: ${toolDesc.reason}`);
        const { dailyLifeTools, toDailyLifePlanDoc } = await import("../eval/taskbench/dailylifeapis.js");
        const daily = dailyLifeTools(toolJson);
        if (opts.domain !== undefined && opts.domain !== "multimedia" && opts.domain !== "dailylifeapis") throw new UsageError(`--domain must be multimedia or dailylifeapis, got "${opts.domain}"`);
        if (opts.domain === "dailylifeapis" && !daily) throw new UsageError(`${opts.tools} has no typed "parameters" on every tool: it is not a dailylifeapis tool_desc.json`);
        const dailyTools = opts.domain !== "multimedia" && daily ? new Map(daily.map((t) => [t.id, t])) : undefined;
        const convert = dailyTools ? { convert: (record: Parameters<typeof toDailyLifePlanDoc>[0]) => toDailyLifePlanDoc(record, dailyTools) } : {};
        const text = readText(resolve(io.cwd, predictions), "predictions");

        // Progress only where a person watches; a pipe or CI log gets the summary alone.
        const tty = io.stderr.isTTY === true && !opts.json;
        const onProgress = tty ? (done: number, total: number) => void io.stderr.write(`\rimporting ${done}/${total}`) : undefined;
        let summary;
        try {
          summary = importTaskBench(text, { outDir: resolve(io.cwd, opts.out), toolDesc: toolDesc.tools, onProgress, ...convert });
        } catch (err) {
          if (err instanceof ImportWriteError) throw new UsageError(err.message);
          throw err;
        } finally {
          if (tty) io.stderr.write("\r\x1b[K");
        }

        if (opts.json) {
          const { outDir, imported, rejected, noteCounts, notes } = summary;
          await write(io.stdout, `${JSON.stringify({ out: outDir, imported, rejected: rejected.length, rejections: rejected, noteCounts, notes }, null, 2)}\n`);
        } else {
          const counts = Object.entries(summary.noteCounts).map(([kind, k]) => `${kind} ${k}`);
          let out = `imported ${summary.imported} plan${summary.imported === 1 ? "" : "s"} to ${opts.out} (${summary.rejected.length} rejected)\n`;
          if (counts.length > 0) out += `written with notes (the compiler reports most): ${counts.join(", ")}\n`;
          await write(io.stdout, out);
        }
        let err = "";
        for (const r of summary.rejected) err += `line ${r.line}${r.id !== undefined ? ` (id ${r.id})` : ""}: ${r.reason}\n`;
        if (opts.verbose && !opts.json) {
          for (const n of summary.notes) err += `line ${n.line} (id ${n.id}): ${n.kind}: ${n.message}\n`;
        }
        await write(io.stderr, err);
        return summary.rejected.length > 0 ? 1 : 0;
      }),
    );
  registerImportMcp(cmd, ctx);
}
