/**
 * `--format github`: GitHub Actions workflow commands, so findings show as annotations
 * on the pull request (`::error file=..,line=..::message`).
 */
import { isAbsolute, relative, sep } from "node:path";
import type { Diagnostic, Severity } from "../../diagnostic.js";
import type { FormatOptions } from "./index.js";

const COMMAND: Record<Severity, string> = { error: "error", warning: "warning", info: "notice" };

const ESCAPE: Record<string, string> = { "%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C" };

/** Escapes a command's message the way the Actions runner unescapes it. */
export function escapeData(s: string): string {
  return s.replace(/[%\r\n]/g, (c) => ESCAPE[c]!);
}

/** Escapes a property value: as data, plus the `:` and `,` that delimit properties. */
export function escapeProperty(s: string): string {
  return s.replace(/[%\r\n:,]/g, (c) => ESCAPE[c]!);
}

function repoPath(file: string, cwd: string): string {
  return (isAbsolute(file) ? relative(cwd, file) : file).split(sep).join("/");
}

/** Formats diagnostics as one workflow command per line. */
export function formatGithub(diagnostics: readonly Diagnostic[], options: FormatOptions): string {
  return diagnostics
    .map((d) => {
      const props = [
        `file=${escapeProperty(repoPath(d.file, options.cwd))}`,
        `line=${d.line}`,
        `col=${d.col}`,
        `endLine=${d.endLine}`,
        `endColumn=${d.endCol}`,
        `title=${escapeProperty(d.code)}`,
      ].join(",");
      const message = d.hint ? `${d.message}\n${d.hint}` : d.message;
      return `::${COMMAND[d.severity]} ${props}::${escapeData(message)}\n`;
    })
    .join("");
}
