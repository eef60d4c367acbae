/**
 * A run directory's copy of its plan (`plan.ir.json`, `revisions/<n>.ir.json`): the IR as
 * JSON with one node per line,
 *
 *   {"irVersion":1,…,"nodes":[
 *   {"id":"a",…},
 *   {"id":"b",…}
 *   ]}
 *
 * still one JSON document for every reader (people, `jq`, an older planspec), and a layout
 * a reader that looks at a few nodes can use: `status` of a 100,000-step run shows some
 * forty steps, and parsing the other nodes of a 32 MB plan was most of its time; a
 * resume reads only the steps not yet done (the rest stay unparsed). JSON
 * strings hold no raw newline, so every newline in the file is one of the layout's.
 */
import type { IRNode, PlanIR } from "../ir.js";

export const NODES = '"nodes":[';
export const END = "\n]}";

/** The plan file's text. A plan without nodes is written on one line (nothing to skip). */
export function planFileText(plan: PlanIR): string {
  const { nodes, ...rest } = plan;
  if (nodes.length === 0) return JSON.stringify(plan);
  const head = JSON.stringify(rest);
  return `${head === "{}" ? "{" : `${head.slice(0, -1)},`}${NODES}\n${nodes.map((n) => JSON.stringify(n)).join(",\n")}${END}`;
}

/**
 * The plan of a file in that layout, with each node parsed when something other than its
 * id is first read from it; undefined for any other text (a one-line plan of an older
 * planspec: the caller parses it whole). For readers only: the nodes cannot be changed.
 * The caller has checked the bytes (the state's planDigest), so the layout is ours.
 */
export function lazyPlan(text: string): PlanIR | undefined {
  const first = text.indexOf("\n");
  if (first < 0 || !text.endsWith(END) || !text.startsWith(NODES, first - NODES.length)) return undefined;
  const head = text.slice(0, first - NODES.length);
  let plan: PlanIR;
  try {
    plan = JSON.parse(head === "{" ? "{}" : `${head.slice(0, -1)}}`) as PlanIR;
  } catch {
    return undefined;
  }
  if (plan === null || typeof plan !== "object" || Array.isArray(plan)) return undefined;
  const { order } = plan;
  let same = Array.isArray(order);
  plan.nodes = text
    .slice(first + 1, text.length - END.length)
    .split(",\n")
    .map((line, i) => {
      const node = lazyNode(line);
      same &&= node.id === order[i];
      return node;
    });
  if (same && plan.nodes.length === order.length) nodesInOrder.add(plan);
  return plan;
}

/**
 * Lazy plans whose nodes are listed in run order (the usual case), found while they were
 * read: a reader need not look at 100,000 nodes' ids again to know it.
 */
const nodesInOrder = new WeakSet<PlanIR>();

/** Notes that a lazy plan's nodes are listed in its order (its reader sees to it as they are read). */
export const markListedInOrder = (plan: PlanIR): void => void nodesInOrder.add(plan);

/** Whether `plan` is a lazy plan known to list its nodes in `order`'s order. */
export const listedInOrder = (plan: PlanIR): boolean => nodesInOrder.has(plan);

interface Pending {
  id: string;
  text: string;
  node?: IRNode;
}

const parsed = (p: Pending): IRNode => (p.node ??= JSON.parse(p.text) as IRNode);

export const readOnly = (): never => {
  throw new TypeError("a plan read lazily (for status or a resume) is read-only");
};

/** Reads through to the parsed node: keys, `in` and JSON.stringify see the whole node. */
const handler: ProxyHandler<Pending> = {
  get: (p, key) => (key === "id" ? p.id : Reflect.get(parsed(p), key)),
  has: (p, key) => key in parsed(p),
  ownKeys: (p) => Reflect.ownKeys(parsed(p)),
  getOwnPropertyDescriptor: (p, key) => {
    const d = Reflect.getOwnPropertyDescriptor(parsed(p), key);
    return d && { ...d, configurable: true };
  },
  set: readOnly,
  defineProperty: readOnly,
  deleteProperty: readOnly,
};

const ID_PREFIX = '{"id":"';

/** A node line: its id read off the line's start when it is there plainly, else parsed now. */
function lazyNode(text: string): IRNode {
  const end = text.startsWith(ID_PREFIX) ? text.indexOf('"', ID_PREFIX.length) : -1;
  const id = end < 0 ? undefined : text.slice(ID_PREFIX.length, end);
  if (id === undefined || id.includes("\\")) return JSON.parse(text) as IRNode;
  return new Proxy<Pending>({ id, text }, handler) as unknown as IRNode;
}
