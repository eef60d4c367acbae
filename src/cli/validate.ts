/** `planspec validate IR.json`: check an IR produced elsewhere. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { useColor } from "./color.js";
import { write } from "./io.js";
import { INPUT_ERROR_CODES } from "../diagnostic.js";
import { printDiagnostics } from "./shared.js";

export function registerValidate(program: Command, ctx: ActionContext): void {
  program
    .command("validate")
    .description("check an IR file (from the compiler, the planner or elsewhere) against the IR schema and every invariant")
    .argument("<file>", "a plan.ir.json file")
    .addHelpText(
      "after",
      `
Examples:
  $ planspec compile plan.plan.yaml -o plan.ir.json && planspec validate plan.ir.json

Exit codes: 0 valid, 1 invalid, 2 unreadable file or not JSON.`,
    )
    .action(
      ctx.action(async (file: string) => {
        const { io } = ctx;
        const { validateIRFile } = await import("../compiler/index.js");
        const result = validateIRFile(file, { cwd: io.cwd });
        const color = useColor(program, io, "stderr");
        if (result.ir) {
          await write(io.stdout, `${file}: valid IR (${result.ir.nodes.length} steps, planHash ${result.ir.planHash.slice(0, 12)})\n`);
          return 0;
        }
        await printDiagnostics(result.diagnostics, result.sources, io, color);
        return result.diagnostics.some((d) => INPUT_ERROR_CODES.has(d.code)) ? 2 : 1;
      }),
    );
}
