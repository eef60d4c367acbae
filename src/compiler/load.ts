/**
 * Reading and parsing one source file (plan, template or catalogue), YAML or JSON,
 * with syntax errors, duplicate keys and `__proto__` keys turned into diagnostics.
 */
import { readFileSync, statSync } from "node:fs";
import type { Collector } from "./diagnostics.js";
import { parseJsonSource } from "./json-source.js";
import type { SourceDoc } from "./source.js";
import { parseYamlFast } from "./yaml-fast.js";
import { parseYamlSource } from "./yaml-source.js";
import { LineIndex } from "../diagnostic.js";

export function isJsonFile(file: string): boolean {
  return /\.json$/i.test(file);
}

/** Parses `text`; returns the document, or undefined after reporting why not. */
export function parseSource(file: string, text: string, out: Collector): SourceDoc | undefined {
  if (isJsonFile(file)) {
    const { doc, errors, duplicateKeys, protoKeys } = parseJsonSource(file, text);
    // The line index is built only when a diagnostic needs a position (most files have none).
    out.addSource(file, doc ? () => doc.index : () => new LineIndex(text));
    for (const e of errors) out.report("PS101", file, [e.start, e.end], { reason: e.message });
    for (const d of duplicateKeys) out.report("PS102", file, [d.start, d.end], { key: d.key });
    for (const p of protoKeys) out.report("PS147", file, [p.start, p.end]);
    if (doc) out.sources.set(file, doc);
    return doc;
  }
  const fast = parseYamlFast(file, text);
  if (fast) {
    out.addSource(file, () => fast.index);
    out.sources.set(file, fast);
    return fast;
  }
  const { doc, errors } = parseYamlSource(file, text);
  out.addSource(file, doc ? () => doc.index : () => new LineIndex(text));
  for (const e of errors) {
    if (e.code === "duplicate-key") out.report("PS102", file, [e.start, e.end], { key: e.key ?? "" });
    else if (e.code === "proto-key") out.report("PS147", file, [e.start, e.end]);
    else out.report("PS101", file, [e.start, e.end], { reason: e.message });
  }
  if (doc) out.sources.set(file, doc);
  return doc;
}

/** The largest plan, template or catalogue read: a bigger one is a mistake or an attack. */
export const MAX_SOURCE_BYTES = 16 * 1024 * 1024;

/**
 * A source file's text. Devices, FIFOs and sockets are refused before they are opened (an
 * import of /dev/zero or a FIFO would hang the compiler, and with it an editor's server).
 */
export function readSourceText(file: string): string {
  const st = statSync(file);
  if (st.isDirectory()) throw Object.assign(new Error("it is a directory"), { code: "EISDIR" });
  if (!st.isFile()) throw new Error("not a regular file (a device, FIFO or socket)");
  if (st.size > MAX_SOURCE_BYTES) throw new Error(`it is larger than ${MAX_SOURCE_BYTES / 1048576} MiB`);
  return readFileSync(file, "utf8");
}

/** Reads and parses a file; an unreadable file is PS100 at `from` (the place that names it). */
export function loadSource(
  file: string,
  out: Collector,
  from?: { file: string; range: [number, number]; name: string },
): { doc?: SourceDoc; text?: string } {
  let text: string;
  try {
    text = readSourceText(file);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message;
    if (from) out.report("PS117", from.file, from.range, { file: from.name, reason });
    else out.report("PS100", file, [0, 0], { file, reason });
    return {};
  }
  return { doc: parseSource(file, text, out), text };
}
