/**
 * `planspec import taskbench`: a predictions file -> one `<id>.plan.json` per plan in an
 * output directory, with every line that could not be converted reported, never thrown.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type ImportNote, type NoteKind, toPlanDoc } from "./convert.js";
import { parseTaskBenchLine, type TaskBenchRecord } from "./record.js";
import type { ToolDesc } from "./tool-desc.js";

/** A line that produced no plan file. */
export interface Rejection {
  /** 1-based line number in the predictions file. */
  line: number;
  id?: string;
  reason: string;
}

/** A note on a plan that was written anyway. */
export interface PlanNote extends ImportNote {
  line: number;
  id: string;
}

export interface ImportSummary {
  outDir: string;
  /** Plans written. */
  imported: number;
  rejected: Rejection[];
  notes: PlanNote[];
  /** Note counts by kind, for a one-line summary. */
  noteCounts: Partial<Record<NoteKind, number>>;
}

export interface ImportOptions {
  outDir: string;
  toolDesc: ToolDesc;
  /** Called now and then with lines handled so far and the number of non-blank lines. */
  onProgress?: (done: number, total: number) => void;
  /** Lines between two progress calls. */
  progressEvery?: number;
  /** The record → plan conversion; default `toPlanDoc` (resource-linked domains such as multimedia). */
  convert?: (record: TaskBenchRecord) => { doc: object; notes: ImportNote[] };
}

/** An I/O failure writing the output (unwritable directory, full disk): the import stops. */
export class ImportWriteError extends Error {}

const ERRNO_TEXT: Record<string, string> = {
  ENOENT: "no such directory",
  ENOTDIR: "a parent is not a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "read-only file system",
  ENOSPC: "no space left on device",
  EISDIR: "is a directory",
};

function writeOrFail(action: () => void, what: string): void {
  try {
    action();
  } catch (err) {
    if (err instanceof ImportWriteError) throw err;
    const e = err as NodeJS.ErrnoException;
    const why = (e.code && ERRNO_TEXT[e.code]) ?? e.code ?? e.message;
    throw new ImportWriteError(`cannot write ${what}: ${why}`);
  }
}

/**
 * `mkdir -p`, by hand: Node 20's `mkdirSync(..., { recursive: true })` never returns for
 * a path below /proc, and a wrong `--out` must end in a message, not a hang.
 */
function ensureDir(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      if (!statSync(dir).isDirectory()) throw new ImportWriteError(`cannot write ${dir}: it is a file, not a directory`);
      return;
    }
    if (code !== "ENOENT" || dirname(dir) === dir) throw err;
    ensureDir(dirname(dir));
    mkdirSync(dir);
  }
}

/**
 * Imports every plan of a predictions file's text into `outDir` (created if missing;
 * existing plan files are overwritten). Blank lines are skipped; a repeated id is rejected
 * so no plan silently replaces another.
 */
export function importTaskBench(text: string, options: ImportOptions): ImportSummary {
  const { outDir, toolDesc, onProgress } = options;
  const every = options.progressEvery ?? 250;
  const lines = text.split("\n");
  const total = lines.reduce((k, l) => (l.trim() === "" ? k : k + 1), 0);
  const summary: ImportSummary = { outDir, imported: 0, rejected: [], notes: [], noteCounts: {} };
  const firstLineOf = new Map<string, number>();

  // Create the directory once, then plain synchronous writes: 5,571 small files go fastest this way.
  writeOrFail(() => ensureDir(outDir), outDir);
  let done = 0;
  for (const [k, raw] of lines.entries()) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") continue;
    const lineNo = k + 1;
    done++;
    if (onProgress && done % every === 0) onProgress(done, total);

    const parsed = parseTaskBenchLine(line);
    if (!parsed.ok) {
      summary.rejected.push({ line: lineNo, ...(parsed.id !== undefined ? { id: parsed.id } : {}), reason: parsed.reason });
      continue;
    }
    const { id } = parsed.record;
    const first = firstLineOf.get(id);
    if (first !== undefined) {
      summary.rejected.push({ line: lineNo, id, reason: `duplicate id (first on line ${first})` });
      continue;
    }
    firstLineOf.set(id, lineNo);

    const { doc, notes } = options.convert ? options.convert(parsed.record) : toPlanDoc(parsed.record, toolDesc);
    const file = join(outDir, `${id}.plan.json`);
    writeOrFail(() => writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`), file);
    summary.imported++;
    for (const note of notes) {
      summary.notes.push({ line: lineNo, id, ...note });
      summary.noteCounts[note.kind] = (summary.noteCounts[note.kind] ?? 0) + 1;
    }
  }
  onProgress?.(done, total);
  return summary;
}
