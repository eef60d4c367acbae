/** `planspec graph FILE`: the plan's DAG as Mermaid, DOT or SVG. */
import type { Command } from "commander";
import { Option } from "commander";
import type { ActionContext } from "./main.js";
import { useColor } from "./color.js";
import { UsageError, write } from "./io.js";
import { loadIR } from "./shared.js";

export function registerGraph(program: Command, ctx: ActionContext): void {
  program
    .command("graph")
    .description("print the plan's DAG (steps shaped by kind, coloured by risk)")
    .argument("<file>", "a plan (*.plan.yaml, *.plan.json) or an IR file (*.ir.json)")
    .addOption(new Option("-f, --format <format>", "output format").choices(["mermaid", "dot", "svg"]).default("mermaid"))
    .option("-o, --output <file>", "write to FILE instead of stdout")
    .addHelpText(
      "after",
      `
Examples:
  $ planspec graph specs/examples/csv-anomalies.plan.yaml
  $ planspec graph plan.plan.yaml --format dot | dot -Tsvg > plan.svg
  $ planspec graph plan.plan.yaml --format svg -o plan.svg`,
    )
    .action(
      ctx.action(async (file: string, opts: { format: "mermaid" | "dot" | "svg"; output?: string }) => {
        const { io } = ctx;
        const ir = await loadIR(file, io, useColor(program, io, "stderr"));
        if (typeof ir === "number") return ir;
        let text: string;
        if (opts.format === "svg") {
          const { renderSvg } = await import("../report/svg-graph.js");
          text = renderSvg(ir) + "\n";
        } else {
          const { toMermaid, toDot } = await import("../report/graph-text.js");
          text = opts.format === "dot" ? toDot(ir) : toMermaid(ir);
        }
        if (opts.output === undefined) {
          await write(io.stdout, text);
          return 0;
        }
        const { writeFile } = await import("node:fs/promises");
        const { resolve } = await import("node:path");
        try {
          await writeFile(resolve(io.cwd, opts.output), text);
        } catch (err) {
          throw new UsageError(`cannot write ${opts.output}: ${(err as Error).message}`);
        }
        return 0;
      }),
    );
}
