/**
 * Graph queries for lint rules: ancestor sets are bitsets, so "is A an ancestor of B" is
 * O(1) once B's row is filled. Rows are filled on first use (a row costs O(e·n/32) at most,
 * all rows O(n·(n+e)/32)); a question about a direct need fills none.
 */
import { type IRNode, type PlanIR, type Risk, maxRisk } from "./ir.js";

/** Where an IR object keeps its graph: a hidden (non-enumerable symbol) property. */
const GRAPH = Symbol("planGraph");
/** Graphs of IR objects that cannot take the property (frozen or sealed ones). */
const graphs = new WeakMap<PlanIR, PlanGraph>();

/**
 * The graph of `ir`, built once per IR object: the compiler builds it to check references
 * and the linter reuses it (the ancestor bitsets cost up to O(n²/32) as they fill).
 *
 * It is kept on the IR itself, not in a WeakMap: V8's young-generation collector holds a
 * WeakMap's values strongly, so every plan of a corpus lint (its graph, IR and source,
 * through `graph.ir`) survived into the old generation and was collected only there;
 * the corpus gate spent a sixth of its time in garbage collection.
 */
export function planGraph(ir: PlanIR): PlanGraph {
  const held = ir as PlanIR & { [GRAPH]?: PlanGraph };
  let graph = held[GRAPH] ?? graphs.get(ir);
  if (!graph) {
    graph = new PlanGraph(ir);
    if (Object.isExtensible(ir)) Object.defineProperty(ir, GRAPH, { value: graph });
    else graphs.set(ir, graph);
  }
  return graph;
}

export class PlanGraph {
  readonly nodes: readonly IRNode[];
  readonly byId = new Map<string, IRNode>();
  readonly indexOf = new Map<string, number>();
  /** children[i]: indices of nodes that directly need node i. */
  readonly children: number[][];
  /** parents[i]: indices of node i's direct needs. */
  readonly parents: number[][];
  /** Node indices in topological order (dependencies first). */
  readonly topo: readonly number[];
  private readonly words: number;
  /** anc[i * words ..]: the bitset of node i's ancestors, valid once filled[i] is 1. */
  private readonly anc: Uint32Array;
  private readonly filled: Uint8Array;
  /** rank[i]: node i's place in `topo`. In an acyclic plan an ancestor always ranks lower. */
  private readonly rank: Int32Array;
  private readonly acyclic: boolean;
  private producers: Map<string, IRNode> | undefined;
  private deliverableSteps: Set<IRNode> | undefined;

  constructor(readonly ir: PlanIR) {
    // Plain loops: a corpus lint builds thousands of small graphs, and Array.from and
    // per-element callbacks cost more than the work they do.
    const nodes = ir.nodes;
    this.nodes = nodes;
    const n = nodes.length;
    const { byId, indexOf } = this;
    for (let i = 0; i < n; i++) {
      const id = nodes[i]!.id;
      byId.set(id, nodes[i]!);
      indexOf.set(id, i);
    }
    const children: number[][] = [];
    const parents: number[][] = [];
    for (let i = 0; i < n; i++) {
      children.push([]);
      parents.push([]);
    }
    for (let i = 0; i < n; i++) {
      for (const dep of nodes[i]!.dependsOn) {
        const j = indexOf.get(dep);
        if (j === undefined) continue;
        parents[i]!.push(j);
        children[j]!.push(i);
      }
    }
    this.children = children;
    this.parents = parents;
    this.words = (n + 31) >>> 5;
    this.anc = new Uint32Array(n * this.words);
    this.filled = new Uint8Array(n);
    const order: number[] = [];
    if (ir.order.length === n) for (const id of ir.order) order.push(indexOf.get(id)!);
    else for (let i = 0; i < n; i++) order.push(i);
    this.topo = order;
    this.rank = new Int32Array(n);
    for (let r = 0; r < order.length; r++) this.rank[order[r]!] = r;
    // A plan with a cycle (reported by the compiler) keeps the one eager pass over `order`.
    this.acyclic = this.isTopological(order);
    if (!this.acyclic) for (const i of order) this.fill(i);
  }

