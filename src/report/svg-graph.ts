/**
 * The plan DAG as a standalone SVG: a dagre layout, steps shaped by kind and filled by
 * risk (or by status for a run), approval gates badged, phases double-bordered, edges
 * labelled with the output they carry, and a legend. Pure: IR (and statuses) in, text out.
 */
import type { IRNode, PlanIR } from "../ir.js";
import type { NodeStatus } from "../runtime/states.js";
import { layoutDag, type PlacedEdge, type PlacedNode, type Point, type SizedEdge } from "./layout.js";
import { renderLegend } from "./svg-legend.js";
import { DASHED_STATUS, EDGE_COLOR, FONT, MUTED_TEXT, RISK_FILL, RISK_STROKE, STATUS_FILL, TEXT_COLOR } from "./palette.js";
import { shapeMarkup, shapePad } from "./shapes.js";
import { esc, fitText, textWidth } from "./text.js";

export interface SvgOptions {
  /** Colour steps by these statuses instead of by risk (a run's state). */
  status?: Readonly<Record<string, NodeStatus>>;
  /** A short extra line under a step's status, e.g. "waiting for approval". */
  notes?: Readonly<Record<string, string>>;
  /** Make each step a link to `#<linkPrefix><id>` (the run report's step details). */
  linkPrefix?: string;
  /** Prefix of ids inside the SVG, so several pictures can share one HTML page. */
  idPrefix?: string;
}

const ID_FONT = 13;
const SUB_FONT = 11;
const LINE = 15;
const MAX_TEXT = 210;
const MIN_TEXT = 84;
const BADGE_H = 16;
const LABEL_FONT = 10.5;

interface NodeBox {
  node: IRNode;
  lines: Array<{ text: string; cls: string }>;
  shapeW: number;
  shapeH: number;
  /** Room above the outline for the approval badge (half of it; the other half is inside). */
  top: number;
}

function flags(n: IRNode): string {
  const f = [n.kind, n.risk + (n.riskInferred ? "*" : "")];
  if (n.repeat) f.push("repeat");
  if (n.forEach) f.push("for_each");
  if (n.when) f.push("when");
  return f.join(" · ");
}

function measure(n: IRNode, opts: SvgOptions): NodeBox {
  const lines = [{ text: fitText(n.id, ID_FONT, MAX_TEXT, true), cls: "id" }, { text: fitText(flags(n), SUB_FONT, MAX_TEXT), cls: "sub" }];
  if (n.tool) lines.push({ text: fitText(n.tool, SUB_FONT, MAX_TEXT), cls: "tool" });
  else if (n.phase) lines.push({ text: fitText(`expand: ${n.phase.expand}`, SUB_FONT, MAX_TEXT), cls: "tool" });
  const st = opts.status?.[n.id];
  if (st) lines.push({ text: st, cls: "status" });
  const note = opts.notes?.[n.id];
  if (note) lines.push({ text: fitText(note, SUB_FONT, MAX_TEXT), cls: "note" });
  const textW = Math.max(MIN_TEXT, ...lines.map((l) => textWidth(l.text, l.cls === "id" ? ID_FONT : SUB_FONT, l.cls === "id" || l.cls === "status")));
  const textH = lines.length * LINE;
  const pad = shapePad(n.kind, textH);
  const top = n.approval?.required ? BADGE_H / 2 : 0;
  return { node: n, lines, shapeW: Math.ceil(textW + 2 * pad.x), shapeH: Math.ceil(textH + 2 * pad.y + top), top };
}

