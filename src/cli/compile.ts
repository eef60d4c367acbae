/** `planspec compile FILE`: print or write the IR, or the diagnostics. */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { useColor } from "./color.js";
import { UsageError, write } from "./io.js";
import { printDiagnostics, compileOrExit } from "./shared.js";

export function registerCompile(program: Command, ctx: ActionContext): void {
  program
    .command("compile")
    .description("compile a plan (YAML or JSON form) to its IR, or print every problem with its position")
    .argument("<file>", "a *.plan.yaml or *.plan.json file")
    .option("-o, --output <file>", "write the IR to a file instead of stdout")
    .option("--compact", "print the IR on one line")
    .addHelpText(
      "after",
      `
Examples:
  $ planspec compile specs/examples/csv-anomalies.plan.yaml
  $ planspec compile plan.plan.yaml -o plan.ir.json

Exit codes: 0 compiled, 1 the plan has errors, 2 unreadable file or unparseable YAML/JSON.`,
    )
    .action(
      ctx.action(async (file: string, opts: { output?: string; compact?: boolean }) => {
        const { io } = ctx;
        const result = await compileOrExit(file, io, useColor(program, io, "stderr"));
        if (typeof result === "number") return result;
        if (result.kind !== "plan") {
          await write(io.stderr, `${file}: the ${result.kind === "template" ? "template" : "tool catalogue"} is valid; it is compiled through the plans that import it\n`);
          return 0;
        }
        const json = JSON.stringify(result.ir, null, opts.compact ? undefined : 2) + "\n";
        if (opts.output) {
          try {
            writeFileSync(resolve(io.cwd, opts.output), json);
          } catch (err) {
            throw new UsageError(`cannot write ${opts.output}: ${(err as Error).message}`);
          }
          await printDiagnostics(result.diagnostics, result.sources, io, useColor(program, io, "stderr"));
          await write(io.stderr, `wrote ${opts.output} (${result.ir!.nodes.length} steps, planHash ${result.ir!.planHash.slice(0, 12)})\n`);
          return 0;
        }
        await write(io.stdout, json);
        return 0;
      }),
    );
}
