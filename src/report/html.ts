/**
 * The shell of the self-contained HTML reports: one file, inline CSS and script, and a
 * Content-Security-Policy that forbids every network fetch, so a report opened from
 * disk shows the same thing offline and cannot be made to call out.
 */
import { isExprValue, isTemplateValue, type Value } from "../ir.js";
import { esc } from "./text.js";
import { formatNumber } from "../util/numbers.js";

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 Helvetica,Arial,'DejaVu Sans',sans-serif;color:#1a1a1a;background:#f6f7f9}
header{background:#263238;color:#fff;padding:14px 24px}
header h1{margin:0 0 4px;font-size:20px}
header .goal{color:#cfd8dc;margin:0}
nav{position:sticky;top:0;z-index:2;background:#37474f;padding:6px 24px}
nav a{color:#eceff1;margin-right:18px;text-decoration:none;font-weight:bold}
main{padding:8px 24px 40px;max-width:1400px}
section{background:#fff;border:1px solid #dde3e8;border-radius:6px;margin:16px 0;padding:12px 16px}
h2{font-size:16px;margin:4px 0 10px}
h3{font-size:13px;margin:12px 0 4px;color:#37474f}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eceff1;vertical-align:top}
th{background:#f1f3f5;font-size:12px;text-transform:uppercase;letter-spacing:.03em;color:#455a64}
td.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#f8f9fa;border:1px solid #e3e7ea;border-radius:4px;padding:8px;overflow:auto;max-height:420px;margin:4px 0;font:12px/1.4 ui-monospace,Menlo,Consolas,'DejaVu Sans Mono',monospace;white-space:pre-wrap;word-break:break-word}
.more{color:#78909c;font-style:italic}
.pill{display:inline-block;padding:0 8px;border-radius:10px;font-size:12px;font-weight:bold;border:1px solid rgba(0,0,0,.15)}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0}
.meta dt{color:#607d8b}.meta dd{margin:0}
.graph-wrap{overflow:auto;border:1px solid #eceff1;border-radius:4px;background:#fff}
details.step{border:1px solid #e3e7ea;border-radius:4px;margin:6px 0;padding:4px 10px}
details.step>summary{cursor:pointer;font-weight:bold}
details.step:target{outline:2px solid #1565c0}
.errors li{color:#b71c1c}
.filters{margin:0 0 8px}.filters label{margin-right:14px}
.ev-type{font:12px ui-monospace,Menlo,Consolas,monospace;white-space:nowrap}
tr.cat-violation td,tr.cat-limit td{background:#fff3f3}
tr.cat-approval td{background:#f6f0fb}
tr.cat-revision td{background:#fffbe6}
tr.cat-failure td{background:#fff5f5}
td.when{white-space:nowrap;color:#607d8b;font-size:12px}
ul.summary{margin:0;padding-left:20px}
.muted{color:#78909c}
.delta-up{color:#1b5e20}.delta-down{color:#b71c1c}
`;

export interface PageParts {
  title: string;
  /** Header content (already escaped markup). */
  header: string;
  nav: Array<[anchor: string, label: string]>;
  /** Body sections (already escaped markup). */
  body: string;
  /** Inline script; it must not embed report data (data lives in the DOM, escaped). */
  script?: string;
  extraCss?: string;
}

/** A complete HTML document. */
export function htmlPage(p: PageParts): string {
  const csp = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";
  return [
    "<!DOCTYPE html>",
    `<html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(p.title)}</title>`,
    `<style>${CSS}${p.extraCss ?? ""}</style></head><body>`,
    `<header>${p.header}</header>`,
    `<nav>${p.nav.map(([a, l]) => `<a href="#${esc(a)}">${esc(l)}</a>`).join("")}</nav>`,
    `<main>${p.body}</main>`,
    p.script ? `<script>${p.script}</script>` : "",
    "</body></html>",
    "",
  ].join("\n");
}

export interface Excerpt {
  text: string;
  /** Bytes of the full text that `text` leaves out. */
  moreBytes: number;
}

/** Pretty JSON of `value`, cut at `maxBytes` (UTF-8) so a huge output cannot swamp the page. */
export function jsonExcerpt(value: unknown, maxBytes = 2048): Excerpt {
  const full = JSON.stringify(value === undefined ? null : value, null, 2) ?? "null";
  const buf = Buffer.from(full, "utf8");
  if (buf.length <= maxBytes) return { text: full, moreBytes: 0 };
  // Decoding a prefix can split a multi-byte character; drop the replacement char it leaves.
  const text = buf.subarray(0, maxBytes).toString("utf8").replace(/\uFFFD$/, "");
  return { text, moreBytes: buf.length - Buffer.byteLength(text, "utf8") };
}

/** Markup of an excerpt: a <pre> and the "… N more bytes" note. */
export function excerptHtml(x: Excerpt): string {
  const more = x.moreBytes > 0 ? `<div class="more">… ${formatNumber(x.moreBytes)} more bytes</div>` : "";
  return `<pre>${esc(x.text)}</pre>${more}`;
}

/** A step's `with` as the author wrote it: expressions shown back as `${{ … }}`. */
export function displayValue(v: Value | undefined): unknown {
  if (v === undefined) return undefined;
  if (isExprValue(v)) return `\${{ ${v.$expr} }}`;
  if (isTemplateValue(v)) return v.$template.map((p) => (typeof p === "string" ? p : `\${{ ${p.$expr} }}`)).join("");
  if (Array.isArray(v)) return v.map((x) => displayValue(x));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, displayValue(x)]));
  return v;
}

/** A short one-line JSON rendering, cut at `max` characters. */
export function shortJson(value: unknown, max = 160): string {
  const s = JSON.stringify(value) ?? "undefined";
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
