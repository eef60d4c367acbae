/**
 * Step outlines by kind (the SVG counterparts of the DOT shapes in graph-text.ts), each
 * drawn in a `w` x `h` box at the origin, plus the padding each outline needs so that
 * the text block fits inside it.
 */
import type { StepKind } from "../ir.js";

export interface Pad {
  /** Extra width on each side, extra height top and bottom. */
  x: number;
  y: number;
}

/** The room an outline takes around a text block of height `h`. */
export function shapePad(kind: StepKind, h: number): Pad {
  switch (kind) {
    case "read":
    case "search":
      return { x: 12 + h * 0.18, y: 6 };
    case "decide":
      return { x: h * 0.55 + 10, y: 10 };
    case "verify":
      return { x: h * 0.45 + 6, y: 6 };
    case "write":
      return { x: 12, y: 12 };
    case "external":
      return { x: 12 + h * 0.2, y: 6 };
    case "approval":
      return { x: 12 + h * 0.25, y: 6 };
    case "phase":
      return { x: 16, y: 10 };
    default:
      return { x: 12, y: 6 };
  }
}

const f = (n: number) => Number(n.toFixed(1));
const poly = (pts: Array<[number, number]>) => `points="${pts.map(([x, y]) => `${f(x)},${f(y)}`).join(" ")}"`;

/**
 * SVG markup of the outline; `attrs` (fill, stroke, class…) go on the main element so
 * that a reader of the DOM finds the step's colours on one element.
 */
export function shapeMarkup(kind: StepKind, w: number, h: number, attrs: string): string {
  switch (kind) {
    case "read":
    case "search": {
      const s = Math.min(h * 0.3, 14);
      return `<polygon ${poly([[s, 0], [w, 0], [w - s, h], [0, h]])} ${attrs}/>`;
    }
    case "decide":
      return `<polygon ${poly([[w / 2, 0], [w, h / 2], [w / 2, h], [0, h / 2]])} ${attrs}/>`;
    case "verify":
      return `<rect width="${f(w)}" height="${f(h)}" rx="${f(h / 2)}" ${attrs}/>`;
    case "write": {
      // A cylinder: the body carries the colours; the visible front rim is a stroke-only arc.
      const ry = 6;
      const body = `M0,${ry} A${f(w / 2)},${ry} 0 0 1 ${f(w)},${ry} V${f(h - ry)} A${f(w / 2)},${ry} 0 0 1 0,${f(h - ry)} Z`;
      return `<path d="${body}" ${attrs}/><path d="M0,${ry} A${f(w / 2)},${ry} 0 0 0 ${f(w)},${ry}" fill="none" class="rim" stroke="currentColor"/>`;
    }
    case "external": {
      const s = Math.min(h * 0.35, 16);
      return `<polygon ${poly([[0, 0], [w - s, 0], [w, h / 2], [w - s, h], [0, h]])} ${attrs}/>`;
    }
    case "approval": {
      const s = Math.min(h * 0.35, 16);
      return `<polygon ${poly([[s, 0], [w - s, 0], [w, h / 2], [w - s, h], [s, h], [0, h / 2]])} ${attrs}/>`;
    }
    case "summarize": {
      const c = 10;
      return `<polygon ${poly([[0, 0], [w - c, 0], [w, c], [w, h], [0, h]])} ${attrs}/><polyline ${poly([[w - c, 0], [w - c, c], [w, c]])} fill="none" class="rim" stroke="currentColor"/>`;
    }
    case "phase":
      // Double border: the phase is a container of steps still to be planned.
      return `<rect width="${f(w)}" height="${f(h)}" rx="3" ${attrs}/><rect x="4" y="4" width="${f(w - 8)}" height="${f(h - 8)}" rx="2" fill="none" class="rim" stroke="currentColor"/>`;
    default:
      return `<rect width="${f(w)}" height="${f(h)}" rx="4" ${attrs}/>`;
  }
}
