/**
 * `planspec lsp --stdio`: the language server. Documents are analysed on open and, debounced,
 * after each change; diagnostics are published per file (a template's or catalogue's own
 * problems go to that file). The analysis lives in analysis.ts, the features in features.ts.
 */
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CodeActionKind,
  CompletionItemKind,
  type Connection,
  createConnection,
  DiagnosticSeverity,
  type Diagnostic as LspDiagnostic,
  MarkupKind,
  type CodeAction,
  TextDocumentSyncKind,
  TextDocuments,
  type TextEdit as LspTextEdit,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic } from "../diagnostic.js";
import { PLAN_FILE } from "../lint/files.js";
import { applyFixes, type Fix } from "../lint/fix.js";
import { type Analysis, analyze, uriOf } from "./analysis.js";
import { complete, definition, hover, type ItemKind } from "./features.js";

export interface ServerOptions {
  /** Delay after the last change before a document is analysed again (default 200 ms). */
  debounceMs?: number;
}

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information } as const;

const KIND: Record<ItemKind, CompletionItemKind> = {
  step: CompletionItemKind.Reference,
  tool: CompletionItemKind.Function,
  input: CompletionItemKind.Variable,
  param: CompletionItemKind.Property,
  template: CompletionItemKind.Module,
  property: CompletionItemKind.Field,
  function: CompletionItemKind.Function,
  keyword: CompletionItemKind.Keyword,
  value: CompletionItemKind.EnumMember,
};

/** The LSP form of a diagnostic: same code, range and docs link as the CLI prints. */
export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  return {
    range: { start: { line: d.line - 1, character: d.col - 1 }, end: { line: d.endLine - 1, character: d.endCol - 1 } },
    severity: SEVERITY[d.severity],
    code: d.code,
    codeDescription: { href: d.docsUrl },
    source: "planspec",
    message: d.hint ? `${d.message}\n${d.hint}` : d.message,
  };
}

/**
 * Starts a server on an input and an output stream (stdio for `planspec lsp --stdio`). When
 * the input ends (the editor went away) the process exits: 0 after a shutdown request, else 1.
 */
