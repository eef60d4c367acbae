/**
 * `--format junit`: JUnit XML for CI systems that show test reports. One testsuite per
 * linted file, one failing testcase per finding; a clean file is one passing testcase,
 * so the report also shows what was checked.
 */
import type { Diagnostic } from "../../diagnostic.js";
import type { FormatOptions } from "./index.js";

// Characters XML 1.0 cannot carry at all, even escaped.
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const SPECIAL = /[&<>"'\r\n]/g;
const ENTITY: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\r": "&#13;", "\n": "&#10;" };

/** Escapes text for an XML attribute or element (one pass); newlines survive attribute normalisation. */
export function escapeXml(s: string): string {
  return s.replace(INVALID_XML, "").replace(SPECIAL, (c) => ENTITY[c]!);
}

/** Formats diagnostics as a JUnit XML report. */
export function formatJunit(diagnostics: readonly Diagnostic[], options: FormatOptions): string {
  const byFile = new Map<string, Diagnostic[]>();
  for (const f of options.files ?? []) byFile.set(f, []);
  for (const d of diagnostics) {
    const list = byFile.get(d.file);
    if (list) list.push(d);
    else byFile.set(d.file, [d]);
  }
  const suites: string[] = [];
  for (const [file, list] of byFile) {
    const f = escapeXml(file);
    const cases =
      list.length === 0
        ? [`    <testcase classname="${f}" name="${f}"/>`]
        : list.map((d) => {
            const name = escapeXml(`${d.line}:${d.col} ${d.code}`);
            const body = escapeXml(`${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]${d.hint ? `\n${d.hint}` : ""}\n${d.docsUrl}`);
            return [
              `    <testcase classname="${f}" name="${name}">`,
              `      <failure type="${d.severity}" message="${escapeXml(d.message)}">${body}</failure>`,
              "    </testcase>",
            ].join("\n");
          });
    const tests = Math.max(1, list.length);
    suites.push(`  <testsuite name="${f}" tests="${tests}" failures="${list.length}" errors="0">\n${cases.join("\n")}\n  </testsuite>`);
  }
  const tests = [...byFile.values()].reduce((n, l) => n + Math.max(1, l.length), 0);
  const header = `<testsuites name="planspec lint" tests="${tests}" failures="${diagnostics.length}" errors="0">`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${header}\n${suites.join("\n")}${suites.length ? "\n" : ""}</testsuites>\n`;
}
