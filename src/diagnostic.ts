/**
 * The one diagnostic shape shared by the compiler, the linter and every formatter
 * (SPEC §3). This module imports nothing of ours.
 */

export type Severity = "error" | "warning" | "info";

/** How sure a finding is (zizmor's confidence beside severity): structural facts are high. */
export type Confidence = "high" | "medium" | "low";

export const CONFIDENCES: readonly Confidence[] = ["high", "medium", "low"];

const confidenceRank: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };

/** True when `c` (high when unset: compiler findings are facts) is at least `min`. */
export function atLeastConfidence(c: Confidence | undefined, min: Confidence): boolean {
  return confidenceRank[c ?? "high"] >= confidenceRank[min];
}

/** The less sure of two confidences. */
export function minConfidence(a: Confidence, b: Confidence): Confidence {
  return confidenceRank[a] <= confidenceRank[b] ? a : b;
}

export interface Diagnostic {
  /** `PS1xx` for the compiler, the rule id for lint findings. */
  code: string;
  severity: Severity;
  message: string;
  file: string;
  /** Source offsets `[start, end)` in `file`. */
  range: [number, number];
  /** 1-based. */
  line: number;
  col: number;
  endLine: number;
  endCol: number;
  hint?: string;
  /** Set on lint findings; compiler diagnostics are facts (high). */
  confidence?: Confidence;
  docsUrl: string;
}

/** Where diagnostics go: stages report through a sink instead of throwing. */
export type DiagnosticSink = (d: Diagnostic) => void;

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Sorts by file, line, col, code and drops exact duplicates (actionlint's order). */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  const sorted = [...list].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.col - b.col ||
      severityRank[a.severity] - severityRank[b.severity] ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
  const out: Diagnostic[] = [];
  let prev: Diagnostic | undefined;
  for (const d of sorted) {
    if (
      prev &&
      prev.file === d.file &&
      prev.range[0] === d.range[0] &&
      prev.range[1] === d.range[1] &&
      prev.code === d.code &&
      prev.message === d.message
    ) {
      continue;
    }
    out.push(d);
    prev = d;
  }
  return out;
}

/** Maps offsets to 1-based line/col for one text; built once per file. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    // indexOf searches natively; a charCodeAt loop was most of the cost of a plan's spans.
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
  }

  /** 1-based line and column of an offset (clamped to the text). */
  position(offset: number): { line: number; col: number } {
    const off = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= off) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: off - this.starts[lo]! + 1 };
  }

  /** The text of a 1-based line without its newline. */
  lineText(line: number): string {
    const start = this.starts[line - 1];
    if (start === undefined) return "";
    const next = this.starts[line];
    let end = next === undefined ? this.text.length : next - 1;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return this.text.slice(start, end);
  }

  get lineCount(): number {
    return this.starts.length;
  }
}

/** Fills line/col fields of a diagnostic from its range. */
export function locate(
  index: LineIndex | undefined,
  d: Omit<Diagnostic, "line" | "col" | "endLine" | "endCol">,
): Diagnostic {
  if (!index) return { ...d, line: 1, col: 1, endLine: 1, endCol: 1 };
  const s = index.position(d.range[0]);
  const e = index.position(Math.max(d.range[0], d.range[1]));
  return { ...d, line: s.line, col: s.col, endLine: e.line, endCol: e.col };
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === "error");
}

/** Compiler codes that mean "the input could not be read or parsed at all": a user error (exit 2), not a finding. */
export const INPUT_ERROR_CODES: ReadonlySet<string> = new Set(["PS100", "PS101"]);
