/**
 * The recovery runner with real child processes (build first: npm run build): a gold
 * plan recovers from every injected fault; a plan whose side effect is not keyed, and a
 * tool module whose external tool ignores idempotency, are reported as failures.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileFile, compileSource } from "../../src/compiler/index.js";
import { recoverPlan } from "../../src/eval/recovery.js";

const ROOT = join(import.meta.dirname, "../..");

const UNKEYED = `planspec: 1
name: unkeyed-payment
goal: Read an invoice and pay it
deliverables: [payment]
tools: { invoice.read: { risk: read }, bank.pay: { risk: external } }
limits: { max_tool_calls: 20 }
steps:
  read:
    kind: read
    goal: Read the invoice
    tool: invoice.read
    with: { id: INV-1 }
    output: invoice
  pay:
    kind: external
    goal: Pay the invoice
    needs: [read]
    tool: bank.pay
    risk: external
    with: { invoice: "\${{ steps.read.output }}" }
    output: payment
`;

describe("recovery runner", () => {
  it("a gold plan with an approval gate and an input recovers from every fault", async () => {
    const file = join(ROOT, "evals/approval-workflow/gold/grant-access.plan.yaml");
    const r = await recoverPlan(file, compileFile(file).ir!, { jobs: 2 });
    expect(r.trials.filter((t) => !t.ok)).toEqual([]);
    expect(r.rate).toBe(1);
    const names = r.trials.map((t) => t.name);
    expect(names).toContain("crash after state write 1");
    expect(names).toContain('crash in the middle of step "grant"');
    expect(names).toContain("transient failure of every step's first call");
    expect(names.some((n) => n.startsWith("deleted artifact of step"))).toBe(true);
    expect(names).toContain('changed input "user"');
  }, 300_000);

  it("an unkeyed side effect repeated after a mid-step crash is a failed trial, not 100 %", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-recovery-test-"));
    const file = join(dir, "unkeyed.plan.yaml");
    writeFileSync(file, UNKEYED);
    const r = await recoverPlan(file, compileSource(file, UNKEYED).ir!, { faults: ["mid-step"] });
    expect(r.trials.map((t) => t.name)).toEqual(['crash in the middle of step "read"', 'crash in the middle of step "pay"']);
    expect(r.trials[0]!.ok).toBe(true);
    expect(r.trials[1]).toEqual({ fault: "crash", name: 'crash in the middle of step "pay"', ok: false, reason: 'side effect of step "pay" (no idempotency key) happened 2 times' });
    expect(r.rate).toBe(0.5);
  }, 120_000);

  it("a tool module whose external tool ignores the idempotency key fails its trials", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-recovery-test-"));
    const keyed = UNKEYED.replace("    output: payment\n", '    idempotency_key: "${{ run.id }}:pay"\n    output: payment\n');
    const file = join(dir, "keyed.plan.yaml");
    writeFileSync(file, keyed);
    // It applies every call, keyed or not, and records it where the runner looks.
    writeFileSync(
      join(dir, "tools.mjs"),
      `import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
export default {
  "invoice.read": { risk: "read", run: (args) => ({ invoice: args.id, amount: 42 }) },
  "bank.pay": { risk: "external", run: (args, ctx) => {
    mkdirSync(join(ctx.workspace, ".eval"), { recursive: true });
    appendFileSync(join(ctx.workspace, ".eval/effects.jsonl"), JSON.stringify({ key: ctx.idempotencyKey ?? null, step: ctx.stepId }) + "\\n");
    return { paid: 42 };
  } },
};
`,
    );
    const r = await recoverPlan(file, compileSource(file, keyed).ir!, { faults: ["mid-step"], toolModules: [join(dir, "tools.mjs")] });
    const pay = r.trials.find((t) => t.name === 'crash in the middle of step "pay"')!;
    expect(pay.ok).toBe(false);
    expect(pay.reason).toBe('side effect "recovery:pay" happened 2 times');
    expect(r.rate).toBeLessThan(1);
  }, 120_000);

  it("a corrupt result is caught by a criterion that checks the output, and missed by one that only sees it exists", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-corrupt-"));
    writeFileSync(join(dir, "ledger.mjs"), 'export default { "ledger.read": { risk: "read", run: () => ({ count: 3, entries: [10, 20, 30] }) } };\n');
    const plan = (check: string) => `planspec: 1
name: ledger
goal: Read the ledger entries
deliverables: [ledger]
tools: { ledger.read: { risk: read } }
limits: { max_tool_calls: 20 }
steps:
  read:
    kind: read
    goal: Read the ledger with its entry count
    tool: ledger.read
    output: ledger
    success:
      - check: "\${{ ${check} }}"
`;
    const run = async (name: string, check: string) => {
      const file = join(dir, `${name}.plan.yaml`);
      writeFileSync(file, plan(check));
      return recoverPlan(file, compileSource(file, plan(check)).ir!, { toolModules: [join(dir, "ledger.mjs")], faults: ["corrupt"], jobs: 2 });
    };
    const good = await run("good", "len(output.entries) == output.count");
    expect(good.trials.map((t) => [t.name, t.ok])).toEqual([
      ['corrupt (wrong-shape) result of step "read"', true],
      ['corrupt (truncated) result of step "read"', true],
      ['corrupt (subtly-wrong) result of step "read"', true],
    ]);
    expect(good.byFault).toEqual({ corrupt: { trials: 3, succeeded: 3 } });
    const weak = await run("weak", "exists(output)");
    expect(weak.byFault).toEqual({ corrupt: { trials: 3, succeeded: 0 } });
    expect(weak.trials[2]!.reason).toMatch(/^no criterion caught it: deliverable "ledger" differs from the fault-free run/);
  }, 300_000);

  it("a call that never answers: the step timeout ends it and the keyed retry pays once; unkeyed it pays twice; no timeout fails", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-timeout-"));
    const timed = UNKEYED.replace("limits: { max_tool_calls: 20 }\n", "limits: { max_tool_calls: 20 }\ndefaults: { timeout: 1s }\n");
    const keyed = timed.replace("    output: payment\n", '    idempotency_key: "${{ run.id }}:pay"\n    output: payment\n');
    const run = async (name: string, text: string) => {
      const file = join(dir, `${name}.plan.yaml`);
      writeFileSync(file, text);
      return recoverPlan(file, compileSource(file, text).ir!, { faults: ["timeout"], jobs: 2 });
    };
    const ok = await run("keyed", keyed);
    expect(ok.trials.map((t) => [t.name, t.ok])).toEqual([
      ['call of step "read" that never answers', true],
      ['call of step "pay" that never answers', true],
    ]);
    const twice = await run("unkeyed", timed);
    expect(twice.trials[1]).toEqual({ fault: "timeout", name: 'call of step "pay" that never answers', ok: false, reason: 'side effect of step "pay" (no idempotency key) happened 2 times' });
    const none = await run("untimed", UNKEYED);
    expect(none.byFault).toEqual({ timeout: { trials: 2, succeeded: 0 } });
    expect(none.trials[0]!.reason).toBe('step "read" has no timeout: a call that never answers holds the run until someone kills it');
  }, 300_000);
});
