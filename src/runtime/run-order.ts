/** The order a run visits a plan's steps in, shared by resume's checks and the scheduler. */
import type { IRNode, PlanIR } from "../ir.js";
import { listedInOrder } from "./plan-file.js";
import type { NodeState, RunState } from "./store.js";

/**
 * The plan's nodes in run order (its order when that names every node, else the plan's
 * own). A compiled plan lists them in run order already: then no lookup table is built.
 */
export function runOrder(plan: PlanIR): IRNode[] {
  const { nodes, order } = plan;
  // A lazy plan known to list its nodes in order (plan-file.ts): no id of 100,000 proxies read again.
  if (listedInOrder(plan) || order.length !== nodes.length || nodes.every((n, i) => n.id === order[i])) return nodes;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return order.map((id) => byId.get(id)!);
}

/** A session's steps in run order, with their ids and their states (the objects in the run's state). */
export interface Ordered {
  nodes: IRNode[];
  ids: readonly string[];
  states: NodeState[];
}

/**
 * The steps in run order with their states, looked up once for a session: the nodes of a
 * long run are a dictionary, and a lookup per step costs more than the rest of a pass
 * (resume's checks, the scheduler and the tools in use each made one). A step with no
 * state yet (a resume of a state that lacks it) gets a pending one, its id added to `added`.
 */
export function inRunOrder(plan: PlanIR, state: RunState, added?: Set<string>): Ordered {
  const nodes = runOrder(plan);
  // The ids off the order when the nodes follow it: a lazy plan's node stays a proxy unread.
  const ids = nodes === plan.nodes && nodes.length === plan.order.length ? plan.order : nodes.map((n) => n.id);
  const states = ids.map((id) => {
    const st = state.nodes[id];
    if (st !== undefined) return st;
    added?.add(id);
    return (state.nodes[id] = { status: "pending", attempts: 0 });
  });
  return { nodes, ids, states };
}