export function startServer(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, opts: ServerOptions = {}): Connection {
  const connection = createConnection(input, output);
  const documents = new TextDocuments(TextDocument);
  const analyses = new Map<string, Analysis>();
  const timers = new Map<string, NodeJS.Timeout>();
  /** The files each document last published diagnostics to, to clear them when fixed. */
  const published = new Map<string, Set<string>>();
  let root: string | undefined;
  let debounceMs = opts.debounceMs ?? 200;

  connection.onInitialize((params) => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    if (folder?.startsWith("file:")) root = fileURLToPath(folder);
    const init = params.initializationOptions as { debounceMs?: unknown } | undefined;
    if (typeof init?.debounceMs === "number" && init.debounceMs >= 0) debounceMs = init.debounceMs;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        completionProvider: { triggerCharacters: [".", "[", " ", ","] },
        hoverProvider: true,
        definitionProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.SourceFixAll] },
      },
      serverInfo: { name: "planspec" },
    };
  });

  const isYamlOrJson = (uri: string) => uri.startsWith("file:") && /\.(ya?ml|json)$/i.test(uri);
  /** Plan files by name, and any YAML/JSON that declares `planspec:` (templates, catalogues): not a CI workflow. */
  const isPlanDoc = (doc: TextDocument) => isYamlOrJson(doc.uri) && (PLAN_FILE.test(doc.uri) || /^\s*"?planspec"?\s*:/m.test(doc.getText()));

  function run(doc: TextDocument): void {
    timers.delete(doc.uri);
    let path: string;
    try {
      path = fileURLToPath(doc.uri);
    } catch {
      return;
    }
    let a: Analysis;
    try {
      a = analyze(path, doc.getText(), root, analyses.get(doc.uri));
    } catch (err) {
      // An internal failure must not take the editor's server down; say so once, in the log.
      connection.console.error(`planspec: cannot analyse ${path}: ${(err as Error).message}`);
      return;
    }
    analyses.set(doc.uri, a);
    const now = new Set<string>();
    for (const [file, list] of a.byFile) {
      // The document under the client's own URI (clients spell some characters differently).
      const uri = file === path ? doc.uri : pathToFileURL(file).href;
      now.add(uri);
      void connection.sendDiagnostics({ uri, version: uri === doc.uri ? doc.version : undefined, diagnostics: list.map(toLspDiagnostic) });
    }
    if (!now.has(doc.uri)) {
      now.add(doc.uri);
      void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: [] });
    }
    for (const uri of published.get(doc.uri) ?? []) if (!now.has(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
    published.set(doc.uri, now);
  }

  function schedule(doc: TextDocument, delay: number): void {
    if (/\/planspec\.config\.yaml$/.test(doc.uri)) {
      // An edited config applies to every open plan under it.
      for (const other of documents.all()) if (other.uri !== doc.uri && analyses.has(other.uri)) schedule(other, delay);
      return;
    }
    if (!isPlanDoc(doc)) {
      if (published.has(doc.uri)) clearDocument(doc.uri);
      return;
    }
    clearTimeout(timers.get(doc.uri));
    timers.set(doc.uri, setTimeout(() => run(doc), delay));
  }

  documents.onDidOpen((e) => schedule(e.document, 0));
  documents.onDidChangeContent((e) => schedule(e.document, debounceMs));
  // The config is read from disk: a saved or externally changed planspec.config.yaml re-checks open plans.
  const recheckAll = () => {
    for (const doc of documents.all()) if (analyses.has(doc.uri)) schedule(doc, 0);
  };
  documents.onDidSave((e) => {
    if (/\/planspec\.config\.yaml$/.test(e.document.uri)) recheckAll();
  });
  connection.onDidChangeWatchedFiles(() => recheckAll());
  function clearDocument(docUri: string): void {
    clearTimeout(timers.get(docUri));
    timers.delete(docUri);
    analyses.delete(docUri);
    for (const uri of published.get(docUri) ?? []) void connection.sendDiagnostics({ uri, diagnostics: [] });
    published.delete(docUri);
  }
  documents.onDidClose((e) => clearDocument(e.document.uri));

  /** The analysis of the document's current text (analysed now if a change is pending). */
  function current(uri: string): { a: Analysis; doc: TextDocument } | undefined {
    const doc = documents.get(uri);
    if (!doc || !isPlanDoc(doc)) return undefined;
    const a = analyses.get(uri);
    if (!a || a.text !== doc.getText()) run(doc);
    const fresh = analyses.get(uri);
    return fresh ? { a: fresh, doc } : undefined;
  }

  connection.onCompletion((p) => {
    const c = current(p.textDocument.uri);
    if (!c) return [];
    return complete(c.a, c.doc.offsetAt(p.position)).map((item) => ({
      label: item.label,
      kind: KIND[item.kind],
      ...(item.detail ? { detail: item.detail } : {}),
      ...(item.documentation ? { documentation: item.documentation } : {}),
    }));
  });

  connection.onHover((p) => {
    const c = current(p.textDocument.uri);
    if (!c) return null;
    const h = hover(c.a, c.doc.offsetAt(p.position));
    if (!h) return null;
    return {
      contents: { kind: MarkupKind.Markdown, value: h.markdown },
      ...(h.range ? { range: { start: c.doc.positionAt(h.range[0]), end: c.doc.positionAt(h.range[1]) } } : {}),
    };
  });

  connection.onDefinition((p) => {
    const c = current(p.textDocument.uri);
    if (!c) return null;
    const t = definition(c.a, c.doc.offsetAt(p.position));
    if (!t) return null;
    const here = resolve(c.a.cwd, t.file) === c.a.path;
    const uri = here ? c.doc.uri : uriOf(c.a.cwd, t.file);
    const source = [...c.a.result.sources, ...(c.a.irResult?.sources ?? [])].find(([f]) => f === t.file)?.[1];
    const pos = (off: number) => {
      if (here) return c.doc.positionAt(off);
      const p2 = source!.index.position(off);
      return { line: p2.line - 1, character: p2.col - 1 };
    };
    return { uri, range: { start: pos(t.range[0]), end: pos(t.range[1]) } };
  });

  connection.onCodeAction((p) => {
    const c = current(p.textDocument.uri);
    if (!c) return [];
    const { a, doc } = c;
    const edits = (fix: Fix): LspTextEdit[] =>
      fix.edits.map((e) => ({ range: { start: doc.positionAt(e.range[0]), end: doc.positionAt(e.range[1]) }, newText: e.text }));
    const mine = [...a.fixes].filter(([d, f]) => resolve(a.cwd, f.file) === a.path && resolve(a.cwd, d.file) === a.path);
    const actions: CodeAction[] = [];
    const only = p.context.only;
    const wants = (kind: string) => !only || only.some((k) => kind === k || kind.startsWith(`${k}.`));
    if (wants(CodeActionKind.QuickFix)) {
      const start = doc.offsetAt(p.range.start);
      const end = doc.offsetAt(p.range.end);
      for (const [d, fix] of mine) {
        if (d.range[1] < start || d.range[0] > end) continue;
        actions.push({
          title: `Fix: ${fix.description}`,
          kind: CodeActionKind.QuickFix,
          diagnostics: [toLspDiagnostic(d)],
          isPreferred: true,
          edit: { changes: { [doc.uri]: edits(fix) } },
        });
      }
    }
    if (wants(CodeActionKind.SourceFixAll) && mine.length > 0) {
      // One pass of every non-overlapping fix; the next analysis offers what is left.
      const { text } = applyFixes(a.text, mine.map(([, f]) => f));
      const whole = { start: doc.positionAt(0), end: doc.positionAt(a.text.length) };
      actions.push({ title: "Fix all planspec findings", kind: CodeActionKind.SourceFixAll, edit: { changes: { [doc.uri]: [{ range: whole, newText: text }] } } });
    }
    return actions;
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}
