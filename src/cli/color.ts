/** Whether to colour output: --color/--no-color, then NO_COLOR/FORCE_COLOR, then "is it a TTY". */
import type { Command } from "commander";
import type { CliIO } from "./io.js";

export function useColor(program: Command, io: CliIO, stream: "stdout" | "stderr" = "stdout"): boolean {
  const opt = program.opts().color as boolean | undefined;
  if (opt === false) return false;
  if (opt === true) return true;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== "") return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return io[stream].isTTY === true;
}
