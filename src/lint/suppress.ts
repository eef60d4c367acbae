/**
 * Inline suppressions: `# planspec-disable-next-line <ids> -- <reason>` and file-level
 * `# planspec-disable <ids> -- <reason>` comments in YAML, and the top-level
 * `x-planspec-disable` list (the form JSON plans can carry, accepted in YAML too).
 * A suppression must give a reason and must suppress something, so each one stays honest.
 */
import { loadYaml } from "../compiler/lazy.js";
import type { SourceDoc } from "../compiler/source.js";
import { didYouMean } from "../compiler/suggest.js";

export interface Suppression {
  file: string;
  /** `line`: findings starting on `targetLine`; `file`: the whole file; `step`: findings about `step`. */
  scope: "line" | "file" | "step";
  rules: string[];
  reason?: string;
  targetLine?: number;
  step?: string;
  /** Where the directive is written, for findings about the directive itself. */
  range: [number, number];
  /** A file-level comment written after the first key: it is reported, never applied. */
  misplaced?: boolean;
}

/** What a suppression can match: one lint finding. */
export interface SuppressibleFinding {
  file: string;
  line: number;
  code: string;
  step?: string;
}

/** A finding about a suppression, before the engine gives it a severity and a position. */
export interface SuppressionProblem {
  code: "suppression-without-reason" | "unused-suppression" | "unknown-rule" | typeof IGNORED_SUPPRESSION;
  file: string;
  range: [number, number];
  message: string;
  hint?: string;
}

export const DISABLE_KEY = "x-planspec-disable";
export const IGNORED_SUPPRESSION = "ignored-suppression";
const DIRECTIVE = /^#\s*planspec-disable(-next-line)?(?=\s|$)(.*)$/;

/** Reads every suppression written in one source file, naming it `file` (as its findings do). */
export function collectSuppressions(doc: SourceDoc, file: string = doc.file): Suppression[] {
  const out: Suppression[] = [];
  // Most files carry none: skip the line scan unless the marker is there at all. JSON has no comments.
  if (doc.text.includes("planspec-disable") && !/\.json$/i.test(doc.file)) collectComments(doc, file, out);
  collectDisableKey(doc, file, out);
  return out;
}

/**
 * Offsets where real YAML comments start, from yaml's own lexer: a line of a block scalar
 * or a multi-line string that reads `# planspec-disable ...` is text, not a directive (a goal
 * written by a model must not be able to switch the gate off).
 */
function commentStarts(text: string): Set<number> {
  // Loaded here, not at import: only a file that mentions a directive gets this far.
  const { CST, Lexer } = loadYaml();
  const starts = new Set<number>();
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (CST.tokenType(token) === "comment") starts.add(offset);
    // Document, flow-end and scalar markers are the lexer's own; they take no source text.
    if (token !== CST.DOCUMENT && token !== CST.FLOW_END && token !== CST.SCALAR) offset += token.length;
  }
  return starts;
}

function collectComments(doc: SourceDoc, file: string, out: Suppression[]): void {
  const text = doc.text;
  const comments = commentStarts(text);
  const lines: Array<{ start: number; text: string }> = [];
  for (let start = 0; start <= text.length; ) {
    const nl = text.indexOf("\n", start);
    const end = nl < 0 ? text.length : nl;
    lines.push({ start, text: text.slice(start, end).replace(/\r$/, "") });
    if (nl < 0) break;
    start = nl + 1;
  }
  let seenKey = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.text.trimStart();
    const col = line.text.length - trimmed.length;
    if (!trimmed.startsWith("#") || !comments.has(line.start + col)) {
      // Blank lines, the document marker and directives do not end the file header.
      if (trimmed !== "" && !trimmed.startsWith("---") && !trimmed.startsWith("%")) seenKey = true;
      continue;
    }
    const m = DIRECTIVE.exec(trimmed);
    if (!m) continue;
    const { rules, reason } = parseBody(m[2] ?? "");
    const range: [number, number] = [line.start + col, line.start + line.text.trimEnd().length];
    const s: Suppression = { file, scope: m[1] ? "line" : "file", rules, range };
    if (reason !== undefined) s.reason = reason;
    if (m[1]) s.targetLine = nextCodeLine(lines, i);
    else if (seenKey) s.misplaced = true;
    out.push(s);
  }
}

/** The 1-based number of the first line after `i` that is not a comment. */
function nextCodeLine(lines: ReadonlyArray<{ text: string }>, i: number): number {
  let j = i + 1;
  while (j < lines.length && lines[j]!.text.trimStart().startsWith("#")) j++;
  return j + 1;
}

