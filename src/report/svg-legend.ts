/**
 * The legend under the graph: what the fills, outlines, shapes, badges and edge styles
 * mean. Items flow left to right and wrap at the picture's width.
 */
import { RISKS, STEP_KINDS } from "../ir.js";
import { NODE_STATUSES } from "../runtime/states.js";
import { DASHED_STATUS, EDGE_COLOR, RISK_FILL, RISK_STROKE, STATUS_FILL } from "./palette.js";
import { shapeMarkup } from "./shapes.js";
import { esc, textWidth } from "./text.js";

export interface LegendOptions {
  width: number;
  /** Where the legend starts (below the graph). */
  y: number;
  byStatus: boolean;
  /** The id of the arrow marker. */
  marker: string;
}

interface Item {
  key: string;
  label: string;
  /** Markup of the 28 x 16 symbol drawn at the origin. */
  symbol: string;
}

const SYMBOL_W = 28;
const ROW = 22;

function swatch(fill: string, stroke: string, dashed = false): string {
  return `<rect class="swatch" width="${SYMBOL_W}" height="16" rx="3" fill="${fill}" stroke="${stroke}" stroke-width="1.5"${dashed ? ` stroke-dasharray="4 2"` : ""}/>`;
}

function items(opts: LegendOptions): Array<{ title: string; items: Item[] }> {
  const neutral = "#78909c";
  const fill: Item[] = opts.byStatus
    ? NODE_STATUSES.map((s) => ({ key: `status-${s}`, label: s, symbol: swatch(STATUS_FILL[s], neutral, DASHED_STATUS.has(s)) }))
    : RISKS.map((r) => ({ key: `risk-${r}`, label: r, symbol: swatch(RISK_FILL[r], RISK_STROKE[r]) }));
  const groups: Array<{ title: string; items: Item[] }> = [{ title: opts.byStatus ? "Fill: status" : "Fill: risk", items: fill }];
  if (opts.byStatus) {
    groups.push({ title: "Outline: risk", items: RISKS.map((r) => ({ key: `outline-${r}`, label: r, symbol: swatch("#ffffff", RISK_STROKE[r]) })) });
  }
  groups.push({
    title: "Shape: kind",
    items: STEP_KINDS.map((k) => ({
      key: `kind-${k}`,
      label: k,
      symbol: `<g color="${neutral}">${shapeMarkup(k, SYMBOL_W, 16, `fill="#ffffff" stroke="${neutral}" stroke-width="1.2"`)}</g>`,
    })),
  });
  groups.push({
    title: "Marks",
    items: [
      { key: "approval", label: "approval gate", symbol: `<rect width="${SYMBOL_W}" height="14" y="1" rx="7" fill="#6a1b9a"/>` },
      { key: "inferred", label: "* risk inferred", symbol: "" },
      { key: "carries", label: "output it carries", symbol: `<path d="M0,8 H${SYMBOL_W - 2}" stroke="${EDGE_COLOR}" stroke-width="1.3" marker-end="url(#${opts.marker})"/>` },
      { key: "order", label: "order only", symbol: `<path d="M0,8 H${SYMBOL_W - 2}" stroke="${EDGE_COLOR}" stroke-width="1.3" stroke-dasharray="4 3" marker-end="url(#${opts.marker})"/>` },
    ],
  });
  return groups;
}

/** Legend markup and its size. */
export function renderLegend(opts: LegendOptions): { markup: string; width: number; height: number } {
  const margin = 16;
  const parts: string[] = [];
  let y = opts.y;
  let widest = 0;
  for (const group of items(opts)) {
    const titleW = textWidth(group.title, 11, true) + 12;
    let x = margin;
    parts.push(`<text x="${x}" y="${y + 12}" font-weight="bold">${esc(group.title)}</text>`);
    x += Math.max(titleW, 92);
    for (const item of group.items) {
      const w = (item.symbol ? SYMBOL_W + 6 : 0) + textWidth(item.label, 11) + 16;
      if (x + w > opts.width - margin && x > margin + 92) {
        x = margin + 92;
        y += ROW;
      }
      const sym = item.symbol ? `<g transform="translate(0,0)">${item.symbol}</g>` : "";
      parts.push(`<g class="legend-item" data-key="${esc(item.key)}" transform="translate(${x},${y})">${sym}<text x="${item.symbol ? SYMBOL_W + 6 : 0}" y="12">${esc(item.label)}</text></g>`);
      x += w;
      widest = Math.max(widest, x);
    }
    y += ROW;
  }
  const height = y - opts.y + margin / 2;
  return { markup: `<g class="legend">${parts.join("")}</g>`, width: Math.ceil(Math.max(widest + margin, opts.width)), height: Math.ceil(height) };
}