function edgePath(points: readonly Point[]): string {
  if (points.length === 0) return "";
  const r = (p: Point) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`;
  let d = `M${r(points[0]!)}`;
  // Smooth the polyline: each bend becomes a quadratic curve through segment midpoints.
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i]!;
    const q = points[i + 1]!;
    d += ` Q${r(p)} ${r({ x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 })}`;
  }
  if (points.length > 1) d += ` L${r(points[points.length - 1]!)}`;
  return d;
}

function renderNode(box: NodeBox, at: PlacedNode, opts: SvgOptions): string {
  const n = box.node;
  const status = opts.status?.[n.id];
  const fill = status ? STATUS_FILL[status] : RISK_FILL[n.risk];
  const dash = status && DASHED_STATUS.has(status) ? ` stroke-dasharray="5 3"` : "";
  const width = n.approval?.required ? 2.6 : 1.6;
  const attrs = `class="shape" fill="${fill}" stroke="${RISK_STROKE[n.risk]}" stroke-width="${width}"${dash}`;
  const parts = [`<title>${esc(`${n.id} (${n.kind}, ${n.risk}${status ? `, ${status}` : ""}): ${n.goal}`)}</title>`];
  parts.push(`<g transform="translate(0,${box.top})">${shapeMarkup(n.kind, box.shapeW, box.shapeH, attrs)}`);
  // The badge's lower half lies inside the outline: the text block starts below it.
  const y0 = box.top + (box.shapeH - box.top - box.lines.length * LINE) / 2 + LINE * 0.75;
  box.lines.forEach((l, i) => parts.push(`<text class="${l.cls}" x="${box.shapeW / 2}" y="${(y0 + i * LINE).toFixed(1)}" text-anchor="middle">${esc(l.text)}</text>`));
  parts.push("</g>");
  if (n.approval?.required) {
    const label = "approval";
    const bw = textWidth(label, 9.5, true) + 14;
    const bx = box.shapeW - bw - 10;
    parts.push(
      `<g class="badge approval-badge"><rect x="${bx}" y="0" width="${bw}" height="${BADGE_H}" rx="${BADGE_H / 2}" fill="#6a1b9a"/>` +
        `<text x="${bx + bw / 2}" y="11.5" text-anchor="middle" fill="#fff" font-size="9.5" font-weight="bold">${label}</text></g>`,
    );
  }
  const g =
    `<g class="node" data-id="${esc(n.id)}" data-kind="${n.kind}" data-risk="${n.risk}"${status ? ` data-status="${status}"` : ""}` +
    ` transform="translate(${at.x.toFixed(1)},${at.y.toFixed(1)})" color="${RISK_STROKE[n.risk]}">${parts.join("")}</g>`;
  return opts.linkPrefix !== undefined ? `<a href="#${esc(opts.linkPrefix + n.id)}" class="node-link">${g}</a>` : g;
}

function renderEdge(e: PlacedEdge, carries: boolean, marker: string): string {
  const dash = carries ? "" : ` stroke-dasharray="4 3"`;
  const path = `<path d="${edgePath(e.points)}" fill="none" stroke="${EDGE_COLOR}" stroke-width="1.3"${dash} marker-end="url(#${marker})"/>`;
  return `<g class="edge" data-from="${esc(e.from)}" data-to="${esc(e.to)}">${path}</g>`;
}

function renderEdgeLabel(e: PlacedEdge): string {
  const l = e.label!;
  return (
    `<g class="edge-label" data-from="${esc(e.from)}" data-to="${esc(e.to)}"><rect x="${l.x.toFixed(1)}" y="${l.y.toFixed(1)}" width="${l.width}" height="${l.height}" rx="3" fill="#fff" stroke="#cfd8dc"/>` +
    `<text x="${(l.x + l.width / 2).toFixed(1)}" y="${(l.y + l.height / 2 + 3.6).toFixed(1)}" text-anchor="middle">${esc(l.text)}</text></g>`
  );
}

/** The SVG picture of the plan (colour by `status` when given). */
export function renderSvg(ir: PlanIR, opts: SvgOptions = {}): string {
  const prefix = opts.idPrefix ?? "ps";
  const marker = `${prefix}-arrow`;
  const boxes = new Map(ir.nodes.map((n) => [n.id, measure(n, opts)]));
  const byId = new Map(ir.nodes.map((n) => [n.id, n]));
  const edges: SizedEdge[] = [];
  for (const n of ir.nodes) {
    for (const d of n.dependsOn) {
      const producer = byId.get(d);
      if (!producer) continue;
      const e: SizedEdge = { from: d, to: n.id };
      if (producer.output && n.consumes.includes(d)) {
        const text = fitText(producer.output, LABEL_FONT, 150);
        e.label = { text, width: textWidth(text, LABEL_FONT) + 10, height: 16 };
      }
      edges.push(e);
    }
  }
  const layout = layoutDag(
    ir.nodes.map((n) => {
      const b = boxes.get(n.id)!;
      return { id: n.id, width: b.shapeW, height: b.shapeH + b.top };
    }),
    edges,
  );
  const legend = renderLegend({ width: Math.max(layout.width, 620), y: layout.height + 8, byStatus: opts.status !== undefined, marker });
  const width = Math.max(layout.width, legend.width);
  // A narrow graph is centred over the wider legend.
  const dx = Math.floor((width - layout.width) / 2);
  const height = layout.height + 8 + legend.height;
  const css =
    `.plan-graph text{font-family:${FONT};fill:${TEXT_COLOR}}` +
    `.plan-graph .id{font-size:${ID_FONT}px;font-weight:bold}.plan-graph .sub,.plan-graph .tool,.plan-graph .note{font-size:${SUB_FONT}px;fill:${MUTED_TEXT}}` +
    `.plan-graph .status{font-size:${SUB_FONT}px;font-weight:bold}.plan-graph .rim{stroke-width:1.2}` +
    `.plan-graph .edge-label text{font-size:${LABEL_FONT}px;fill:${MUTED_TEXT}}.plan-graph .legend text{font-size:11px}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="plan-graph" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(`Plan ${ir.name}: ${ir.nodes.length} steps`)}">`,
    `<title>${esc(`${ir.name}: ${ir.goal}`)}</title>`,
    `<style>${css}</style>`,
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${EDGE_COLOR}"/></marker></defs>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<g class="graph" transform="translate(${dx},0)">`,
    `<g class="edges">${layout.edges.map((e) => renderEdge(e, e.label !== undefined, marker)).join("")}</g>`,
    `<g class="nodes">${layout.nodes.map((p) => renderNode(boxes.get(p.id)!, p, opts)).join("")}</g>`,
    `<g class="edge-labels">${layout.edges.filter((e) => e.label).map(renderEdgeLabel).join("")}</g>`,
    `</g>`,
    legend.markup,
    `</svg>`,
  ].join("\n");
}
