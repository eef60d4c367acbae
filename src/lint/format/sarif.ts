/**
 * `--format sarif`: SARIF 2.1.0, the format GitHub code scanning uploads
 * (`github/codeql-action/upload-sarif`). One run; every rule described once and
 * referenced from results by index.
 */
import { isAbsolute, relative, sep } from "node:path";
import type { Diagnostic, Severity } from "../../diagnostic.js";
import type { FormatOptions, RuleDescriptor } from "./index.js";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
const LEVEL: Record<Severity, "error" | "warning" | "note"> = { error: "error", warning: "warning", info: "note" };

interface SarifRule {
  id: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  helpUri: string;
  defaultConfiguration: { level: string };
}

/** A relative, `/`-separated, percent-encoded URI reference, as code scanning expects. */
function artifactUri(file: string, cwd: string): string {
  const rel = isAbsolute(file) ? relative(cwd, file) : file;
  return encodeURI(rel.split(sep).join("/"));
}

function firstSentence(text: string): string {
  const m = /^(.+?[.!?])(\s|$)/.exec(text);
  return m ? m[1]! : text;
}

function sarifRule(r: RuleDescriptor): SarifRule {
  return {
    id: r.id,
    shortDescription: { text: firstSentence(r.description) },
    fullDescription: { text: r.description },
    helpUri: r.docsUrl,
    defaultConfiguration: { level: LEVEL[r.defaultSeverity] },
  };
}

/** A result with its mechanical fix (SARIF §3.55), when the diagnostic has one. */
function withFix<R extends object>(result: R, d: Diagnostic, options: FormatOptions): R {
  const fix = options.fixes?.get(d);
  if (!fix) return result;
  const replacements = fix.edits.map((e) => ({
    deletedRegion: { startLine: e.start!.line, startColumn: e.start!.col, endLine: e.end!.line, endColumn: e.end!.col },
    insertedContent: { text: e.text },
  }));
  const change = { artifactLocation: { uri: artifactUri(fix.file, options.cwd) }, replacements };
  return { ...result, fixes: [{ description: { text: fix.description }, artifactChanges: [change] }] };
}

/** Formats diagnostics as a SARIF 2.1.0 log. */
export function formatSarif(diagnostics: readonly Diagnostic[], options: FormatOptions): string {
  const rules: SarifRule[] = [];
  const indexOf = new Map<string, number>();
  const add = (r: RuleDescriptor) => {
    if (indexOf.has(r.id)) return;
    indexOf.set(r.id, rules.length);
    rules.push(sarifRule(r));
  };
  for (const r of options.rules ?? []) add(r);
  // Codes nobody described (e.g. a compiler code) still need a rule entry for ruleIndex.
  for (const d of diagnostics) add({ id: d.code, description: d.code, defaultSeverity: d.severity, docsUrl: d.docsUrl });

  const results = diagnostics.map((d) => withFix({
    ruleId: d.code,
    ruleIndex: indexOf.get(d.code)!,
    level: LEVEL[d.severity],
    message: { text: d.hint ? `${d.message}\n${d.hint}` : d.message },
    properties: { confidence: d.confidence ?? "high" },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: artifactUri(d.file, options.cwd) },
          region: { startLine: d.line, startColumn: d.col, endLine: d.endLine, endColumn: d.endCol },
        },
      },
    ],
  }, d, options));

  const driver: Record<string, unknown> = { name: "planspec", informationUri: "https://github.com/planspec/planspec" };
  if (options.version) driver.version = options.version;
  driver.rules = rules;
  const log = { $schema: SARIF_SCHEMA, version: "2.1.0", runs: [{ tool: { driver }, results }] };
  return `${JSON.stringify(log, null, 2)}\n`;
}
