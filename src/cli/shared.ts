/** Helpers shared by commands that compile a plan first. */
import { INPUT_ERROR_CODES, type Diagnostic } from "../diagnostic.js";
import type { CompileResult, SourceDoc } from "../compiler/index.js";
import type { PlanIR } from "../ir.js";
import type { CliIO } from "./io.js";
import { write } from "./io.js";

export async function printDiagnostics(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, SourceDoc>,
  io: CliIO,
  color: boolean,
): Promise<void> {
  if (!diagnostics.length) return;
  const { renderText } = await import("../lint/format/stylish.js");
  await write(io.stderr, renderText(diagnostics, { sources, color, width: (io.stderr as { columns?: number }).columns ?? 160 }));
}

/**
 * Compiles a file; on errors prints them and returns the exit code (2 when the file
 * could not be read or parsed, else 1).
 */
export async function compileOrExit(file: string, io: CliIO, color: boolean): Promise<CompileResult | number> {
  const { compileFile } = await import("../compiler/index.js");
  const result = compileFile(file, { cwd: io.cwd });
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length === 0 && (result.ir || result.kind !== "plan")) return result;
  if (errors.some((d) => INPUT_ERROR_CODES.has(d.code))) {
    // Unreadable or unparseable: one clear line per problem, no frame.
    await printDiagnostics(errors.filter((d) => INPUT_ERROR_CODES.has(d.code)).slice(0, 1), new Map(), io, color);
    return 2;
  }
  await printDiagnostics(result.diagnostics, result.sources, io, color);
  await write(io.stderr, `${errors.length} error${errors.length === 1 ? "" : "s"} in ${file}\n`);
  return 1;
}

/** A plan's IR from a plan file or an IR file (`*.ir.json`), or the exit code after printing why not. */
export async function loadIR(file: string, io: CliIO, color: boolean): Promise<PlanIR | number> {
  if (/\.ir\.json$/i.test(file)) {
    const { validateIRFile } = await import("../compiler/index.js");
    const result = validateIRFile(file, { cwd: io.cwd });
    if (result.ir) return result.ir;
    await printDiagnostics(result.diagnostics, result.sources, io, color);
    return result.diagnostics.some((d) => INPUT_ERROR_CODES.has(d.code)) ? 2 : 1;
  }
  const result = await compileOrExit(file, io, color);
  if (typeof result === "number") return result;
  if (!result.ir) {
    await write(io.stderr, `${file} is a ${result.kind}, not a plan\n`);
    return 2;
  }
  return result.ir;
}
