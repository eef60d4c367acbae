import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resumeRun, startRun } from "../../src/runtime/run.js";
import { plan, readEvents, readOutput, readState, tempDir, TEST_TOOLS, writeFile } from "./helpers.js";

function setup() {
  const ws = tempDir();
  return { ws, tools: writeFile(ws, "tools.mjs", TEST_TOOLS) };
}

const head = (tools: string, limits = "limits: { max_tool_calls: 50 }") => `planspec: 1
name: t
goal: test the scheduler
tools: { ${tools} }
${limits}
steps:
`;

const lines = (ws: string, f: string) => {
  try {
    return readFileSync(join(ws, f), "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

describe("scheduler", () => {
  it("runs 24 steps at once (concurrency 16) without a warning about abort listeners", async () => {
    const { ws, tools } = setup();
    const steps = Array.from({ length: 24 }, (_, i) => `  s${i}: { kind: analyze, goal: echo ${i}, tool: echo, with: { i: ${i} } }\n`).join("");
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    try {
      const r = await startRun({ plan: plan(head("echo: { risk: read }") + steps), cwd: ws, inputs: {}, toolModules: [tools], runDir: "run", concurrency: 16 });
      expect(r.outcome.status).toBe("done");
      // Warnings are emitted on the next tick.
      await new Promise((res) => setImmediate(res));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it("retries with backoff, visible in events, and succeeds within max_attempts", async () => {
    const { ws, tools } = setup();
    const ir = plan(head("flaky: { risk: read }") + `  f:
    kind: analyze
    goal: flaky
    tool: flaky
    with: { succeedOn: 3 }
    retry: { max_attempts: 3, backoff: exponential, initial_delay: 20ms, max_delay: 1s }
`);
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    expect(r.outcome.status).toBe("done");
    const retries = readEvents(r.dir).filter((e) => e.type === "retry");
    expect(retries.map((e) => e.data.nextAttempt)).toEqual([2, 3]);
    // Equal jitter: between half and all of 20ms, then of 40ms.
    expect(retries[0]!.data.delayMs).toBeGreaterThanOrEqual(10);
    expect(retries[1]!.data.delayMs).toBeGreaterThanOrEqual(20);
    expect(readState(r.dir).nodes.f!.attempts).toBe(3);
    const transitions = readEvents(r.dir).filter((e) => e.type === "node.transition").map((e) => `${e.data.from}>${e.data.to}`);
    expect(transitions).toEqual(["pending>running", "running>failed", "failed>running", "running>failed", "failed>running", "running>done"]);
  });

  it("fails the run when retries are exhausted", async () => {
    const { ws, tools } = setup();
    const ir = plan(head("flaky: { risk: read }") + `  f: { kind: analyze, goal: flaky, tool: flaky, with: { succeedOn: 5 }, retry: { max_attempts: 2, backoff: none } }
`);
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    expect(r.outcome.status).toBe("failed");
    expect(r.outcome.reason).toMatch(/after 2 attempts: transient failure 2/);
  });

  it("aborts a step at its timeout and terminates the run after the last attempt", async () => {
    const { ws, tools } = setup();
    const ir = plan(head("slow: { risk: read }") + `  s: { kind: analyze, goal: slow, tool: slow, with: { ms: 5000 }, timeout: 100ms, retry: { max_attempts: 2, backoff: none } }
`);
    const t0 = Date.now();
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(r.outcome.status).toBe("terminated");
    expect(readState(r.dir).nodes.s!.lastError).toMatch(/timed out after 100ms/);
  });

  it("terminates the run at run_timeout and at max_tool_calls", async () => {
    const { ws, tools } = setup();
    const slow = plan(head("slow: { risk: read }", "limits: { run_timeout: 150ms, max_tool_calls: 10 }") + `  s: { kind: analyze, goal: slow, tool: slow, with: { ms: 5000 } }
`);
    const r1 = await startRun({ plan: slow, cwd: ws, inputs: {}, toolModules: [tools], runDir: "r1" });
    expect(r1.outcome).toMatchObject({ status: "terminated", reason: expect.stringMatching(/run_timeout/) });
    const many = plan(head("echo: { risk: read }", "limits: { max_tool_calls: 2 }") + ["a", "b", "c"].map((id, i) => `  ${id}: { kind: analyze, goal: echo, tool: echo${i ? `, needs: [${["a", "b"][i - 1]}]` : ""} }\n`).join(""));
    const r2 = await startRun({ plan: many, cwd: ws, inputs: {}, toolModules: [tools], runDir: "r2" });
    expect(r2.outcome).toMatchObject({ status: "terminated", reason: expect.stringMatching(/max_tool_calls \(2\)/) });
    expect(readState(r2.dir).nodes.c!.status).toBe("failed");
  });

  describe("a step's abort signal", () => {
    // A tool that ignores its signal and never answers; `reads` writes down when its
    // ctx.signal fires and with what. Steps have no timeout: only the run aborts them.
    const HANGING = `
import { appendFileSync } from "node:fs";
import { join } from "node:path";
export default {
  hangs: { risk: "read", run: () => new Promise(() => {}) },
  passes: { risk: "read", run: (args) => ({ i: args.i }) },
  // Leaves a task behind that reads its signal after the step is over, while the next one runs.
  leaves: { risk: "read", run: async (args, ctx) => {
    setTimeout(() => ctx.signal.addEventListener("abort", () => {}), 12);
    await new Promise((res) => setTimeout(res, 10));
    return { i: args.i };
  } },
  reads: { risk: "read", run: (args, ctx) => {
    ctx.signal.addEventListener("abort", () => appendFileSync(join(ctx.workspace, "aborted.log"), String(ctx.signal.reason?.message ?? ctx.signal.reason) + "\\n"));
    return args.hang ? new Promise(() => {}) : { ok: true };
  } },
};
`;
    const runWith = async (steps: string, limits = "limits: { run_timeout: 300ms, max_tool_calls: 100 }") => {
      const ws = tempDir();
      const tools = writeFile(ws, "hanging.mjs", HANGING);
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
      process.on("warning", onWarning);
      const t0 = Date.now();
      try {
        const r = await startRun({ plan: plan(head("hangs: { risk: read }, reads: { risk: read }, passes: { risk: read }, leaves: { risk: read }", limits) + steps), cwd: ws, inputs: {}, toolModules: [tools], runDir: "run", concurrency: 16 });
        // Warnings are emitted on the next tick; a task a tool left reads its signal within a few ms.
        await new Promise((res) => setTimeout(res, 100));
        return { r, ms: Date.now() - t0, warnings, aborted: lines(ws, "aborted.log") };
      } finally {
        process.off("warning", onWarning);
      }
    };

    it("ends a call whose tool never reads its signal when the run stops", async () => {
      const { r, ms } = await runWith("  s: { kind: analyze, goal: hang, tool: hangs }\n");
      expect(r.outcome).toMatchObject({ status: "terminated", reason: expect.stringMatching(/run_timeout/) });
      expect(ms).toBeLessThan(5000);
      expect(readState(r.dir).nodes.s!.lastError).toMatch(/run_timeout/);
    });

    it("aborts the signal a tool read, with the run's reason, when the run stops", async () => {
      const { r, aborted } = await runWith("  s: { kind: analyze, goal: hang, tool: reads, with: { hang: true } }\n");
      expect(r.outcome.status).toBe("terminated");
      expect(aborted).toEqual([expect.stringMatching(/run_timeout/)]);
      expect(readState(r.dir).nodes.s!.lastError).toMatch(/run_timeout/);
    });

    it("keeps a tool's listeners off the run's signal: 40 steps that never remove theirs raise no warning", async () => {
      const steps = Array.from({ length: 40 }, (_, i) => `  s${i}: { kind: analyze, goal: read ${i}, tool: reads, with: { i: ${i} }${i ? `, needs: [s${i - 1}]` : ""} }\n`).join("");
      const { r, warnings, aborted } = await runWith(steps, "limits: { max_tool_calls: 100 }");
      expect(r.outcome.status).toBe("done");
      expect(warnings).toEqual([]);
      expect(aborted).toEqual([]);
    });

    it("links no signal a tool reads after its step is over to the run's: 40 such steps raise no warning", async () => {
      const steps = Array.from({ length: 40 }, (_, i) => `  s${i}: { kind: analyze, goal: leave ${i}, tool: leaves, with: { i: ${i} }${i ? `, needs: [s${i - 1}]` : ""} }\n`).join("");
      const { r, warnings } = await runWith(steps, "limits: { max_tool_calls: 100 }");
      expect(r.outcome.status).toBe("done");
      expect(warnings).toEqual([]);
    });

    it("runs 24 steps at once (concurrency 16) whose tools read their signal without a warning about abort listeners", async () => {
      const steps = Array.from({ length: 24 }, (_, i) => `  s${i}: { kind: analyze, goal: read ${i}, tool: reads, with: { i: ${i} } }\n`).join("");
      const { r, warnings } = await runWith(steps, "limits: { max_tool_calls: 100 }");
      expect(r.outcome.status).toBe("done");
      expect(warnings).toEqual([]);
    });

    // The gateway waits on the step's signal for each call in flight (a tool may ignore it):
    // 16 at once are no leak (at 3b8a99e: MaxListenersExceededWarning on stderr, once per step).
    it("runs a for_each of 24 items 16 at a time, in 3 steps at once, without a warning about abort listeners", async () => {
      const each = (id: string) => `  ${id}: { kind: analyze, goal: read all, tool: passes, for_each: { items: "\${{ [${Array.from({ length: 24 }, (_, i) => i).join(", ")}] }}", max_items: 24, concurrency: 16 } }\n`;
      const { r, warnings } = await runWith(each("a") + each("b") + each("c"), "limits: { max_tool_calls: 100 }");
      expect(r.outcome.status).toBe("done");
      expect(warnings).toEqual([]);
    });
  });

  it("runs independent steps concurrently, never more than --concurrency", async () => {
    const { ws, tools } = setup();
    const ids = ["a", "b", "c", "d", "e", "f"];
    const ir = plan(head("concurrent: { risk: read }") + ids.map((id) => `  ${id}: { kind: analyze, goal: work, tool: concurrent }\n`).join(""));
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run", concurrency: 2 });
    expect(r.outcome.status).toBe("done");
    const peaks = lines(ws, "peaks.log").map(Number);
    expect(Math.max(...peaks)).toBe(2);
  });

  it("skips a step whose when is false, and steps that need only skipped steps", async () => {
    const { ws, tools } = setup();
    const ir = plan(head("echo: { risk: read }") + `  a: { kind: analyze, goal: a, tool: echo, with: { go: false }, output: a }
  b: { kind: analyze, goal: b, tool: echo, needs: [a], when: "\${{ steps.a.output.go }}" }
  c: { kind: analyze, goal: c, tool: echo, needs: [b] }
  d: { kind: analyze, goal: d, tool: echo, needs: [a, b] }
`);
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    expect(r.outcome.status).toBe("done");
    const s = readState(r.dir);
    expect([s.nodes.a!.status, s.nodes.b!.status, s.nodes.c!.status, s.nodes.d!.status]).toEqual(["done", "skipped", "skipped", "done"]);
    expect(s.nodes.c!.skipReason).toMatch(/needs were skipped/);
  });

  it("runs for_each within max_items with bounded concurrency and repeat until its condition", async () => {
    const { ws, tools } = setup();
    const ir = plan(head("echo: { risk: read }, flaky: { risk: read }, add: { risk: read }") + `  each:
    kind: analyze
    goal: each
    tool: add
    for_each: { items: "\${{ [1, 2, 3] }}", max_items: 3, concurrency: 2 }
    with: { a: "\${{ item }}", b: 10 }
    output: sums
  tooMany:
    kind: analyze
    goal: too many
    needs: [each]
    tool: echo
    for_each: { items: "\${{ steps.each.output }}", max_items: 2 }
`);
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    const s = readState(r.dir);
    expect(await readOutput(r.dir, s.nodes.each!.outputRef!)).toEqual([{ sum: 11 }, { sum: 12 }, { sum: 13 }]);
    expect(r.outcome.status).toBe("failed");
    expect(s.nodes.tooMany!.lastError).toMatch(/3 items, more than max_items 2/);
    expect(s.nodes.tooMany!.attempts).toBe(1);
  });

  it("fails a step whose success check is false or whose evidence is missing", async () => {
    const { ws, tools } = setup();
    const ir = plan(head("add: { risk: read }") + `  a: { kind: analyze, goal: a, tool: add, with: { a: 1, b: 1 }, output: x, success: [ { check: "\${{ output.sum == 3 }}" } ] }
`);
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    expect(r.outcome.status).toBe("failed");
    expect(readState(r.dir).nodes.a!.lastError).toBe("success check failed: output.sum == 3");
  });

  it("idempotency: a recorded key returns the recorded result without calling the tool", async () => {
    const { ws, tools } = setup();
    const ir = plan(head("ledger: { risk: external }") + `  pay:
    kind: external
    goal: pay
    tool: ledger
    risk: external
    idempotency_key: "invoice-\${{ inputs.n }}"
    with: { entry: "\${{ inputs.n }}" }
  pay_again:
    kind: external
    goal: pay again by mistake
    needs: [pay]
    tool: ledger
    risk: external
    idempotency_key: "invoice-\${{ inputs.n }}"
    with: { entry: "\${{ inputs.n }}" }
inputs: { n: { type: number } }
`);
    const first = await startRun({ plan: ir, cwd: ws, inputs: { n: "7" }, toolModules: [tools], runDir: "r1" });
    expect(first.outcome.status).toBe("done");
    const idem = JSON.parse(readFileSync(join(first.dir, "idempotency.json"), "utf8")) as Record<string, { resultRef: string }>;
    expect(Object.keys(idem)).toEqual(["invoice-7"]);
    expect(idem["invoice-7"]!.resultRef).toBe(readState(first.dir).nodes.pay!.outputRef);
    expect(lines(ws, "calls.log")).toEqual(["ledger:pay"]);
    expect(lines(ws, "ledger.txt")).toEqual(["invoice-7 7"]);
    const hit = readEvents(first.dir).find((e) => e.type === "idempotency.hit");
    expect(hit?.data).toMatchObject({ node: "pay_again", key: "invoice-7" });
    expect(readState(first.dir).nodes.pay_again!.outputRef).toBe(idem["invoice-7"]!.resultRef);
  });

  it("a linear run syncs its state once per step: the last step's end is written by the closing snapshot, not a record before it", async () => {
    const { ws, tools } = setup();
    const steps = Array.from({ length: 3 }, (_, i) => `  s${i}: { kind: analyze, goal: echo ${i}, tool: echo, with: { i: ${i} }${i ? `, needs: [s${i - 1}]` : ""} }\n`).join("");
    const writes: number[] = [];
    const r = await startRun({ plan: plan(head("echo: { risk: read }") + steps), cwd: ws, inputs: {}, toolModules: [tools], runDir: "run", afterStateWrite: (v) => writes.push(v) });
    expect(r.outcome.status).toBe("done");
    // Creation, one write as each step starts (s0; s0 done + s1; s1 done + s2), the closing snapshot with s2 done.
    expect(writes).toEqual([1, 2, 3, 4, 5]);
    const state = readState(r.dir);
    expect(state.stateVersion).toBe(5);
    expect(Object.values(state.nodes).map((n) => n.status)).toEqual(["done", "done", "done"]);
    expect(lines(ws, "calls.log")).toEqual(["echo:s0", "echo:s1", "echo:s2"]);
  });

  it("calls a tool only once every record on file, the one that marked its step running too, is durable (a chain, then a fan-out)", async () => {
    const { ws } = setup();
    const tools = writeFile(ws, "probe.mjs", `export default { probe: { risk: "read", run: (args, ctx) => { globalThis.__planspecProbe(ctx.stepId); return { i: args.i }; } } };\n`);
    const chain = Array.from({ length: 4 }, (_, i) => `  c${i}: { kind: analyze, goal: chain ${i}, tool: probe, with: { i: ${i} }${i ? `, needs: [c${i - 1}]` : ""} }\n`).join("");
    const fan = Array.from({ length: 6 }, (_, i) => `  f${i}: { kind: analyze, goal: fan ${i}, tool: probe, with: { i: ${i} }, needs: [c3] }\n`).join("");
    const join_ = `  j: { kind: analyze, goal: join, tool: probe, with: { i: 0 }, needs: [${Array.from({ length: 6 }, (_, i) => `f${i}`).join(", ")}] }\n`;
    const durable: number[] = [];
    const calls: Array<{ step: string; onFile: number; status: string | undefined; durable: number | undefined }> = [];
    const dir = join(ws, "run");
    (globalThis as { __planspecProbe?: (step: string) => void }).__planspecProbe = (step) => {
      const state = readState(dir);
      calls.push({ step, onFile: state.stateVersion, status: state.nodes[step]?.status, durable: durable.at(-1) });
    };
    try {
      const r = await startRun({ plan: plan(head("probe: { risk: read }") + chain + fan + join_), cwd: ws, inputs: {}, toolModules: [tools], runDir: "run", concurrency: 3, afterStateWrite: (v) => durable.push(v) });
      expect(r.outcome.status).toBe("done");
    } finally {
      delete (globalThis as { __planspecProbe?: unknown }).__planspecProbe;
    }
    expect(calls.map((c) => c.step).sort()).toEqual(["c0", "c1", "c2", "c3", "f0", "f1", "f2", "f3", "f4", "f5", "j"]);
    for (const c of calls) {
      // What a reader finds on file names the step running, and no record on file is still waiting for its sync.
      expect(c, c.step).toMatchObject({ status: "running", durable: c.onFile });
    }
  });

  it("a run whose outputs all fit in the state makes no artifacts directory; the first longer output makes it", async () => {
    const { ws, tools } = setup();
    const small = await startRun({ plan: plan(head("echo: { risk: read }") + "  s0: { kind: analyze, goal: echo, tool: echo, with: { i: 1 } }\n"), cwd: ws, inputs: {}, toolModules: [tools], runDir: "small" });
    expect(small.outcome.status).toBe("done");
    expect(readdirSync(small.dir).sort()).toEqual(["config.json", "events.jsonl", "journal.jsonl", "plan.ir.json", "state.json"]);
    const long = "x".repeat(200);
    const big = await startRun({ plan: plan(head("echo: { risk: read }") + `  s0: { kind: analyze, goal: echo, tool: echo, with: { text: ${long} } }\n`), cwd: ws, inputs: {}, toolModules: [tools], runDir: "big" });
    expect(big.outcome.status).toBe("done");
    const ref = readState(big.dir).nodes.s0!.outputRef!;
    expect(readdirSync(join(big.dir, "artifacts"))).toEqual([ref.slice("artifacts/".length)]);
    expect(await readOutput(big.dir, ref)).toEqual({ text: long });
  });
});
