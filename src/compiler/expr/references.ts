/**
 * Static reference paths in an expression: what the compiler type-checks (`steps.X` must
 * be an ancestor, `inputs.x` declared, output paths in the schema) and what the IR's
 * `consumes` is built from.
 */
import type { Expr } from "./ast.js";

/** `steps.read_csv.output.rows` -> `{ root: "steps", path: ["read_csv", "output", "rows"] }`. */
export interface Reference {
  root: string;
  path: Array<string | number>;
  start: number;
  end: number;
}

type Link = Extract<Expr, { type: "member" | "index" }>;

function staticSegment(index: Expr): string | number | undefined {
  if (index.type !== "literal") return undefined;
  const v = index.value;
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return v;
  return undefined;
}

function visit(node: Expr, out: Reference[]): void {
  switch (node.type) {
    case "literal":
      return;
    case "ident":
      out.push({ root: node.name, path: [], start: node.start, end: node.end });
      return;
    case "list":
      for (const item of node.items) visit(item, out);
      return;
    case "call":
      for (const arg of node.args) visit(arg, out);
      return;
    case "unary":
      visit(node.operand, out);
      return;
    case "binary":
      visit(node.left, out);
      visit(node.right, out);
      return;
    case "member":
    case "index":
      visitChain(node, out);
  }
}

function visitChain(top: Link, out: Reference[]): void {
  const links: Link[] = [];
  let base: Expr = top;
  while (base.type === "member" || base.type === "index") {
    links.push(base);
    base = base.object;
  }
  if (base.type === "ident") {
    const path: Array<string | number> = [];
    let end = base.end;
    // Walk outward from the root; the first dynamic index ends the static path.
    for (let k = links.length - 1; k >= 0; k--) {
      const link = links[k]!;
      const seg = link.type === "member" ? link.property : staticSegment(link.index);
      if (seg === undefined) break;
      path.push(seg);
      end = link.end;
    }
    out.push({ root: base.name, path, start: base.start, end });
  } else {
    visit(base, out);
  }
  for (let k = links.length - 1; k >= 0; k--) {
    const link = links[k]!;
    if (link.type === "index") visit(link.index, out);
  }
}

/** Every maximal static reference chain rooted at a name (and every bare name), in source order. */
export function references(ast: Expr): Reference[] {
  const out: Reference[] = [];
  visit(ast, out);
  return out.sort((a, b) => a.start - b.start);
}
