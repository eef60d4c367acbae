/**
 * Top-to-bottom layered layout of a DAG with dagre: boxes never overlap, edge labels
 * get their own slots, and edges come back as polylines between the boxes.
 */
import dagre from "@dagrejs/dagre";

export interface Point {
  x: number;
  y: number;
}

export interface SizedNode {
  id: string;
  width: number;
  height: number;
}

export interface SizedEdge {
  from: string;
  to: string;
  label?: { text: string; width: number; height: number };
}

/** A placed node: `x`, `y` are the top-left corner. */
export interface PlacedNode extends SizedNode {
  x: number;
  y: number;
}

export interface PlacedEdge {
  from: string;
  to: string;
  points: Point[];
  /** The label's box, top-left corner. */
  label?: { text: string; x: number; y: number; width: number; height: number };
}

export interface GraphLayout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

export interface LayoutOptions {
  nodeSep?: number;
  rankSep?: number;
  margin?: number;
}

/** Places `nodes` and `edges` top to bottom; edges naming unknown nodes are ignored. */
export function layoutDag(nodes: readonly SizedNode[], edges: readonly SizedEdge[], opts: LayoutOptions = {}): GraphLayout {
  const margin = opts.margin ?? 16;
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "TB", nodesep: opts.nodeSep ?? 28, ranksep: opts.rankSep ?? 44, edgesep: 12, marginx: margin, marginy: margin });
  g.setDefaultEdgeLabel(() => ({}));
  const known = new Set<string>();
  for (const n of nodes) {
    g.setNode(n.id, { width: n.width, height: n.height });
    known.add(n.id);
  }
  edges.forEach((e, i) => {
    if (!known.has(e.from) || !known.has(e.to) || e.from === e.to) return;
    const label = e.label ? { width: e.label.width, height: e.label.height, labelpos: "c" as const } : { width: 0, height: 0 };
    g.setEdge(e.from, e.to, label, `e${i}`);
  });
  dagre.layout(g);

  const placed: PlacedNode[] = nodes.map((n) => {
    const d = g.node(n.id);
    return { ...n, x: (d?.x ?? 0) - n.width / 2, y: (d?.y ?? 0) - n.height / 2 };
  });
  const out: PlacedEdge[] = [];
  edges.forEach((e, i) => {
    if (!known.has(e.from) || !known.has(e.to) || e.from === e.to) return;
    const d = g.edge({ v: e.from, w: e.to, name: `e${i}` });
    const edge: PlacedEdge = { from: e.from, to: e.to, points: (d?.points ?? []).map((p: Point) => ({ x: p.x, y: p.y })) };
    if (e.label && d?.x !== undefined && d.y !== undefined) {
      edge.label = { text: e.label.text, x: d.x - e.label.width / 2, y: d.y - e.label.height / 2, width: e.label.width, height: e.label.height };
    }
    out.push(edge);
  });
  const graph = g.graph();
  return { width: Math.ceil(graph.width ?? 0), height: Math.ceil(graph.height ?? 0), nodes: placed, edges: out };
}
