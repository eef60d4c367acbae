/**
 * Every step in a serial chain adds its latency and its chance of failure to the whole
 * run; a very long critical path usually hides steps that could run side by side.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "deep-chain",
  meta: {
    description: "A dependency chain (critical path) longer than a threshold.",
    defaultSeverity: "warning",
    defaultOptions: { maxDepth: 15 },
    messages: {
      tooDeep:
        'the dependency chain ending at step "{{step}}" is {{depth}} steps long (more than {{max}}): {{chain}}; run independent steps in parallel or split the plan',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    const max = Number(ctx.options.maxDepth ?? 15);
    const n = graph.nodes.length;
    if (n <= max) return;
    // Longest path by dynamic programming over the topological order, keeping one
    // predecessor per node to print the chain.
    const depth = new Int32Array(n);
    const prev = new Int32Array(n).fill(-1);
    let end = -1;
    for (const i of graph.topo) {
      let d = 1;
      for (const p of graph.parents[i]!) {
        if (depth[p]! + 1 > d) {
          d = depth[p]! + 1;
          prev[i] = p;
        }
      }
      depth[i] = d;
      if (end < 0 || d > depth[end]!) end = i;
    }
    if (end < 0 || depth[end]! <= max) return;
    const chain: string[] = [];
    for (let i = end; i >= 0; i = prev[i]!) chain.push(graph.nodes[i]!.id);
    chain.reverse();
    const shown = chain.length > 6 ? [...chain.slice(0, 3), "...", ...chain.slice(-2)] : chain;
    const step = graph.nodes[end]!.id;
    ctx.report({
      messageId: "tooDeep",
      node: step,
      data: { step, depth: depth[end]!, max, chain: shown.join(" -> ") },
    });
  },
});
