/**
 * String literal decoding: 'single' and "double" quoted, with the JSON escapes plus `\'`
 * and `\0`. An unknown escape is an error rather than a silent pass-through, so a typo
 * like `\d` in a pattern is caught at compile time.
 */
import type { ExprError } from "./ast.js";

const simple: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "/": "/",
};

/** Decodes a quoted literal (`raw` includes its quotes) starting at absolute offset `start`; bad escapes go to `errors`. */
export function decodeString(raw: string, start: number, errors: ExprError[]): string {
  const body = raw.slice(1, -1);
  if (!body.includes("\\")) return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = body[i + 1] ?? "";
    const at = start + 1 + i;
    const mapped = simple[e];
    if (mapped !== undefined) {
      out += mapped;
      i++;
    } else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(body.slice(i + 2, i + 6))) {
      out += String.fromCharCode(parseInt(body.slice(i + 2, i + 6), 16));
      i += 5;
    } else {
      errors.push({
        kind: "syntax",
        message: `invalid escape sequence "\\${e}" in string`,
        start: at,
        end: at + 2,
        hint: e === "u" ? "write \\u followed by four hex digits" : "escape a backslash as \\\\",
      });
      out += e;
      i++;
    }
  }
  return out;
}
