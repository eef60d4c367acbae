/**
 * The explicit list of commands, in the order `--help` shows them. Each command's module is
 * imported only when it is wanted: `planspec lint` loads the lint wiring, not the run store,
 * the planner and the evaluator that two dozen other commands pull in.
 */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";

export type RegisterCommand = (program: Command, ctx: ActionContext) => void;

/** The names a command line may start with, and how to load what registers them. */
const COMMANDS: Array<[names: string[], load: () => Promise<RegisterCommand[]>]> = [
  [["compile"], async () => [(await import("./compile.js")).registerCompile]],
  [["lint"], async () => [(await import("./lint.js")).registerLint]],
  [["validate"], async () => [(await import("./validate.js")).registerValidate]],
  [["graph"], async () => [(await import("./graph.js")).registerGraph]],
  [["import"], async () => [(await import("./import.js")).registerImport]],
  [["run"], async () => [(await import("./run.js")).registerRun]],
  [["resume"], async () => [(await import("./resume.js")).registerResume]],
  [["status"], async () => [(await import("./status.js")).registerStatus]],
  [["runs"], async () => [(await import("./runs.js")).registerRuns]],
  [["approve", "reject"], async () => {
    const m = await import("./approve.js");
    return [m.registerApprove, m.registerReject];
  }],
  [["resolve"], async () => [(await import("./resolve.js")).registerResolve]],
  [["revise"], async () => [(await import("./revise.js")).registerRevise]],
  [["diff"], async () => [(await import("./diff.js")).registerDiff]],
  [["plan"], async () => [(await import("./plan.js")).registerPlan]],
  [["submit"], async () => [(await import("./submit.js")).registerSubmit]],
  [["worker"], async () => [(await import("./worker.js")).registerWorker]],
  [["store"], async () => [(await import("./store.js")).registerStore]],
  [["refine"], async () => [(await import("./refine.js")).registerRefine]],
  [["replan"], async () => [(await import("./replan.js")).registerReplan]],
  [["report"], async () => [(await import("./report.js")).registerReport]],
  [["eval"], async () => [(await import("./eval.js")).registerEval]],
  [["lsp"], async () => [(await import("./lsp.js")).registerLsp]],
];

/**
 * What registers the command `argv` names (its first word, when that is a command's name),
 * else every command: `--help`, `help lint`, a leading global option or a mistyped name
 * need the whole program (the list, "did you mean").
 */
export async function commandsFor(argv: readonly string[]): Promise<RegisterCommand[]> {
  const named = COMMANDS.find(([names]) => names.includes(argv[0] ?? ""));
  if (named) return named[1]();
  return (await Promise.all(COMMANDS.map(([, load]) => load()))).flat();
}
