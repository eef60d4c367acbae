/**
 * Baselines, for adopting the lint gate on an existing corpus: `--write-baseline` records
 * today's findings, `--baseline` then reports only new ones. Entries match by (file, rule,
 * step, message), never by line, so edits that move a finding do not resurrect it.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { type Diagnostic, type Severity, LineIndex, locate } from "../diagnostic.js";
import { ruleDocsUrl } from "./rule.js";

export const STALE_BASELINE = "stale-baseline-entry";
export const BASELINE_VERSION = 1;

export interface BaselineEntry {
  /** Relative to the baseline file's directory, with `/` separators. */
  file: string;
  rule: string;
  step?: string;
  message: string;
  /** A fingerprint of the other fields, for tools that track findings across runs. */
  hash: string;
}

export interface Baseline {
  version: typeof BASELINE_VERSION;
  findings: BaselineEntry[];
}

/** A diagnostic and the step it is about, when it is about one. */
export interface BaselineFinding {
  diagnostic: Diagnostic;
  step?: string;
}

/** A baseline read from disk, with its text so stale entries can be positioned. */
export interface LoadedBaseline {
  file: string;
  text: string;
  baseline: Baseline;
}

function fingerprint(file: string, rule: string, step: string | undefined, message: string): string {
  return createHash("sha256").update(`${file}\0${rule}\0${step ?? ""}\0${message}`).digest("hex").slice(0, 16);
}

function keyOf(e: { file: string; rule: string; step?: string; message: string }): string {
  return `${e.file}\0${e.rule}\0${e.step ?? ""}\0${e.message}`;
}

/** The path of a finding's file as the baseline stores it. */
function baselinePath(file: string, baselineFile: string, cwd: string): string {
  const abs = isAbsolute(file) ? file : resolve(cwd, file);
  return relative(dirname(resolve(cwd, baselineFile)), abs).split(sep).join("/");
}

function entryOf(f: BaselineFinding, baselineFile: string, cwd: string): BaselineEntry {
  const file = baselinePath(f.diagnostic.file, baselineFile, cwd);
  const { code: rule, message } = f.diagnostic;
  const hash = fingerprint(file, rule, f.step, message);
  // Key order fixed here so the written file is stable.
  return f.step !== undefined ? { file, rule, step: f.step, message, hash } : { file, rule, message, hash };
}

/** Builds the baseline of `findings`, sorted so rewriting it gives small diffs. */
export function createBaseline(findings: readonly BaselineFinding[], baselineFile: string, cwd: string): Baseline {
  const entries = findings.map((f) => entryOf(f, baselineFile, cwd));
  entries.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  return { version: BASELINE_VERSION, findings: entries };
}

/** JSON with one finding per line: readable, and diffs show exactly which findings changed. */
export function serializeBaseline(b: Baseline): string {
  const lines = b.findings.map((e) => `    ${JSON.stringify(e)}`);
  const body = lines.length ? `[\n${lines.join(",\n")}\n  ]` : "[]";
  return `{\n  "version": ${b.version},\n  "findings": ${body}\n}\n`;
}

/** Reads a baseline file; a string is a one-line error for the user. */
export function readBaseline(file: string, cwd: string): LoadedBaseline | string {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return `cannot read baseline ${file}: ${code === "ENOENT" ? "no such file" : (err as Error).message}`;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return `baseline ${file} is not JSON: ${(err as Error).message}`;
  }
  const b = data as Partial<Baseline> | null;
  if (!b || typeof b !== "object" || b.version !== BASELINE_VERSION || !Array.isArray(b.findings)) {
    return `baseline ${file} is not a planspec baseline (expected { "version": 1, "findings": [...] })`;
  }
  for (const [i, e] of b.findings.entries()) {
    const ok = e && typeof e === "object" && typeof e.file === "string" && typeof e.rule === "string" && typeof e.message === "string";
    if (!ok) return `baseline ${file}: findings[${i}] needs string file, rule and message`;
  }
  return { file, text, baseline: b as Baseline };
}

/**
 * Drops findings the baseline covers (each entry covers one finding) and reports every
 * entry that covered none as `stale-baseline-entry`, positioned in the baseline file.
 */
export function applyBaseline<F extends BaselineFinding>(
  findings: readonly F[],
  loaded: LoadedBaseline,
  cwd: string,
  staleSeverity: Severity = "info",
): { kept: F[]; stale: Diagnostic[] } {
  const remaining = new Map<string, number>();
  for (const e of loaded.baseline.findings) remaining.set(keyOf(e), (remaining.get(keyOf(e)) ?? 0) + 1);
  const kept = findings.filter((f) => {
    const key = keyOf(entryOf(f, loaded.file, cwd));
    const n = remaining.get(key) ?? 0;
    if (n === 0) return true;
    remaining.set(key, n - 1);
    return false;
  });
  const stale: Diagnostic[] = [];
  const index = new LineIndex(loaded.text);
  const searchFrom = new Map<string, number>();
  for (const e of loaded.baseline.findings) {
    const key = keyOf(e);
    const n = remaining.get(key) ?? 0;
    if (n === 0) continue;
    remaining.set(key, n - 1);
    const range = entryRange(loaded.text, e, searchFrom);
    const step = e.step !== undefined ? ` (step "${e.step}")` : "";
    stale.push(
      locate(index, {
        code: STALE_BASELINE,
        severity: staleSeverity,
        message: `baseline entry for ${e.rule} in ${e.file}${step} matches no finding: "${e.message}"`,
        hint: "it was fixed: remove the entry, or rewrite the baseline with --write-baseline",
        file: loaded.file,
        range,
        docsUrl: ruleDocsUrl(STALE_BASELINE),
      }),
    );
  }
  return { kept, stale };
}

/** Where an entry is written: found by its hash (or message), the next occurrence each time. */
function entryRange(text: string, e: BaselineEntry, searchFrom: Map<string, number>): [number, number] {
  const needle = typeof e.hash === "string" && e.hash !== "" ? JSON.stringify(e.hash) : JSON.stringify(e.message);
  const at = text.indexOf(needle, searchFrom.get(needle) ?? 0);
  if (at < 0) return [0, 0];
  searchFrom.set(needle, at + needle.length);
  const lineStart = text.lastIndexOf("\n", at) + 1;
  const objStart = text.lastIndexOf("{", at);
  const start = objStart >= lineStart ? objStart : lineStart;
  const close = text.indexOf("}", at);
  const lineEnd = text.indexOf("\n", at);
  const end = close >= 0 && (lineEnd < 0 || close < lineEnd) ? close + 1 : lineEnd < 0 ? text.length : lineEnd;
  return [start, end];
}
