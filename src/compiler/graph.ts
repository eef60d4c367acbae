/**
 * Stage 5: the dependency graph. One iterative depth-first pass finds every cycle
 * (reported with its path, `a -> b -> a`) and yields a deterministic topological order:
 * dependencies first, otherwise source order.
 */

export interface GraphInput {
  ids: string[];
  /** Resolved direct dependencies per id (unknown ids already removed). */
  deps: Map<string, string[]>;
}

/** Returns a topological order, and the cycles found (each as a closed path of ids). */
export function orderSteps(g: GraphInput): { order: string[]; cycles: string[][] } {
  const state = new Map<string, 1 | 2>(); // 1 = on the stack, 2 = finished
  const order: string[] = [];
  const cycles: string[][] = [];
  for (const root of g.ids) {
    if (state.has(root)) continue;
    const stack: Array<{ id: string; next: number }> = [{ id: root, next: 0 }];
    state.set(root, 1);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const deps = g.deps.get(top.id) ?? [];
      if (top.next < deps.length) {
        const dep = deps[top.next++]!;
        const s = state.get(dep);
        if (s === undefined) {
          state.set(dep, 1);
          stack.push({ id: dep, next: 0 });
        } else if (s === 1) {
          const from = stack.findIndex((f) => f.id === dep);
          cycles.push([...stack.slice(from).map((f) => f.id), dep]);
        }
        continue;
      }
      state.set(top.id, 2);
      order.push(top.id);
      stack.pop();
    }
  }
  return { order, cycles };
}
