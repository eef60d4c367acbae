/** `planspec graph FILE`: the plan's DAG as Mermaid or DOT. */
import type { Command } from "commander";
import { Option } from "commander";
import type { ActionContext } from "./main.js";
import { useColor } from "./color.js";
import { write } from "./io.js";
import { loadIR } from "./shared.js";

export function registerGraph(program: Command, ctx: ActionContext): void {
  program
    .command("graph")
    .description("print the plan's DAG (steps shaped by kind, coloured by risk)")
    .argument("<file>", "a plan (*.plan.yaml, *.plan.json) or an IR file (*.ir.json)")
    .addOption(new Option("-f, --format <format>", "output format").choices(["mermaid", "dot"]).default("mermaid"))
    .addHelpText(
      "after",
      `
Examples:
  $ planspec graph specs/examples/csv-anomalies.plan.yaml
  $ planspec graph plan.plan.yaml --format dot | dot -Tsvg > plan.svg`,
    )
    .action(
      ctx.action(async (file: string, opts: { format: "mermaid" | "dot" }) => {
        const { io } = ctx;
        const ir = await loadIR(file, io, useColor(program, io, "stderr"));
        if (typeof ir === "number") return ir;
        const { toMermaid, toDot } = await import("../report/graph-text.js");
        await write(io.stdout, opts.format === "dot" ? toDot(ir) : toMermaid(ir));
        return 0;
      }),
    );
}
