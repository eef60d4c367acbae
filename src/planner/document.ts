/**
 * A planned document goes through exactly what a hand-written file does: rendered to
 * YAML (the file a person reviews), compiled, and linted. Positions in its diagnostics
 * point into that YAML.
 */
import { stringify } from "yaml";
import type { Diagnostic } from "../diagnostic.js";
import { type CompileResult, compileSource } from "../compiler/index.js";
import { lintCompiled } from "../lint/engine.js";
import { renderText } from "../lint/format/stylish.js";

export interface Checked {
  yaml: string;
  compiled: CompileResult;
  /** Compile diagnostics, then lint findings when it compiled. */
  diagnostics: Diagnostic[];
  /** Compiles and lints without errors. */
  ok: boolean;
}

/**
 * The YAML a reviewer reads: a header saying where it came from, then the document. A
 * header line (the goal is one) that would read as a `planspec-disable` directive is quoted.
 */
export function renderPlanYaml(doc: Record<string, unknown>, header: string): string {
  const body = stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false });
  return header
    .split("\n")
    .map((l) => (/^\s*planspec-disable/i.test(l) ? `# > ${l}` : `# ${l}`).trimEnd())
    .join("\n")
    .concat("\n", body);
}

/**
 * Compiles and lints the YAML as the file `file` (relative imports resolve from there).
 * Every line of it is generated, so inline config is off: the model cannot suppress its findings.
 */
export function checkPlanText(file: string, yaml: string, cwd: string): Checked {
  const compiled = compileSource(file, yaml, { cwd });
  const lint = compiled.ir ? lintCompiled(compiled, { inlineConfig: false }) : [];
  const diagnostics = [...compiled.diagnostics, ...lint];
  const ok = compiled.ir !== undefined && !diagnostics.some((d) => d.severity === "error");
  return { yaml, compiled, diagnostics, ok };
}

/** Diagnostics as the model sees them in a repair request: errors first, each with its source line. */
export function feedbackText(checked: Checked): string {
  const errors = checked.diagnostics.filter((d) => d.severity === "error");
  const others = checked.diagnostics.filter((d) => d.severity !== "error");
  let out = renderText(errors, { sources: checked.compiled.sources, color: false });
  if (others.length) out += `\nWarnings (fix them if you can without new errors):\n${renderText(others, { sources: checked.compiled.sources, color: false })}`;
  return out.trimEnd();
}

/** The trace form of diagnostics: what and where, without frames. */
export function traceDiagnostics(list: readonly Diagnostic[]): Array<Record<string, unknown>> {
  return list.map((d) => ({ code: d.code, severity: d.severity, message: d.message, file: d.file, line: d.line, col: d.col }));
}
