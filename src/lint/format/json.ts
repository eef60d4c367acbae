/** `--format json`: the diagnostics as a JSON array, keys always in the same order. */
import type { Diagnostic } from "../../diagnostic.js";
import type { FormatOptions } from "./index.js";

/** One diagnostic with its keys in the documented order (SPEC §3), optional ones only when set. */
export function orderedDiagnostic(d: Diagnostic): Diagnostic {
  const { code, severity, message, file, line, col, endLine, endCol } = d;
  // Compiler diagnostics are facts: they carry no confidence and show as high.
  const out: Partial<Diagnostic> = { code, severity, confidence: d.confidence ?? "high", message, file, range: [d.range[0], d.range[1]], line, col, endLine, endCol };
  if (d.hint !== undefined) out.hint = d.hint;
  out.docsUrl = d.docsUrl;
  return out as Diagnostic;
}

/**
 * Formats diagnostics as a JSON array, one diagnostic per line: as fast to write as compact
 * JSON (a corpus run yields tens of thousands) and still readable with grep and diff.
 */
export function formatJson(diagnostics: readonly Diagnostic[], _options: FormatOptions): string {
  if (diagnostics.length === 0) return "[]\n";
  return `[\n${diagnostics.map((d) => JSON.stringify(orderedDiagnostic(d))).join(",\n")}\n]\n`;
}
