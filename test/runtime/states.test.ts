import { describe, expect, it } from "vitest";
import { IllegalTransitionError, NODE_STATUSES, canTransition, resetNode, transition, type NodeStatus } from "../../src/runtime/states.js";

const legal = new Set(["pending>running", "pending>skipped", "running>done", "running>failed", "failed>running"]);

describe("node state machine", () => {
  it("allows exactly the documented transitions and throws on every other one", () => {
    for (const from of NODE_STATUSES) {
      for (const to of NODE_STATUSES) {
        const node = { status: from as NodeStatus, attempts: from === "failed" ? 1 : 0 };
        const ok = legal.has(`${from}>${to}`);
        expect(canTransition(from, to)).toBe(ok);
        if (ok) {
          transition("s", node, to, 3);
          expect(node.status).toBe(to);
        } else {
          expect(() => transition("s", node, to, 3)).toThrow(IllegalTransitionError);
          expect(node.status).toBe(from);
        }
      }
    }
  });

  it("counts an attempt on every entry into running and refuses a retry past maxAttempts", () => {
    const node = { status: "pending" as NodeStatus, attempts: 0 };
    transition("s", node, "running", 2);
    transition("s", node, "failed", 2);
    transition("s", node, "running", 2);
    expect(node.attempts).toBe(2);
    transition("s", node, "failed", 2);
    expect(() => transition("s", node, "running", 2)).toThrow(/all 2 attempts used/);
  });

  it("nothing leaves done except the explicit recovery reset", () => {
    const node = { status: "done" as NodeStatus, attempts: 1 };
    for (const to of NODE_STATUSES) expect(() => transition("s", node, to)).toThrow(IllegalTransitionError);
    resetNode(node);
    expect(node).toEqual({ status: "pending", attempts: 0 });
  });
});
