/**
 * Red team, idempotency keys: a key is what makes a side effect happen once. Two ways a
 * plan that passes the gate had a write skipped as "already done" when it never happened:
 * two steps with one key (the second adopted the first's recorded result, its tool never
 * called, the run `done`), and a `for_each` key that reads `item` (the form every gated
 * payments and campaign plan of the corpus uses): it was evaluated once for the step,
 * without `item`, so every item's call carried the same key (`refund:null`) and an
 * idempotent API (one effect per key, as Stripe's) did the first item only. Real CLI, a
 * tool module that behaves like such an API.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planspec, put, scratch, STACK } from "./helpers.js";

/** An idempotent payments API: one charge per idempotency key; a repeated key returns the first answer. */
const API = `
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
export default {
  charge: { risk: "external", run: (args, ctx) => {
    const f = join(ctx.workspace, "charges.txt");
    const seen = existsSync(f) ? readFileSync(f, "utf8").split("\\n").filter(Boolean).map((l) => l.split(" ")[0]) : [];
    if (seen.includes(ctx.idempotencyKey)) return { charged: false, replayed: ctx.idempotencyKey };
    appendFileSync(f, ctx.idempotencyKey + " " + args.customer + "\\n");
    return { charged: true, customer: args.customer };
  } },
};
`;

const TWO_STEPS = `planspec: 1
name: twokeys
goal: write the invoice and the receipt of an order
inputs: { order: { type: string, default: "A-1" } }
tools: { fs.read: { risk: read }, fs.write: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  read_order:
    kind: read
    goal: read the order
    tool: fs.read
    with: { path: order.txt }
    output: order
  invoice:
    kind: write
    goal: write the invoice
    needs: [read_order]
    tool: fs.write
    with: { path: invoice.txt, content: "invoice for \${{ steps.read_order.output.content }}" }
    idempotency_key: "order-\${{ inputs.order }}"
  receipt:
    kind: write
    goal: write the receipt
    needs: [read_order, invoice]
    tool: fs.write
    with: { path: receipt.txt, content: "receipt for \${{ steps.read_order.output.content }}" }
    idempotency_key: "order-\${{ inputs.order }}"
`;

const eachPlan = (key: string) => `planspec: 1
name: refunds
goal: refund every customer of the list once
inputs: { customers: { type: array, default: [alice, bob, carol] } }
tools: { fs.read: { risk: read }, charge: { risk: external } }
limits: { max_tool_calls: 10 }
steps:
  read_order:
    kind: read
    goal: read the order
    tool: fs.read
    with: { path: order.txt }
    output: order
  refund_all:
    kind: external
    goal: refund every customer
    needs: [read_order]
    tool: charge
    for_each: { items: "\${{ inputs.customers }}", max_items: 5 }
    with: { customer: "\${{ item }}", order: "\${{ steps.read_order.output.content }}" }
    idempotency_key: "${key}"
    timeout: 10s
    approval: { required: true, approvers: [ops], timeout: 1h }
`;

function charges(ws: string): string[] {
  const f = join(ws, "charges.txt");
  return existsSync(f) ? readFileSync(f, "utf8").split("\n").filter(Boolean) : [];
}

function approveAndResume(ws: string) {
  const run = planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "r"]);
  expect(run.code, run.stderr).toBe(3);
  expect(planspec(ws, ["approve", "r", "refund_all", "--by", "ops"]).code).toBe(0);
  return planspec(ws, ["resume", "r"]);
}

describe("red team: idempotency keys that collide", () => {
  // Two steps making the same call with one key (a payment repeated by mistake) still share the effect: test/runtime/scheduler.test.ts "idempotency".
  it("two steps with one key and different calls: the second is not passed off as done; it fails naming both, before its tool is called", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", TWO_STEPS);
    put(ws, "order.txt", "A-1");
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "r"]);
    expect(readFileSync(join(ws, "invoice.txt"), "utf8")).toBe("invoice for A-1");
    // Before: exit 0, "receipt done", receipt.txt never written (the invoice's result adopted).
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(
      'step "receipt" failed: idempotency_key "order-A-1" of step "receipt" is also the key of step "invoice", which makes another call: "receipt" would adopt its result without calling fs.write; give each step its own key',
    );
    expect(r.stdout + r.stderr).not.toMatch(STACK);
    expect(existsSync(join(ws, "receipt.txt"))).toBe(false);
    const status = planspec(ws, ["status", "r", "--json"]);
    const nodes = (JSON.parse(status.stdout) as { nodes: Record<string, { status: string }> }).nodes;
    expect(nodes.receipt!.status).toBe("failed");
    expect(nodes.invoice!.status).toBe("done");
  });

  it("a for_each key that reads item is evaluated per item: every customer is refunded once, and again never", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", eachPlan("winter-refund:${{ item }}"));
    put(ws, "tools.mjs", API);
    put(ws, "order.txt", "A-1");
    const r = approveAndResume(ws);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // Before: one line, "winter-refund:null alice"; bob and carol never refunded, the run done.
    expect(charges(ws)).toEqual(["winter-refund:alice alice", "winter-refund:bob bob", "winter-refund:carol carol"]);
    // The step's record still makes a second resume adopt it whole.
    expect(planspec(ws, ["resume", "r"]).code).toBe(0);
    expect(charges(ws)).toHaveLength(3);
  });

  it("a for_each key that is the same for different items is refused before any call", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", eachPlan("winter-refund:${{ run.id }}"));
    put(ws, "tools.mjs", API);
    put(ws, "order.txt", "A-1");
    const r = approveAndResume(ws);
    // Before: exit 0 with one charge (alice); bob and carol reported as refunded.
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('idempotency_key of step "refund_all" is "winter-refund:r" for items 1 and 2');
    expect(r.stdout + r.stderr).not.toMatch(STACK);
    expect(charges(ws)).toEqual([]);
  });

  it("items that are equal may share their key (one effect for one thing)", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", eachPlan("winter-refund:${{ item }}"));
    put(ws, "tools.mjs", API);
    put(ws, "order.txt", "A-1");
    expect(planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "r", "--input", 'customers=["alice","alice","bob"]']).code).toBe(3);
    expect(planspec(ws, ["approve", "r", "refund_all", "--by", "ops"]).code).toBe(0);
    expect(planspec(ws, ["resume", "r"]).code).toBe(0);
    expect(charges(ws)).toEqual(["winter-refund:alice alice", "winter-refund:bob bob"]);
  });
});
