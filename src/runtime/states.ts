/**
 * The node and run state machines (SPEC §5). The enums are fixed; every transition goes
 * through `transition`, which throws on an illegal move so a scheduler bug cannot
 * silently corrupt a run.
 */

export const NODE_STATUSES = ["pending", "running", "done", "failed", "skipped"] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

export const RUN_STATUSES = ["running", "paused", "done", "failed", "terminated"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const NODE_MOVES: Readonly<Record<NodeStatus, readonly NodeStatus[]>> = {
  pending: ["running", "skipped"],
  running: ["done", "failed"],
  // A retry: allowed only while attempts remain (checked by `transition`).
  failed: ["running"],
  done: [],
  skipped: [],
};

/** Thrown on a transition the state machine does not allow: always a bug, never a user error. */
export class IllegalTransitionError extends Error {
  constructor(
    readonly node: string,
    readonly from: NodeStatus,
    readonly to: NodeStatus,
    reason?: string,
  ) {
    super(`illegal transition of step "${node}": ${from} -> ${to}${reason ? ` (${reason})` : ""}`);
    this.name = "IllegalTransitionError";
  }
}

/** True when the machine allows `from -> to` (ignoring attempt limits). */
export function canTransition(from: NodeStatus, to: NodeStatus): boolean {
  return NODE_MOVES[from].includes(to);
}

/** A step that runs no more in a session: the machine has no move out of done or skipped (only a resume's checks reset one). */
export const isSettled = (status: NodeStatus | undefined): boolean => status !== undefined && NODE_MOVES[status].length === 0;

/** The part of a node's state the machine reads and writes. */
export interface MachineNode {
  status: NodeStatus;
  attempts: number;
}

/**
 * Moves a node to `to`, counting an attempt on every entry into `running`; a retry
 * (`failed -> running`) is refused once `maxAttempts` attempts were made.
 */
export function transition(id: string, node: MachineNode, to: NodeStatus, maxAttempts = 1): void {
  const from = node.status;
  if (!canTransition(from, to)) throw new IllegalTransitionError(id, from, to);
  if (from === "failed" && to === "running" && node.attempts >= maxAttempts) {
    throw new IllegalTransitionError(id, from, to, `all ${maxAttempts} attempts used`);
  }
  if (to === "running") node.attempts++;
  node.status = to;
}

/**
 * Recovery, not a transition: resume and revise send a node whose recorded result can no
 * longer be trusted (missing artifact, interrupted call, changed definition) back to
 * `pending`. This is the one way out of `done`, and it is always logged as `node.reset`.
 */
export function resetNode(node: MachineNode): void {
  node.status = "pending";
  node.attempts = 0;
}