/** Splits `a, b -- why` into rule ids and the reason (undefined when there is none). */
export function parseBody(body: string): { rules: string[]; reason?: string } {
  const sep = /(?:^|\s)--(?:\s|$)/.exec(body);
  const idsText = sep ? body.slice(0, sep.index) : body;
  const rules = idsText.split(/[\s,]+/).filter((s) => s !== "");
  if (!sep) return { rules };
  const reason = body.slice(sep.index + sep[0].length).trim();
  return reason === "" ? { rules } : { rules, reason };
}

function collectDisableKey(doc: SourceDoc, file: string, out: Suppression[]): void {
  const data = doc.data;
  if (!data || typeof data !== "object" || Array.isArray(data)) return;
  const list = (data as Record<string, unknown>)[DISABLE_KEY];
  if (list === undefined) return;
  const entries = Array.isArray(list) ? list : [list];
  entries.forEach((entry, i) => {
    const path = Array.isArray(list) ? [DISABLE_KEY, i] : [DISABLE_KEY];
    const range = doc.rangeOf(path);
    const e = entry && typeof entry === "object" && !Array.isArray(entry) ? (entry as Record<string, unknown>) : {};
    const rules = typeof e.rule === "string" ? [e.rule] : Array.isArray(e.rule) ? e.rule.map(String) : [];
    const s: Suppression = { file, scope: "file", rules, range };
    if (typeof e.step === "string") {
      s.scope = "step";
      s.step = e.step;
    }
    if (typeof e.reason === "string" && e.reason.trim() !== "") s.reason = e.reason.trim();
    out.push(s);
  });
}

/** True when `s` silences finding `f` (a misplaced directive silences nothing). */
export function suppresses(s: Suppression, f: SuppressibleFinding): boolean {
  if (s.misplaced || s.file !== f.file || !s.rules.includes(f.code)) return false;
  if (s.scope === "line") return f.line === s.targetLine;
  if (s.scope === "step") return f.step === s.step || (f.step?.startsWith(`${s.step}.`) ?? false);
  return true;
}

/**
 * Drops suppressed findings and reports problems with the suppressions themselves.
 * `known` are the rule ids a suppression may name; `ran` those that ran on this plan:
 * a suppression of a rule that did not run (off, or needing `--against`) is not "unused".
 */
export function applySuppressions<F extends SuppressibleFinding>(
  findings: readonly F[],
  suppressions: readonly Suppression[],
  known: ReadonlySet<string>,
  ran: ReadonlySet<string>,
): { kept: F[]; problems: SuppressionProblem[] } {
  if (suppressions.length === 0) return { kept: [...findings], problems: [] };
  const used = suppressions.map(() => new Set<string>());
  const kept = findings.filter((f) => {
    let hit = false;
    suppressions.forEach((s, i) => {
      if (suppresses(s, f)) {
        used[i]!.add(f.code);
        hit = true;
      }
    });
    return !hit;
  });
  const problems: SuppressionProblem[] = [];
  suppressions.forEach((s, i) => {
    const at = { file: s.file, range: s.range };
    if (s.rules.length === 0) {
      problems.push({ code: "unknown-rule", ...at, message: "suppression names no rule; write the id of the rule it disables" });
      return;
    }
    if (s.reason === undefined) {
      problems.push({
        code: "suppression-without-reason",
        ...at,
        message: `suppression of ${s.rules.join(", ")} gives no reason`,
        hint: 'add one after "--", e.g. -- the approval happens outside this plan',
      });
    }
    for (const id of s.rules) {
      if (!known.has(id)) {
        const p: SuppressionProblem = { code: "unknown-rule", ...at, message: `unknown rule "${id}" in suppression` };
        const hint = didYouMean(id, known);
        if (hint) p.hint = hint;
        problems.push(p);
      } else if (s.misplaced) {
        problems.push({
          code: "unused-suppression",
          ...at,
          message: `file-level suppression of "${id}" comes after the first key and suppresses nothing`,
          hint: "move it to the top of the file, or use planspec-disable-next-line",
        });
      } else if (ran.has(id) && !used[i]!.has(id)) {
        const where = s.scope === "line" ? `line ${s.targetLine}` : s.scope === "step" ? `step "${s.step}"` : "this file";
        problems.push({
          code: "unused-suppression",
          ...at,
          message: `suppression of "${id}" is unused: no such finding in ${where}`,
          hint: "remove it",
        });
      }
    }
  });
  return { kept, problems };
}

/** With `--no-inline-config`: one finding per suppression, saying it was not applied. */
export function ignoredSuppressions(suppressions: readonly Suppression[]): SuppressionProblem[] {
  return suppressions.map((s) => ({
    code: IGNORED_SUPPRESSION,
    file: s.file,
    range: s.range,
    message: `suppression of ${s.rules.length ? s.rules.join(", ") : "no rule"} ignored: inline config is off (--no-inline-config)`,
    hint: "a plan cannot switch off its own gate; put the exception in the pinned --config, or fix the finding",
  }));
}
