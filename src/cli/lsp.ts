/** `planspec lsp --stdio`: the language server for editors (diagnostics, completion, hover, definitions, fixes). */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { UsageError } from "./io.js";

const HELP = `
Speaks the Language Server Protocol over stdin/stdout. Editors start it themselves;
see docs/editor.md for VS Code and Neovim.

Diagnostics are the ones \`planspec lint\` prints (compiler and lint, the nearest
planspec.config.yaml), refreshed as you type. Completion of step ids, tools, inputs,
template params and steps.<id>.output paths; hover with a step's kind and risk; go to
definition of steps, tools and templates; quick fixes for the findings --fix repairs.

Examples:
  $ planspec lsp --stdio
  $ nvim --cmd 'lua vim.lsp.start({ name = "planspec", cmd = { "planspec", "lsp", "--stdio" } })' plan.plan.yaml
`;

export function registerLsp(program: Command, ctx: ActionContext): void {
  program
    .command("lsp")
    .description("run the language server for editors (Language Server Protocol over stdio)")
    .option("--stdio", "talk LSP over stdin and stdout (the only transport)")
    .option("--debounce <ms>", "wait this long after a keystroke before re-checking a document", "200")
    .addHelpText("after", HELP)
    .action(
      ctx.action(async (opts: { stdio?: boolean; debounce: string }) => {
        if (!opts.stdio) throw new UsageError("lsp needs --stdio (the only transport); e.g. planspec lsp --stdio");
        if (!/^\d+$/.test(opts.debounce)) throw new UsageError(`--debounce expects milliseconds, got "${opts.debounce}"`);
        const stdin = ctx.io.stdin ?? process.stdin;
        const { startServer } = await import("../lsp/server.js");
        // stdout carries the protocol: anything else printed there would corrupt it.
        console.log = console.info = (...args: unknown[]) => void ctx.io.stderr.write(`${args.map(String).join(" ")}\n`);
        const closed = new Promise<void>((resolve) => stdin.once("close", () => resolve()));
        startServer(stdin, ctx.io.stdout, { debounceMs: Number(opts.debounce) });
        await closed;
        return 0;
      }),
    );
}
