/** The order a run visits a plan's steps in, shared by resume's checks and the scheduler. */
import type { IRNode, PlanIR } from "../ir.js";

/**
 * The plan's nodes in run order (its order when that names every node, else the plan's
 * own). A compiled plan lists them in run order already: then no lookup table is built.
 */
export function runOrder(plan: PlanIR): IRNode[] {
  const { nodes, order } = plan;
  if (order.length !== nodes.length || nodes.every((n, i) => n.id === order[i])) return nodes;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return order.map((id) => byId.get(id)!);
}
