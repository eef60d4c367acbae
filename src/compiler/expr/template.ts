/**
 * Splitting a string into literal text and `${{ ... }}` parts.
 */

export type TemplatePart = { kind: "text"; text: string } | { kind: "expr"; src: string; start: number; end: number };

export interface ScannedTemplate {
  parts: TemplatePart[];
  /** A `${{` with no closing `}}`: from the `${{` to the end of the string. */
  unterminated?: { start: number; end: number };
}

/** Finds the `}}` closing an expression opened before `from`, skipping quoted strings so `'}}'` stays inside. */
function findClose(s: string, from: number): number {
  for (let j = from; j < s.length; j++) {
    const c = s[j];
    if (c === "'" || c === '"') {
      let k = j + 1;
      while (k < s.length && s[k] !== c) k += s[k] === "\\" ? 2 : 1;
      // An unclosed quote: give up on string-awareness and let the parser report the
      // unterminated string inside the expression, instead of an unterminated `${{`.
      if (k >= s.length) return s.indexOf("}}", from);
      j = k;
    } else if (c === "}" && s[j + 1] === "}") {
      return j;
    }
  }
  return -1;
}

/**
 * Splits a string into literal text and `${{ ... }}` parts. An expression part's `src` is
 * the whole text between `${{` and `}}` (surrounding spaces included, so it can be put
 * back verbatim), and `start`/`end` are its offsets within `s`, so
 * `parseExpression(part.src, base + part.start)` points into the original string.
 * Empty text parts are omitted.
 */
export function scanTemplate(s: string): ScannedTemplate {
  const parts: TemplatePart[] = [];
  let textStart = 0;
  for (;;) {
    const open = s.indexOf("${{", textStart);
    if (open < 0) break;
    const close = findClose(s, open + 3);
    if (close < 0) {
      if (s.length > textStart) parts.push({ kind: "text", text: s.slice(textStart) });
      return { parts, unterminated: { start: open, end: s.length } };
    }
    if (open > textStart) parts.push({ kind: "text", text: s.slice(textStart, open) });
    parts.push({ kind: "expr", src: s.slice(open + 3, close), start: open + 3, end: close });
    textStart = close + 2;
  }
  if (s.length > textStart) parts.push({ kind: "text", text: s.slice(textStart) });
  return { parts };
}
