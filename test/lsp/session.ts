/** A real LSP client for tests: `planspec lsp --stdio` in a child process, spoken to with vscode-jsonrpc. */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { pathToFileURL } from "node:url";
import { bin } from "../helpers.js";

export interface LspDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: number;
  code: string;
  codeDescription?: { href: string };
  source: string;
  message: string;
}

export interface Position {
  line: number;
  character: number;
}

export interface TextEdit {
  range: { start: Position; end: Position };
  newText: string;
}

export class LspSession {
  readonly connection: MessageConnection;
  readonly child: ChildProcessWithoutNullStreams;
  readonly stderr: string[] = [];
  /** Every publishDiagnostics, in arrival order. */
  readonly published: Array<{ uri: string; version?: number; diagnostics: LspDiagnostic[] }> = [];
  private waiters: Array<() => void> = [];
  private versions = new Map<string, number>();

  constructor(readonly root: string, debounceMs = 50) {
    this.child = spawn(process.execPath, [bin, "lsp", "--stdio", "--debounce", String(debounceMs)], { cwd: root, stdio: "pipe" });
    this.child.stderr.on("data", (b: Buffer) => this.stderr.push(b.toString()));
    this.connection = createMessageConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    this.connection.onNotification("textDocument/publishDiagnostics", (p: LspSession["published"][number]) => {
      this.published.push(p);
      for (const w of this.waiters.splice(0)) w();
    });
    this.connection.listen();
  }

  uri(file: string): string {
    return pathToFileURL(`${this.root}/${file}`).href;
  }

  async initialize(): Promise<{ capabilities: Record<string, unknown> }> {
    const rootUri = pathToFileURL(this.root).href;
    const r = await this.connection.sendRequest("initialize", { processId: process.pid, rootUri, capabilities: {}, workspaceFolders: [{ uri: rootUri, name: "ws" }] });
    await this.connection.sendNotification("initialized", {});
    return r as { capabilities: Record<string, unknown> };
  }

  /** The next diagnostics published for `uri` after `since` notifications that satisfy `pred`. */
  async diagnostics(uri: string, pred: (d: LspDiagnostic[]) => boolean = () => true, timeoutMs = 20_000): Promise<LspDiagnostic[]> {
    const deadline = Date.now() + timeoutMs;
    let seen = 0;
    for (;;) {
      const list = this.published.slice(seen);
      seen = this.published.length;
      for (let i = list.length - 1; i >= 0; i--) if (list[i]!.uri === uri && pred(list[i]!.diagnostics)) return list[i]!.diagnostics;
      if (Date.now() > deadline) throw new Error(`no matching diagnostics for ${uri}; stderr: ${this.stderr.join("")}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async open(file: string, text: string): Promise<void> {
    this.versions.set(file, 1);
    await this.connection.sendNotification("textDocument/didOpen", { textDocument: { uri: this.uri(file), languageId: "yaml", version: 1, text } });
  }

  async change(file: string, text: string): Promise<void> {
    const version = (this.versions.get(file) ?? 1) + 1;
    this.versions.set(file, version);
    await this.connection.sendNotification("textDocument/didChange", { textDocument: { uri: this.uri(file), version }, contentChanges: [{ text }] });
  }

  request<R>(method: string, file: string, extra: Record<string, unknown>): Promise<R> {
    return this.connection.sendRequest(method, { textDocument: { uri: this.uri(file) }, ...extra }) as Promise<R>;
  }

  /** shutdown + exit; resolves with the child's exit code. */
  async close(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.once("exit", (code) => resolve(code)));
    await this.connection.sendRequest("shutdown");
    await this.connection.sendNotification("exit");
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}

/** The 0-based position of the `nth` occurrence of `needle` in `text` (plus `delta` characters). */
export function positionOf(text: string, needle: string, delta = 0, nth = 0): Position {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`"${needle}" not in text`);
  }
  const off = at + delta;
  const before = text.slice(0, off);
  const line = before.split("\n").length - 1;
  return { line, character: off - (before.lastIndexOf("\n") + 1) };
}

/** Applies LSP text edits to a text (edits do not overlap). */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const lines = text.split("\n");
  const offset = (p: Position) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}
