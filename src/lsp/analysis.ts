/**
 * What the language server knows about one open document: the compiler's and the linter's
 * findings exactly as `planspec lint` reports them (same config discovery, codes, ranges
 * and docs links), their fixes, and the last text that parsed, for completion while the
 * text in the editor does not.
 */
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic } from "../diagnostic.js";
import type { CompileResult } from "../compiler/index.js";
import { ConfigResolver } from "../lint/config.js";
import { knownRules, registeredRules } from "../lint/engine.js";
import { findingsOf, fixesFor, type Fix } from "../lint/fix.js";
import type { PlanIR } from "../ir.js";

export interface Analysis {
  /** The document's absolute path. */
  path: string;
  /** Directory paths in `result` are relative to. */
  cwd: string;
  text: string;
  result: CompileResult;
  /** Compiler, config and lint diagnostics, by absolute file path. */
  byFile: Map<string, Diagnostic[]>;
  fixes: Map<Diagnostic, Fix>;
  /** The parsed document data: this text's when it parses, else the last that did. */
  data: unknown;
  /** The IR of this text, else of the last text that compiled. */
  ir?: PlanIR;
  /** The CompileResult `ir` came from (for its sources and origins). */
  irResult?: CompileResult;
}

/** Analyses one document's text; `previous` supplies data and IR while the text is broken. */
export function analyze(path: string, text: string, workspaceRoot: string | undefined, previous?: Analysis): Analysis {
  const cwd = workspaceRoot && !relativeOutside(workspaceRoot, path) ? workspaceRoot : dirname(path);
  const rules = registeredRules();
  // A fresh resolver per analysis: an edited planspec.config.yaml applies on the next keystroke.
  const resolver = new ConfigResolver(knownRules(rules), { cwd });
  const config = resolver.forFile(path);
  const { result, findings } = findingsOf(path, text, { cwd, config, rules });
  const byFile = new Map<string, Diagnostic[]>();
  const add = (d: Diagnostic) => {
    const abs = resolve(cwd, d.file);
    const list = byFile.get(abs);
    if (list) list.push(d);
    else byFile.set(abs, [d]);
  };
  for (const f of findings) add(f.diagnostic);
  for (const d of resolver.diagnostics) add(d);
  const analysis: Analysis = {
    path,
    cwd,
    text,
    result,
    byFile,
    fixes: fixesFor(findings, result, rules),
    data: result.root?.data ?? previous?.data,
  };
  if (result.ir) {
    analysis.ir = result.ir;
    analysis.irResult = result;
  } else if (previous?.ir) {
    analysis.ir = previous.ir;
    if (previous.irResult) analysis.irResult = previous.irResult;
  }
  return analysis;
}

function relativeOutside(root: string, path: string): boolean {
  const r = resolve(root);
  return !(path === r || path.startsWith(r.endsWith("/") ? r : `${r}/`));
}

/** The URI of a file named as diagnostics and sources name it (relative to `cwd`). */
export function uriOf(cwd: string, file: string): string {
  return pathToFileURL(resolve(cwd, file)).href;
}
