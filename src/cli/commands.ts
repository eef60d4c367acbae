/** The explicit list of commands, in the order `--help` shows them. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { registerCompile } from "./compile.js";
import { registerValidate } from "./validate.js";
import { registerGraph } from "./graph.js";
import { registerImport } from "./import.js";
import { registerLint } from "./lint.js";
import { registerRun } from "./run.js";
import { registerResume } from "./resume.js";
import { registerStatus } from "./status.js";
import { registerRuns } from "./runs.js";
import { registerApprove, registerReject } from "./approve.js";
import { registerRevise } from "./revise.js";
import { registerResolve } from "./resolve.js";
import { registerPlan } from "./plan.js";
import { registerSubmit } from "./submit.js";
import { registerWorker } from "./worker.js";
import { registerStore } from "./store.js";
import { registerReport } from "./report.js";
import { registerRefine } from "./refine.js";
import { registerReplan } from "./replan.js";
import { registerEval } from "./eval.js";
import { registerLsp } from "./lsp.js";
import { registerDiff } from "./diff.js";

export type RegisterCommand = (program: Command, ctx: ActionContext) => void;

export const commands: RegisterCommand[] = [registerCompile, registerLint, registerValidate, registerGraph, registerImport, registerRun, registerResume, registerStatus, registerRuns, registerApprove, registerReject, registerResolve, registerRevise, registerDiff, registerPlan, registerSubmit, registerWorker, registerStore, registerRefine, registerReplan, registerReport, registerEval, registerLsp];
