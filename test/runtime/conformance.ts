/**
 * The store conformance suite: every runtime behaviour that is not about files, run
 * against any `Store`. The file store and the PostgreSQL store each call
 * `storeConformance` with a harness that makes fresh stores of their kind.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decide } from "../../src/runtime/decide.js";
import { loadState } from "../../src/runtime/migrations.js";
import { reviseRun } from "../../src/runtime/revise.js";
import { resumeRun, startRun } from "../../src/runtime/run.js";
import type { RunState, Store } from "../../src/runtime/store.js";
import { CHAIN, plan, tempDir, TEST_TOOLS, writeFile } from "./helpers.js";

export interface StoreHarness {
  /** A store for run `runId` (new or existing); each call is a fresh instance, as a new process would have. */
  store(runId: string): Store;
}

const PAY = `planspec: 1
name: pay
goal: pay once
inputs: { n: { type: number, default: 7 } }
tools: { ledger: { risk: external }, echo: { risk: read } }
limits: { max_tool_calls: 20 }
steps:
  load: { kind: read, goal: load, tool: echo, with: { n: "\${{ inputs.n }}" }, output: invoice }
  pay:
    kind: external
    goal: pay
    needs: [load]
    tool: ledger
    risk: external
    idempotency_key: "invoice-\${{ inputs.n }}"
    with: { entry: "\${{ steps.load.output.n }}" }
    output: payment
  pay_again:
    kind: external
    goal: pay again by mistake
    needs: [pay]
    tool: ledger
    risk: external
    idempotency_key: "invoice-\${{ inputs.n }}"
    with: { entry: "\${{ steps.load.output.n }}" }
`;

const GATED = `planspec: 1
name: gated
goal: echo after approval
tools: { echo: { risk: read } }
limits: { max_tool_calls: 20 }
steps:
  prep: { kind: read, goal: prep, tool: echo, with: { x: 1 }, output: prepared }
  ship:
    kind: analyze
    goal: ship
    needs: [prep]
    tool: echo
    approval: { required: true, approvers: [ops] }
    with: { y: "\${{ steps.prep.output.x }}" }
`;

