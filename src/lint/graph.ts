/**
 * Graph queries for lint rules, built in one topological pass: ancestor sets are
 * bitsets, so "is A an ancestor of B" is O(1) and building is O(n·(n+e)/32).
 */
import type { IRNode, PlanIR } from "../ir.js";

export class PlanGraph {
  readonly nodes: readonly IRNode[];
  readonly byId = new Map<string, IRNode>();
  readonly indexOf = new Map<string, number>();
  /** children[i]: indices of nodes that directly need node i. */
  readonly children: number[][];
  /** parents[i]: indices of node i's direct needs. */
  readonly parents: number[][];
  private readonly words: number;
  private readonly anc: Uint32Array;

  constructor(readonly ir: PlanIR) {
    this.nodes = ir.nodes;
    const n = ir.nodes.length;
    ir.nodes.forEach((node, i) => {
      this.byId.set(node.id, node);
      this.indexOf.set(node.id, i);
    });
    this.children = Array.from({ length: n }, () => []);
    this.parents = Array.from({ length: n }, () => []);
    for (let i = 0; i < n; i++) {
      for (const dep of ir.nodes[i]!.dependsOn) {
        const j = this.indexOf.get(dep);
        if (j === undefined) continue;
        this.parents[i]!.push(j);
        this.children[j]!.push(i);
      }
    }
    this.words = (n + 31) >>> 5;
    this.anc = new Uint32Array(n * this.words);
    const order = ir.order.length === n ? ir.order.map((id) => this.indexOf.get(id)!) : [...Array(n).keys()];
    const w = this.words;
    for (const i of order) {
      const base = i * w;
      for (const p of this.parents[i]!) {
        this.anc[base + (p >>> 5)]! |= 1 << (p & 31);
        const pb = p * w;
        for (let k = 0; k < w; k++) this.anc[base + k]! |= this.anc[pb + k]!;
      }
    }
  }

  node(id: string): IRNode | undefined {
    return this.byId.get(id);
  }

  /** True when `a` is a (transitive) dependency of `b`. */
  isAncestor(a: string, b: string): boolean {
    const ia = this.indexOf.get(a);
    const ib = this.indexOf.get(b);
    if (ia === undefined || ib === undefined) return false;
    return (this.anc[ib * this.words + (ia >>> 5)]! & (1 << (ia & 31))) !== 0;
  }

  /** Every transitive dependency of `id`, in plan order. */
  ancestors(id: string): IRNode[] {
    const i = this.indexOf.get(id);
    if (i === undefined) return [];
    const out: IRNode[] = [];
    const base = i * this.words;
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
}
