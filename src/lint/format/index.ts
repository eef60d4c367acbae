/**
 * The output formats of `planspec lint`, each a pure `(diagnostics, options) => string`
 * in its own file (Spectral's formatters), registered here by name.
 */
import type { Diagnostic, LineIndex, Severity } from "../../diagnostic.js";
import { formatGithub } from "./github.js";
import { formatJson } from "./json.js";
import { formatJunit } from "./junit.js";
import { formatSarif } from "./sarif.js";
import { renderText } from "./stylish.js";

/** What a format may say about a rule (SARIF lists every rule it could report). */
export interface RuleDescriptor {
  id: string;
  description: string;
  defaultSeverity: Severity;
  docsUrl: string;
}

export interface FormatOptions {
  /** Paths in the output are relative to this directory. */
  cwd: string;
  /** Source texts by the file names diagnostics use, for code frames. */
  sources?: ReadonlyMap<string, { index: LineIndex }>;
  color?: boolean;
  /** Terminal width, for cutting long source lines. */
  width?: number;
  /** Every rule and engine code, for formats that describe rules. */
  rules?: readonly RuleDescriptor[];
  /** Every file linted, including clean ones. */
  files?: readonly string[];
  /** planspec's version, for formats that record the tool. */
  version?: string;
  /** Mechanical fixes by diagnostic (SARIF `fixes`). */
  fixes?: ReadonlyMap<Diagnostic, import("../fix.js").Fix>;
}

export type Formatter = (diagnostics: readonly Diagnostic[], options: FormatOptions) => string;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The last line of the text output: `3 problems (1 error, 2 warnings) in 12 files`. */
export function summaryLine(diagnostics: readonly Diagnostic[], fileCount: number): string {
  const count = (s: Severity) => diagnostics.filter((d) => d.severity === s).length;
  const parts = [plural(count("error"), "error"), plural(count("warning"), "warning")];
  const infos = count("info");
  if (infos > 0) parts.push(`${infos} info`);
  const files = plural(fileCount, "file");
  if (diagnostics.length === 0) return `0 problems in ${files}\n`;
  return `${plural(diagnostics.length, "problem")} (${parts.join(", ")}) in ${files}\n`;
}

/** Code frames plus the summary line. */
export const formatStylish: Formatter = (diagnostics, options) => {
  const text = renderText(diagnostics, {
    ...(options.sources ? { sources: options.sources } : {}),
    ...(options.color !== undefined ? { color: options.color } : {}),
    ...(options.width !== undefined ? { width: options.width } : {}),
  });
  const gap = text === "" ? "" : "\n";
  return `${text}${gap}${summaryLine(diagnostics, options.files?.length ?? new Set(diagnostics.map((d) => d.file)).size)}`;
};

export const formats: Readonly<Record<string, Formatter>> = {
  stylish: formatStylish,
  json: formatJson,
  sarif: formatSarif,
  github: formatGithub,
  junit: formatJunit,
};

export const formatNames = Object.keys(formats);
