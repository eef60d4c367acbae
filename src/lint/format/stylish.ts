/**
 * The text renderer (actionlint style): `file:line:col: message [code]`, the source
 * line, and a `^~~~` underline, coloured only when asked.
 */
import { Chalk } from "chalk";
import type { Diagnostic, LineIndex } from "../../diagnostic.js";
import { maskSecrets, maskText } from "../secret-formats.js";

export interface TextOptions {
  /** Source texts by the file names diagnostics use, for code frames. */
  sources?: ReadonlyMap<string, { index: LineIndex }>;
  color?: boolean;
  /** Terminal width; long source lines are cut around the underline. */
  width?: number;
}

const MAX_LINE = 160;

/** Renders diagnostics as text with code frames; pure. */
export function renderText(diagnostics: readonly Diagnostic[], opts: TextOptions = {}): string {
  const c = new Chalk({ level: opts.color ? 1 : 0 });
  const sev = { error: c.red.bold, warning: c.yellow.bold, info: c.blue.bold };
  let out = "";
  // What secret-in-arguments found (a name-based guess too) is masked in every frame of its file.
  const secrets = diagnostics.filter((d) => d.code === "secret-in-arguments");
  for (const d of diagnostics) {
    out += `${c.bold(`${d.file}:${d.line}:${d.col}:`)} ${d.severity === "error" ? "" : sev[d.severity](d.severity + ": ")}${d.message} ${c.gray(`[${d.code}]`)}${d.confidence && d.confidence !== "high" ? c.gray(` (${d.confidence} confidence)`) : ""}\n`;
    const index = opts.sources?.get(d.file)?.index;
    if (index && d.line <= index.lineCount) {
      out += frame(d, index, c, Math.min(MAX_LINE, (opts.width ?? MAX_LINE) - 8), secrets);
    }
    if (d.hint) out += `  ${c.cyan("= hint:")} ${d.hint}\n`;
  }
  return out;
}

function frame(d: Diagnostic, index: LineIndex, c: InstanceType<typeof Chalk>, width: number, secrets: readonly Diagnostic[]): string {
  const line = index.lineText(d.line);
  let start = d.col - 1;
  let end = d.endLine === d.line ? Math.max(d.endCol - 1, start + 1) : Math.max(line.trimEnd().length, start + 1);
  // Cut very long lines (minified JSON) to a window around the underline; only the window is
  // masked and shown (a 5 MB line is not scanned once per finding).
  let text: string;
  if (line.length > width) {
    const from = Math.max(0, Math.min(start - 10, line.length - width));
    text = (from > 0 ? "…" : "") + masked(line, d, secrets, from, from + width).replace(/\t/g, " ") + (from + width < line.length ? "…" : "");
    const shift = from > 0 ? from - 1 : 0;
    start -= shift;
    end = Math.min(end - shift, text.length);
  } else {
    text = masked(line, d, secrets, 0, line.length).replace(/\t/g, " ");
  }
  const num = String(d.line);
  const pad = " ".repeat(num.length);
  const mark = d.severity === "error" ? c.red : d.severity === "warning" ? c.yellow : c.blue;
  const under = "^" + "~".repeat(Math.max(0, end - start - 1));
  return (
    `${c.gray(`${pad} |`)}\n` +
    `${c.gray(`${num} |`)} ${text}\n` +
    `${c.gray(`${pad} |`)} ${" ".repeat(Math.max(0, start))}${mark(under)}\n`
  );
}

/** Characters beyond a window's edges read to find a credential that crosses them. */
const MARGIN = 512;

/**
 * `line.slice(lo, hi)` as a frame may show it: credentials of a well-known format masked
 * (looked for in the window and a margin around it, so one cut at an edge is still found),
 * and the values secret-in-arguments reported on this line. Same length, so columns hold.
 */
function masked(line: string, d: Diagnostic, secrets: readonly Diagnostic[], lo: number, hi: number): string {
  const from = Math.max(0, lo - MARGIN);
  let text = maskSecrets(line.slice(from, Math.min(line.length, hi + MARGIN)));
  for (const s of secrets) {
    if (s.file !== d.file || s.line > d.line || s.endLine < d.line) continue;
    const a = Math.max(0, (s.line === d.line ? s.col - 1 : 0) - from);
    const b = Math.min(text.length, (s.endLine === d.line ? s.endCol - 1 : line.length) - from);
    if (a < b) text = text.slice(0, a) + maskText(text.slice(a, b)) + text.slice(b);
  }
  return text.slice(lo - from, lo - from + (hi - lo));
}
