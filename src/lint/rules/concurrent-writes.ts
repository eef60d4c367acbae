/**
 * The runtime runs independent ready steps at the same time: two writes to the same
 * target with nothing ordering them race, and the last one silently wins.
 */
import { type IRNode, type Value, riskRank } from "../../ir.js";
import { defineRule } from "../rule.js";
import { expressionRoots, normaliseValue, nodeExpressions } from "../text.js";

// Argument names that say where a write lands, in order of preference. Not `url`: two
// POSTs to one endpoint (two chat messages) are two effects, not a race.
const TARGET_KEYS = [
  "path", "file", "file_path", "filename", "target", "dest", "destination", "output_path", "out",
  "table", "key", "branch", "ref", "repo", "resource", "document",
];

export const rule = defineRule({
  id: "concurrent-writes",
  meta: {
    description: "Two unordered write steps with the same tool and target, or a parallel for_each writing one target.",
    defaultSeverity: "error",
    defaultConfidence: "medium",
    messages: {
      race:
        'steps "{{other}}" and "{{step}}" both write {{target}} with "{{tool}}" and nothing orders them; make "{{step}}" need "{{other}}"',
      parallelItems:
        'step "{{step}}" writes {{target}} from {{concurrency}} for_each items at once; set for_each.concurrency: 1 or write one target per item',
    },
  },
  check(ctx) {
    const { ir, graph } = ctx;
    // Per (tool, target): the last write seen in plan order. Within a group the writes are
    // safe iff they form a chain, and a chain is checked pairwise along the order alone.
    const last = new Map<string, IRNode>();
    const writers = new Map<string, number>();
    const writes = (n: IRNode): boolean => n.tool !== undefined && riskRank(graph.effectiveRisk(n)) >= 1;
    for (const n of ir.nodes) if (writes(n)) writers.set(n.tool!, (writers.get(n.tool!) ?? 0) + 1);
    for (const id of ir.order) {
      const node = graph.node(id);
      if (!node || !writes(node)) continue;
      // A tool that writes once can only race with itself through a parallel for_each.
      if (writers.get(node.tool!)! < 2 && (node.forEach?.concurrency ?? 1) <= 1) continue;
      const target = targetOf(node);
      if (!target) continue;
      const shown = `${target.key}=${target.shown}`;
      const conc = node.forEach?.concurrency ?? 1;
      if (conc > 1 && !readsItem(node, target.key)) {
        ctx.report({
          messageId: "parallelItems",
          node: node.id,
          path: ["with", target.key],
          data: { step: node.id, target: shown, concurrency: conc },
        });
      }
      const group = `${node.tool}\u0000${target.key}\u0000${target.value}`;
      const prev = last.get(group);
      last.set(group, node);
      // Two guarded steps are usually alternatives (`when: x` / `when: !x`).
      if (!prev || graph.isAncestor(prev.id, node.id) || (prev.when !== undefined && node.when !== undefined)) continue;
      ctx.report({
        messageId: "race",
        node: node.id,
        path: ["with", target.key],
        data: { step: node.id, other: prev.id, tool: node.tool!, target: shown },
      });
    }
  },
});

// True when the target argument varies per for_each item.
function readsItem(node: IRNode, key: string): boolean {
  return nodeExpressions(node).some((e) => e.path[1] === key && expressionRoots(e.source).has("item"));
}

function targetOf(node: IRNode): { key: string; value: string; shown: string } | undefined {
  if (!node.with) return undefined;
  for (const key of TARGET_KEYS) {
    const v: Value | undefined = node.with[key];
    if (v === undefined || v === null) continue;
    const value = normaliseValue(v);
    return { key, value, shown: typeof v === "string" ? v : value.length > 40 ? `${value.slice(0, 37)}...` : value };
  }
  return undefined;
}
