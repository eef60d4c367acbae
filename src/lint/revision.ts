/**
 * What the revision rules compare between a plan and its revision: the steps that deliver
 * what the plan is for, gates, and success checks read as conjunctions of comparisons
 * (parsed with the compiler's expression parser, never with regexes).
 */
import { type Expr, parseExpression } from "../compiler/expr/index.js";
import type { IRNode } from "../ir.js";
import type { PlanGraph } from "../graph.js";

/**
 * The steps that deliver what the plan is for: the producers of its deliverables; for a
 * plan that declares none, its side effects (write/external steps) and its final steps.
 */
export function deliveringSteps(graph: PlanGraph): Set<IRNode> {
  const out = new Set<IRNode>();
  if (graph.ir.deliverables.length > 0) {
    for (const node of graph.nodes) if (graph.producesDeliverable(node)) out.add(node);
    return out;
  }
  for (const node of graph.nodes) if (graph.effectiveRisk(node) !== "read") out.add(node);
  for (const node of graph.sinks()) out.add(node);
  return out;
}

/** Per node index: 1 when the node delivers or feeds (transitively) a step that does. */
export function onDeliveryPath(graph: PlanGraph): Uint8Array {
  const delivering = deliveringSteps(graph);
  const feeds = graph.anyDescendant((n) => delivering.has(n));
  return Uint8Array.from(graph.nodes, (n, i) => (delivering.has(n) || feeds[i] ? 1 : 0));
}

/** An approval gate: an approval step, or a step that asks for approval itself. */
export function isGate(n: IRNode): boolean {
  return n.approval?.required === true || n.kind === "approval";
}

/** True when `node` waits for a gate: its own, or one on a step it depends on. */
export function isGated(graph: PlanGraph, node: IRNode): boolean {
  return isGate(node) || graph.someAncestor(node.id, isGate);
}

/**
 * What an expression says, whatever its spacing and parentheses: its parsed tree without the
 * offsets (`a>0` and `( a > 0 )` are one filter; `'all  rows'` and `'all rows'` two). Source
 * that does not parse is compared as its whitespace-collapsed text.
 */
export function expressionShape(src: string): string {
  const { ast, errors } = parseExpression(src);
  if (ast === undefined || errors.length > 0) return squash(src);
  return JSON.stringify(ast, (key, value: unknown) => (key === "start" || key === "end" ? undefined : value));
}

/** Whitespace-insensitive text of an expression source. */
export function squash(src: string): string {
  return src.trim().replace(/\s+/g, " ");
}

/** `lhs op value`; a number on either side is moved to the right (`value`), else `value` is the right side's text. */
export interface Comparison {
  lhs: string;
  op: "==" | "!=" | "<" | "<=" | ">" | ">=";
  value: number | string;
}

function numberOf(e: Expr): number | undefined {
  if (e.type === "literal" && typeof e.value === "number") return e.value;
  if (e.type === "unary" && e.op === "-" && e.operand.type === "literal" && typeof e.operand.value === "number") return -e.operand.value;
  return undefined;
}

/** A check read as its top-level `&&` conjuncts, each in canonical text, with the comparisons among them. */
export interface ReadCheck {
  conjuncts: string[];
  comparisons: Map<string, Comparison>;
}

const FLIP = { "==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<=" } as const;

/** Parses a check's expression source; undefined when it does not parse. */
export function readCheck(src: string): ReadCheck | undefined {
  const { ast } = parseExpression(src);
  if (!ast) return undefined;
  const parts: Expr[] = [];
  const split = (e: Expr) => {
    if (e.type === "binary" && e.op === "&&") {
      split(e.left);
      split(e.right);
    } else parts.push(e);
  };
  split(ast);
  const comparisons = new Map<string, Comparison>();
  const conjuncts = parts.map((p) => {
    const text = print(p);
    if (p.type === "binary" && p.op in FLIP) {
      const op = p.op as Comparison["op"];
      const l = numberOf(p.left);
      const r = numberOf(p.right);
      // The number goes right; between two expressions, the comparison reads as written.
      if (l !== undefined && r === undefined) comparisons.set(text, { lhs: print(p.right), op: FLIP[op], value: l });
      else if (l === undefined) comparisons.set(text, { lhs: print(p.left), op, value: r ?? print(p.right) });
    }
    return text;
  });
  return { conjuncts, comparisons };
}

/**
 * True when `after` accepts more than `before` on the same left-hand side: a lower bound
 * lowered, an upper bound raised, a strict bound made inclusive, an equality given up.
 * Bounds that are expressions compare only when they are the same expression.
 */
export function looser(before: Comparison, after: Comparison): boolean {
  if (before.lhs !== after.lhs) return false;
  if (before.op === "==") return after.op !== "==" || after.value !== before.value;
  if (typeof before.value !== typeof after.value || (typeof before.value === "string" && before.value !== after.value)) return false;
  const lower = (op: string) => op === ">" || op === ">=";
  const upper = (op: string) => op === "<" || op === "<=";
  if (lower(before.op) && lower(after.op)) return after.value < before.value || (after.value === before.value && before.op === ">" && after.op === ">=");
  if (upper(before.op) && upper(after.op)) return after.value > before.value || (after.value === before.value && before.op === "<" && after.op === "<=");
  return false;
}

/** Canonical text of an expression: offsets and spacing dropped, nested operators parenthesised. */
export function print(e: Expr): string {
  switch (e.type) {
    case "literal":
      return JSON.stringify(e.value);
    case "list":
      return `[${e.items.map(print).join(", ")}]`;
    case "ident":
      return e.name;
    case "member":
      return `${print(e.object)}.${e.property}`;
    case "index":
      return `${print(e.object)}[${print(e.index)}]`;
    case "call":
      return `${e.callee}(${e.args.map(print).join(", ")})`;
    case "unary":
      return `${e.op}${wrap(e.operand)}`;
    case "binary":
      return `${wrap(e.left)} ${e.op} ${wrap(e.right)}`;
  }
}

function wrap(e: Expr): string {
  return e.type === "binary" ? `(${print(e)})` : print(e);
}
