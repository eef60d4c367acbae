/**
 * Text helpers for the pictures: escaping for XML/HTML and a width estimate, because
 * the SVG is laid out in Node where no font metrics exist.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for use in HTML/XML content and quoted attribute values. */
export function esc(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

// Advance widths in em for a typical sans-serif (Helvetica/Arial/DejaVu Sans lie within
// ~10% of these); rounding up keeps labels inside their boxes on every platform.
const NARROW = new Set("iljtfrI!|.,:;'`()[]{} ".split(""));
const WIDE = new Set("mwMW@%".split(""));

/** Estimated rendered width in px of `text` in the report's sans-serif font. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  let em = 0;
  for (const ch of text) {
    if (NARROW.has(ch)) em += 0.34;
    else if (WIDE.has(ch)) em += 0.9;
    else if (ch >= "A" && ch <= "Z") em += 0.7;
    else if (ch >= "0" && ch <= "9") em += 0.58;
    else if (ch.charCodeAt(0) > 0x2000) em += 1;
    else em += 0.58;
  }
  return Math.ceil(em * fontSize * (bold ? 1.08 : 1));
}

/** `text` cut with an ellipsis so that it fits `maxWidth` px. */
export function fitText(text: string, fontSize: number, maxWidth: number, bold = false): string {
  if (textWidth(text, fontSize, bold) <= maxWidth) return text;
  const chars = [...text];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(chars.slice(0, mid).join("") + "…", fontSize, bold) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return chars.slice(0, lo).join("") + "…";
}
