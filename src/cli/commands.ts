/** The explicit list of commands, in the order `--help` shows them. */
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import { registerCompile } from "./compile.js";
import { registerValidate } from "./validate.js";
import { registerGraph } from "./graph.js";

export type RegisterCommand = (program: Command, ctx: ActionContext) => void;

export const commands: RegisterCommand[] = [registerCompile, registerValidate, registerGraph];