  /** True when every node comes after all its parents in `order`: then each row is a pure function of the parents' rows. */
  private isTopological(order: readonly number[]): boolean {
    const seen = new Uint8Array(this.nodes.length);
    for (const i of order) {
      for (const p of this.parents[i]!) if (!seen[p]) return false;
      seen[i] = 1;
    }
    return true;
  }

  /** Row i of the ancestor bitset: its parents' bits and their rows. */
  private fill(i: number): void {
    const w = this.words;
    const base = i * w;
    for (const p of this.parents[i]!) {
      this.anc[base + (p >>> 5)]! |= 1 << (p & 31);
      const pb = p * w;
      for (let k = 0; k < w; k++) this.anc[base + k]! |= this.anc[pb + k]!;
    }
    this.filled[i] = 1;
  }

  /**
   * The offset of node i's ancestor row, filled on first use (its ancestors' rows first,
   * without recursion). Most questions are about a direct need and never fill a row, so a
   * large plan does not pay the O(n²/32) of all rows unless a rule asks about them all.
   */
  private row(i: number): number {
    if (this.filled[i]) return i * this.words;
    const stack = [i];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (this.filled[top]) {
        stack.pop();
        continue;
      }
      let waiting = false;
      for (const p of this.parents[top]!) {
        if (!this.filled[p]) {
          stack.push(p);
          waiting = true;
        }
      }
      if (waiting) continue;
      this.fill(top);
      stack.pop();
    }
    return i * this.words;
  }

  node(id: string): IRNode | undefined {
    return this.byId.get(id);
  }

  /** True when `a` is a (transitive) dependency of `b`. */
  isAncestor(a: string, b: string): boolean {
    const ia = this.indexOf.get(a);
    const ib = this.indexOf.get(b);
    if (ia === undefined || ib === undefined) return false;
    if (this.parents[ib]!.includes(ia)) return true;
    if (this.acyclic && this.rank[ia]! >= this.rank[ib]!) return false;
    return (this.anc[this.row(ib) + (ia >>> 5)]! & (1 << (ia & 31))) !== 0;
  }

  /** Every transitive dependency of `id`, in plan order. */
  ancestors(id: string): IRNode[] {
    const i = this.indexOf.get(id);
    if (i === undefined) return [];
    const out: IRNode[] = [];
    const base = this.row(i);
    for (let k = 0; k < this.words; k++) {
      let word = this.anc[base + k]!;
      while (word !== 0) {
        const bit = 31 - Math.clz32(word & -word);
        out.push(this.nodes[(k << 5) + bit]!);
        word &= word - 1;
      }
    }
    return out;
  }

  /** True when some ancestor of `id` satisfies `pred`. */
  someAncestor(id: string, pred: (n: IRNode) => boolean): boolean {
    return this.ancestors(id).some(pred);
  }

  /** Steps that list `id` in `needs`. */
  dependents(id: string): IRNode[] {
    const i = this.indexOf.get(id);
    return i === undefined ? [] : this.children[i]!.map((c) => this.nodes[c]!);
  }

  /** Nodes that no other node needs. */
  sinks(): IRNode[] {
    return this.nodes.filter((_, i) => this.children[i]!.length === 0);
  }

  /**
   * Per node (by index): 1 when some proper ancestor satisfies `pred`. One pass in
   * topological order, so rules never walk the ancestors of each node.
   */
  anyAncestor(pred: (n: IRNode) => boolean): Uint8Array {
    const hit = this.nodes.map(pred);
    const out = new Uint8Array(this.nodes.length);
    for (const i of this.topo) {
      for (const p of this.parents[i]!) {
        if (hit[p] || out[p]) {
          out[i] = 1;
          break;
        }
      }
    }
    return out;
  }

  /** Per node (by index): 1 when some proper descendant satisfies `pred` (one reverse pass). */
  anyDescendant(pred: (n: IRNode) => boolean): Uint8Array {
    const hit = this.nodes.map(pred);
    const out = new Uint8Array(this.nodes.length);
    for (let k = this.topo.length - 1; k >= 0; k--) {
      const i = this.topo[k]!;
      for (const c of this.children[i]!) {
        if (hit[c] || out[c]) {
          out[i] = 1;
          break;
        }
      }
    }
    return out;
  }

  /**
   * Per node (by index): 1 when a step it transitively consumes (along `consumes`, not
   * `needs`) satisfies `pred`.
   */
  anyConsumed(pred: (n: IRNode) => boolean): Uint8Array {
    const hit = this.nodes.map(pred);
    const out = new Uint8Array(this.nodes.length);
    for (const i of this.topo) {
      for (const id of this.nodes[i]!.consumes) {
        const c = this.indexOf.get(id);
        if (c !== undefined && (hit[c] || out[c])) {
          out[i] = 1;
          break;
        }
      }
    }
    return out;
  }

  /**
   * Those of `candidates` (direct needs of `id`) that another direct need already implies
   * transitively. Few needs: one O(1) ancestor test per pair; many: one union of the
   * needs' ancestor bitsets, then one bit test per candidate.
   */
  impliedNeeds(id: string, candidates: readonly string[]): string[] {
    const i = this.indexOf.get(id);
    if (i === undefined || candidates.length === 0) return [];
    const parents = this.parents[i]!;
    if (parents.length < 2) return [];
    const cand: number[] = [];
    for (const c of candidates) {
      const j = this.indexOf.get(c);
      if (j !== undefined) cand.push(j);
    }
    const w = this.words;
    const out: string[] = [];
    if (cand.length * parents.length <= 4 * w) {
      for (const c of cand) {
        if (parents.some((p) => p !== c && (this.anc[this.row(p) + (c >>> 5)]! & (1 << (c & 31))) !== 0)) out.push(this.nodes[c]!.id);
      }
      return out;
    }
    const union = new Uint32Array(w);
    for (const p of parents) {
      const pb = this.row(p);
      for (let k = 0; k < w; k++) union[k]! |= this.anc[pb + k]!;
    }
    for (const c of cand) if ((union[c >>> 5]! & (1 << (c & 31))) !== 0) out.push(this.nodes[c]!.id);
    return out;
  }

  /** The highest catalogue risk among a node's tools (`read` when it names none). */
  toolRisk(node: IRNode): Risk {
    let risk: Risk = "read";
    for (const t of node.allowedTools) {
      const spec = this.ir.tools[t];
      if (spec) risk = maxRisk(risk, spec.risk);
    }
    return risk;
  }

  /**
   * The risk a node really carries: the highest of its label, its tools and its kind
   * (`write` and `external` kinds imply that risk whatever the label says).
   */
  effectiveRisk(node: IRNode): Risk {
    const byKind: Risk = node.kind === "external" ? "external" : node.kind === "write" ? "write" : "read";
    return maxRisk(maxRisk(node.risk, this.toolRisk(node)), byKind);
  }

  /**
   * The step whose output is `name`. A template step's output is stored as
   * `<instance>.<name>`, and the using plan names it by `<name>` alone.
   */
  producer(name: string): IRNode | undefined {
    if (!this.producers) {
      const exact = new Map<string, IRNode>();
      const short = new Map<string, IRNode>();
      for (const n of this.nodes) {
        if (n.output === undefined) continue;
        if (!exact.has(n.output)) exact.set(n.output, n);
        const prefix = n.template ? `${n.template.instance}.` : undefined;
        if (prefix && n.output.startsWith(prefix)) {
          const bare = n.output.slice(prefix.length);
          if (!short.has(bare)) short.set(bare, n);
        }
      }
      for (const [k, v] of short) if (!exact.has(k)) exact.set(k, v);
      this.producers = exact;
    }
    return this.producers.get(name);
  }

  /** True when the node produces one of the plan's deliverables. */
  producesDeliverable(node: IRNode): boolean {
    if (!this.deliverableSteps) {
      this.deliverableSteps = new Set();
      for (const d of this.ir.deliverables) {
        const p = this.producer(d);
        if (p) this.deliverableSteps.add(p);
      }
    }
    return this.deliverableSteps.has(node);
  }
}
