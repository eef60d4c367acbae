/**
 * Resource limits a hostile or broken tool cannot get around: expression functions are
 * O(n) without allocating (len() of 100 MB in a 200 MB heap), a per-step output limit,
 * a timeout judged by the clock (a tool that blocks the event loop past it fails), and a
 * CLI that exits when its run ends even if a tool left a timer behind.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callFunction } from "../../src/compiler/expr/functions.js";
import { json, planspec, put, scratch } from "./helpers.js";

const ROOT = join(import.meta.dirname, "../..");

describe("expression functions cost O(n)", () => {
  it("len() of a 100 MB string in a child process with a 200 MB heap", () => {
    const script = `
      const { evaluateSource } = await import(${JSON.stringify(join(ROOT, "dist/compiler/expr/index.js"))});
      const s = "x".repeat(100_000_000) + "\\u{1F600}";
      process.stdout.write(String(evaluateSource("len(inputs.s)", { inputs: { s } })));`;
    const r = spawnSync(process.execPath, ["--max-old-space-size=200", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
    expect(r.stderr).not.toMatch(/heap out of memory/);
    expect(r.stdout).toBe("100000001");
    expect(r.status).toBe(0);
  });

  it("len() counts code points exactly as [...s] does, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: fc.constantFrom("\ud83d", "\ude00", "a", "\u{1F600}") }), (a, b) => {
        const s = a + b;
        expect(callFunction("len", [s], 0, 0)).toBe([...s].length);
      }),
    );
  });
});

const TOOLS = `
export default {
  big: { risk: "read", run: (a) => "y".repeat(a.bytes) },
  busy: { risk: "read", run: (a) => { const end = Date.now() + a.ms; while (Date.now() < end) {} return { ok: true }; } },
  hang: { risk: "read", run: () => new Promise(() => { setTimeout(() => {}, 3_600_000); }) },
  leak: { risk: "read", run: () => { setInterval(() => {}, 1000); return { ok: true }; } },
};`;

function plan(step: string, tool = "big"): string {
  return `planspec: 1
name: limits
goal: exercise limits
tools: { ${tool}: { risk: read } }
limits: { max_tool_calls: 10 }
steps:
  a: { kind: analyze, goal: call the tool, tool: ${tool}, output: out, ${step} }
`;
}

function run(planText: string, extra: string[] = []) {
  const ws = scratch();
  put(ws, "tools.mjs", TOOLS);
  put(ws, "p.plan.yaml", planText);
  const started = Date.now();
  const r = planspec(ws, ["run", "p.plan.yaml", "--tools", "tools.mjs", "--run-dir", "run", "--no-lint-gate", ...extra]);
  const state = json<{ status: string; nodes: Record<string, { status: string; lastError?: string }> }>(join(ws, "run", "state.json"));
  return { r, state, ms: Date.now() - started };
}

describe("per-step output limit", () => {
  it("an output above the default 16 MiB fails the step with a clear error, and is not stored", () => {
    const { r, state } = run(plan("with: { bytes: 17000000 }"));
    expect(r.code).toBe(1);
    expect(state.nodes.a!.lastError).toBe('the output of step "a" is more than 16 MiB (the per-step limit; raise it with --max-output-size)');
  });

  it("--max-output-size raises it (and a bad size is a usage error)", () => {
    expect(run(plan("with: { bytes: 17000000 }"), ["--max-output-size", "32MB"]).state.status).toBe("done");
    const lower = run(plan("with: { bytes: 2000 }"), ["--max-output-size", "1k"]);
    expect(lower.state.nodes.a!.lastError).toMatch(/more than 1 KiB/);
    const ws = scratch();
    put(ws, "p.plan.yaml", plan("with: { bytes: 1 }"));
    const bad = planspec(ws, ["run", "p.plan.yaml", "--max-output-size", "lots", "--no-lint-gate"]);
    expect(bad.stderr.trim()).toBe('planspec: --max-output-size must be a size such as 16MB, 512k or 1048576, got "lots"');
    expect(bad.code).toBe(2);
  });
});

describe("timeouts hold even when a tool blocks the event loop", () => {
  it("a tool that busy-waits 1.5 s past a 200 ms timeout fails the step", () => {
    const { r, state } = run(plan("timeout: 200ms, with: { ms: 1500 }", "busy"));
    expect(state.nodes.a).toMatchObject({ status: "failed", lastError: 'step "a" timed out after 200ms' });
    expect(r.code).toBe(1);
  });

  it("the control case: within its timeout the same tool is done", () => {
    expect(run(plan("timeout: 5s, with: { ms: 50 }", "busy")).state.status).toBe("done");
  });
});

describe("the CLI exits when the run ends", () => {
  it("a hanging tool (a one-hour timer, signal ignored) does not keep the process alive after its timeout", () => {
    const { r, state, ms } = run(plan("timeout: 300ms", "hang"));
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(state.nodes.a!.lastError).toBe('step "a" timed out after 300ms');
    expect(ms).toBeLessThan(25_000);
  });

  it("a tool that leaves an interval running: the run is done and the process exits", () => {
    const { r, state } = run(plan("with: {}", "leak"));
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(state.status).toBe("done");
  });
});