const lines = (ws: string, f: string): string[] => {
  try {
    return readFileSync(join(ws, f), "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

async function state(store: Store): Promise<RunState> {
  return (await loadState(await store.readStateRaw())).state;
}

let counter = 0;
const newId = (p: string) => `${p}-${process.pid}-${++counter}`;

/** Registers the suite for one kind of store. */
export function storeConformance(kind: string, harness: () => StoreHarness): void {
  describe(`Store conformance: ${kind}`, () => {
    const setup = () => {
      const ws = tempDir("planspec-conf-");
      return { ws, tools: writeFile(ws, "tools.mjs", TEST_TOOLS), h: harness() };
    };

    it("runs a plan to done: state, content-addressed outputs and a gap-free event log", async () => {
      const { ws, tools, h } = setup();
      const id = newId("chain");
      const r = await startRun({ plan: plan(CHAIN), cwd: ws, inputs: {}, toolModules: [tools], store: h.store(id) });
      expect(r.outcome.status).toBe("done");
      const again = h.store(id);
      expect(await again.exists()).toBe(true);
      const s = await state(again);
      expect(s.status).toBe("done");
      expect(s.runId).toBe(id);
      expect(s.budget.toolCalls).toBe(2);
      expect(await again.getArtifact(s.nodes.second!.outputRef!)).toEqual({ v: 5 });
      expect(await again.checkArtifact(s.nodes.first!.outputRef!, s.nodes.first!.outputHash!)).toBe(true);
      expect(await again.checkArtifact(`artifacts/${"0".repeat(64)}.json`, "0".repeat(64))).toBe(false);
      const events = await again.readEvents();
      expect(events.map((e) => e.seq)).toEqual(events.map((_e, i) => i));
      expect(events[0]!.type).toBe("run.started");
      expect(events.at(-1)).toMatchObject({ type: "run.finished", data: { status: "done" } });
      expect(events.filter((e) => e.type === "node.transition").map((e) => `${e.data.node}:${e.data.to}`)).toEqual(["first:running", "first:done", "second:running", "second:done"]);
      expect((await again.readPlan(0)).planHash).toBe(plan(CHAIN).planHash);
      expect((await again.readConfig()).toolModules).toEqual([tools]);
    });

    it("finds the last event of a type without reading them all, not fooled by that type inside an event's data", async () => {
      const { ws, tools, h } = setup();
      const id = newId("last");
      await startRun({ plan: plan(CHAIN), cwd: ws, inputs: {}, toolModules: [tools], store: h.store(id) });
      const s = h.store(id);
      await s.lock();
      s.appendEvent("node.output", { type: "run.started", code: "forged", nested: { type: "run.resumed", code: "forged" } });
      s.appendEvent("run.resumed", { code: "second-session" });
      s.appendEvent("node.output", { type: "run.resumed", code: "forged-later" });
      await s.syncEvents();
      await s.unlock();
      const again = h.store(id);
      const events = await again.readEvents();
      const byScan = (types: string[]) => events.filter((e) => types.includes(e.type)).at(-1);
      expect(again.lastEvent).toBeTypeOf("function");
      expect(await again.lastEvent!(["run.started", "run.resumed"])).toEqual(byScan(["run.started", "run.resumed"]));
      expect((await again.lastEvent!(["run.started", "run.resumed"]))?.data.code).toBe("second-session");
      const started = await again.lastEvent!(["run.started"]);
      expect(started).toEqual(byScan(["run.started"]));
      expect(started?.seq).toBe(0);
      expect(await again.lastEvent!(["no.such.type"])).toBeUndefined();
    });

    it("stores artifacts write-once by content: the same value has the same reference", async () => {
      const { h } = setup();
      const id = newId("art");
      const a = await h.store(id).putArtifact({ big: "x".repeat(1000) }, false);
      const b = await h.store(id).putArtifact({ big: "x".repeat(1000) }, true);
      expect(b).toEqual(a);
      expect(a.ref).toBe(`artifacts/${a.hash}.json`);
      expect(await h.store(id).getArtifact(a.ref)).toEqual({ big: "x".repeat(1000) });
    });

    it("refuses to start a run id that exists", async () => {
      const { ws, tools, h } = setup();
      const id = newId("dup");
      await startRun({ plan: plan(CHAIN), cwd: ws, inputs: {}, toolModules: [tools], store: h.store(id) });
      await expect(startRun({ plan: plan(CHAIN), cwd: ws, inputs: {}, toolModules: [tools], store: h.store(id) })).rejects.toThrow(/already exists/);
    });

    it("idempotency: a key is recorded with the step's result, and a second use adopts it without calling the tool", async () => {
      const { ws, tools, h } = setup();
      const id = newId("pay");
      const r = await startRun({ plan: plan(PAY), cwd: ws, inputs: {}, toolModules: [tools], store: h.store(id) });
      expect(r.outcome.status).toBe("done");
      const store = h.store(id);
      const records = await store.readIdempotency();
      expect(Object.keys(records)).toEqual(["invoice-7"]);
      const s = await state(store);
      expect(records["invoice-7"]!.resultRef).toBe(s.nodes.pay!.outputRef);
      expect(s.nodes.pay_again!.outputRef).toBe(s.nodes.pay!.outputRef);
      expect(lines(ws, "ledger.txt")).toEqual(["invoice-7 7"]);
      expect(lines(ws, "calls.log").filter((c) => c.startsWith("ledger"))).toEqual(["ledger:pay"]);
      expect((await store.readEvents()).find((e) => e.type === "idempotency.hit")?.data).toMatchObject({ node: "pay_again", key: "invoice-7" });
    });

    it("approval: the run pauses, a decision is recorded in the store, resume finishes it", async () => {
      const { ws, tools, h } = setup();
      const id = newId("gated");
      const r = await startRun({ plan: plan(GATED), cwd: ws, inputs: {}, toolModules: [tools], store: h.store(id) });
      expect(r.outcome.status).toBe("paused");
      expect((await state(h.store(id))).nodes.ship!.awaiting?.kind).toBe("approval");
      await expect(decide(h.store(id), "ship", "approved", "mallory")).rejects.toThrow(/approvers are ops/);
      await decide(h.store(id), "ship", "approved", "ops", "looks fine");
      const after = await resumeRun(h.store(id));
      expect(after.outcome.status).toBe("done");
      const s = await state(h.store(id));
      expect(s.nodes.ship).toMatchObject({ status: "done", decision: { decision: "approved", by: "ops", note: "looks fine" } });
      expect((await h.store(id).readEvents()).some((e) => e.type === "approval" && e.data.by === "ops")).toBe(true);
    });

    it("resume: a finished run stays done without tool calls; a changed input re-runs the steps that read it", async () => {
      const { ws, tools, h } = setup();
      const id = newId("resume");
      await startRun({ plan: plan(CHAIN), cwd: ws, inputs: {}, toolModules: [tools], store: h.store(id) });
      const same = await resumeRun(h.store(id));
      expect(same.outcome.status).toBe("done");
      expect(lines(ws, "calls.log")).toEqual(["echo:second"]);
      const changed = await resumeRun(h.store(id), { inputs: { a: "10" } });
      expect(changed.resume!.reset.map((x) => x.node)).toEqual(["first", "second"]);
      const s = await state(h.store(id));
      expect(await h.store(id).getArtifact(s.nodes.second!.outputRef!)).toEqual({ v: 13 });
      const seqs = (await h.store(id).readEvents()).map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_s, i) => i));
    });

    it("resume after a crash: an interrupted read step re-runs, a keyed external step with a record is adopted, one without is held", async () => {
      const { ws, tools, h } = setup();
      const id = newId("crash");
      await startRun({ plan: plan(PAY), cwd: ws, inputs: {}, toolModules: [tools], store: h.store(id) });
      // Rewind the stored state to what a crash mid-step leaves: both steps "running".
      const store = h.store(id);
      await store.lock();
      const s = await state(store);
      const payRef = s.nodes.pay!.outputRef;
      for (const n of ["load", "pay"] as const) Object.assign(s.nodes[n]!, { status: "running", endedAt: undefined, outputRef: undefined, outputHash: undefined });
      s.nodes.pay_again = { status: "pending", attempts: 0 };
      s.status = "running";
      await store.writeState(s);
      await store.unlock();
      const r = await resumeRun(h.store(id));
      expect(r.resume!.adopted).toEqual(["pay"]);
      expect(r.resume!.reset.map((x) => x.node)).toEqual(["load"]);
      expect(r.outcome.status).toBe("done");
      const after = await state(h.store(id));
      expect(after.nodes.pay!.outputRef).toBe(payRef);
      expect(lines(ws, "calls.log").filter((c) => c.startsWith("ledger"))).toEqual(["ledger:pay"]);

      // The same crash with no record: the run stops and asks instead of repeating the payment.
      const id2 = newId("held");
      const ws2 = tempDir("planspec-conf-");
      const tools2 = writeFile(ws2, "tools.mjs", TEST_TOOLS);
      await startRun({ plan: plan(PAY.replace(/ *idempotency_key: .*\n/g, "")), cwd: ws2, inputs: {}, toolModules: [tools2], store: h.store(id2) });
      const st2 = h.store(id2);
      await st2.lock();
      const s2 = await state(st2);
      Object.assign(s2.nodes.pay!, { status: "running", endedAt: undefined });
      s2.status = "running";
      await st2.writeState(s2);
      await st2.unlock();
      const held = await resumeRun(h.store(id2));
      expect(held.outcome.status).toBe("paused");
      expect(held.resume!.blocked).toEqual([{ node: "pay", risk: "external" }]);
      expect((await state(h.store(id2))).status).toBe("paused");
    });

    it("retries a failing step with events, and records a failed run", async () => {
      const { ws, tools, h } = setup();
      const flaky = (n: number) => `planspec: 1
name: flaky
goal: flaky
tools: { flaky: { risk: read } }
limits: { max_tool_calls: 20 }
steps:
  f: { kind: analyze, goal: flaky, tool: flaky, with: { succeedOn: ${n} }, retry: { max_attempts: 2, backoff: none } }
`;
      const ok = newId("retry");
      expect((await startRun({ plan: plan(flaky(2)), cwd: ws, inputs: {}, toolModules: [tools], store: h.store(ok) })).outcome.status).toBe("done");
      expect((await h.store(ok).readEvents()).filter((e) => e.type === "retry").map((e) => e.data.nextAttempt)).toEqual([2]);
      const bad = newId("fail");
      const r = await startRun({ plan: plan(flaky(5)), cwd: ws, inputs: {}, toolModules: [tools], store: h.store(bad) });
      expect(r.outcome.status).toBe("failed");
      const s = await state(h.store(bad));
      expect(s.status).toBe("failed");
      expect(s.nodes.f).toMatchObject({ status: "failed", attempts: 2, lastError: "transient failure 2" });
    });

    it("revision: the new plan is stored as revision 1 and resume runs the changed step", async () => {
      const { ws, tools, h } = setup();
      const id = newId("revise");
      await startRun({ plan: plan(CHAIN), cwd: ws, inputs: {}, toolModules: [tools], store: h.store(id) });
      const next = plan(CHAIN.replace("b: 3", "b: 4"));
      const rev = await reviseRun(h.store(id), next, { reason: "b was wrong", evidence: ["steps.first"] });
      expect(rev.revision).toBe(1);
      expect(rev.reset).toEqual(["first", "second"]);
      expect((await h.store(id).readPlan(1)).planHash).toBe(next.planHash);
      const r = await resumeRun(h.store(id));
      expect(r.outcome.status).toBe("done");
      const s = await state(h.store(id));
      expect(s.revision).toBe(1);
      expect(await h.store(id).getArtifact(s.nodes.second!.outputRef!)).toEqual({ v: 6 });
      expect((await h.store(id).readEvents()).find((e) => e.type === "plan.revised")?.data).toMatchObject({ revision: 1, reason: "b was wrong" });
    });
  });
}
