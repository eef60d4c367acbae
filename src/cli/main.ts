/**
 * The CLI: commander wiring only. Each command lives in its own file and registers
 * itself; heavy modules are imported inside actions, and `--version` alone is answered
 * before commander and the command modules are loaded.
 */
import type { Command } from "commander";
import { type CliIO, UsageError, write } from "./io.js";
import { planspecVersion } from "../util/version.js";

export interface ActionContext {
  io: CliIO;
  /** Wraps an action so its returned number becomes the exit code and user errors print one line. */
  action<A extends unknown[]>(fn: (...args: A) => Promise<number> | number): (...args: A) => Promise<void>;
}


/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  // What commander prints for `--version`, without its ~50 ms of loading and wiring.
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    await write(io.stdout, `${planspecVersion()}\n`);
    return 0;
  }
  const [{ Command, CommanderError }, { commandsFor }] = await Promise.all([import("commander"), import("./commands.js")]);
  const commands = await commandsFor(argv);
  let exitCode = 0;
  const program: Command = new Command("planspec");
  program
    .description("Plans for AI agents as checked programs: compile, lint, run, resume and evaluate.")
    .version(planspecVersion(), "-V, --version")
    .option("--color", "force colour output")
    .option("--no-color", "disable colour output")
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
    })
    .exitOverride();

  const ctx: ActionContext = {
    io,
    action: (fn) => async (...args) => {
      exitCode = await fn(...args);
    },
  };
  for (const register of commands) register(program, ctx);
  for (const cmd of program.commands) cmd.exitOverride();

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") return 0;
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof UsageError) {
      await write(io.stderr, `planspec: ${err.message}\n`);
      return err.exitCode;
    }
    const { describeUnexpected } = await import("./errors.js");
    const { line, exitCode } = describeUnexpected(err, io.env);
    await write(io.stderr, `planspec: ${line}\n`);
    return exitCode;
  }
  return exitCode;
}
