import { describe, expect, it } from "vitest";
import { compileSource } from "../../src/compiler/index.js";
import { lintCompiled } from "../../src/lint/engine.js";
import type { ResolvedConfig } from "../../src/lint/config.js";
import { stepRule, TINY_HEADER as HEADER, TINY_STEPS as STEPS } from "./tiny-plan.js";

const rules = [stepRule("noisy"), stepRule("chatty")];

function lint(text: string, file = "p.plan.yaml", config?: ResolvedConfig) {
  const result = compileSource(file, text, { cwd: "/" });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return lintCompiled(result, { rules, ...(config ? { config } : {}) }).map((d) => `${d.line}:${d.col} ${d.severity} ${d.code}: ${d.message}${d.hint ? ` (${d.hint})` : ""}`);
}

describe("YAML suppressions", () => {
  it("disable-next-line silences the named rules on the next line only", () => {
    const text = HEADER + STEPS.replace("  read:\n", "  # planspec-disable-next-line noisy, chatty -- reading is harmless\n  read:\n");
    expect(lint(text)).toEqual(['15:3 warning chatty: step "write" seen', '15:3 warning noisy: step "write" seen']);
  });

  it("skips over further comment lines to the next line of YAML", () => {
    const text =
      HEADER +
      STEPS.replace("  write:\n", "  # planspec-disable-next-line noisy -- a\n  # planspec-disable-next-line chatty -- b\n  write:\n");
    expect(lint(text)).toEqual(['9:3 warning chatty: step "read" seen', '9:3 warning noisy: step "read" seen']);
  });

  it("a file-level comment before the first key silences a rule everywhere", () => {
    const text = `# planspec-disable chatty -- this plan is generated\n${HEADER}${STEPS}`;
    expect(lint(text)).toEqual(['10:3 warning noisy: step "read" seen', '15:3 warning noisy: step "write" seen']);
  });

  it("reports a suppression without a reason, but still applies it", () => {
    const text = HEADER + STEPS.replace("  read:\n", "  # planspec-disable-next-line noisy\n  read:\n");
    expect(lint(text)).toEqual([
      '9:3 error suppression-without-reason: suppression of noisy gives no reason (add one after "--", e.g. -- the approval happens outside this plan)',
      '10:3 warning chatty: step "read" seen',
      '15:3 warning chatty: step "write" seen',
      '15:3 warning noisy: step "write" seen',
    ]);
  });

  it("reports a suppression that silences nothing", () => {
    const text = HEADER + STEPS.replace("    tool: reader\n", "    # planspec-disable-next-line noisy -- not here\n    tool: reader\n");
    expect(lint(text)).toContain("12:5 warning unused-suppression: suppression of \"noisy\" is unused: no such finding in line 13 (remove it)");
  });

  it("reports unknown rule ids with a did-you-mean", () => {
    const text = `# planspec-disable noisyy -- typo\n${HEADER}${STEPS}`;
    expect(lint(text)[0]).toBe('1:1 error unknown-rule: unknown rule "noisyy" in suppression (did you mean "noisy"?)');
  });

  it("reports a file-level comment placed after the first key instead of applying it", () => {
    const text = HEADER + "# planspec-disable noisy -- too late\n" + STEPS;
    const out = lint(text);
    expect(out[0]).toMatch(/^8:1 warning unused-suppression: file-level suppression of "noisy" comes after the first key/);
    expect(out.filter((l) => l.includes(" noisy: "))).toHaveLength(2);
  });

  it("does not call a suppression unused when its rule is off", () => {
    const text = `# planspec-disable noisy -- off anyway\n${HEADER}${STEPS}`;
    const config: ResolvedConfig = { baseDir: "/", rules: { noisy: { severity: "off" } }, ignores: [] };
    expect(lint(text, "p.plan.yaml", config)).toEqual(['10:3 warning chatty: step "read" seen', '15:3 warning chatty: step "write" seen']);
  });

  it("lets the config change the severity of the engine's own findings", () => {
    const text = HEADER + STEPS.replace("  read:\n", "  # planspec-disable-next-line noisy\n  read:\n");
    const config: ResolvedConfig = { baseDir: "/", rules: { "suppression-without-reason": { severity: "off" } }, ignores: [] };
    expect(lint(text, "p.plan.yaml", config).some((l) => l.includes("suppression-without-reason"))).toBe(false);
  });
});

describe("x-planspec-disable in JSON plans", () => {
  const plan = (disable: unknown) =>
    JSON.stringify(
      {
        planspec: 1,
        name: "tiny",
        goal: "Read a file and write a summary of it.",
        "x-planspec-disable": disable,
        tools: { reader: { risk: "read" }, writer: { risk: "write" } },
        limits: { run_timeout: "1m" },
        steps: {
          read: { kind: "read", goal: "Read the file", tool: "reader", output: "text" },
          write: { kind: "write", needs: ["read"], goal: "Write it", tool: "writer", risk: "write", with: { body: "${{ steps.read.output }}" } },
        },
      },
      null,
      2,
    );

  it("silences a rule for one step", () => {
    const out = lint(plan([{ rule: "noisy", step: "write", reason: "writes are reviewed" }]), "p.plan.json");
    expect(out.map((l) => l.replace(/^\d+:\d+ /, ""))).toEqual([
      'warning chatty: step "read" seen',
      'warning noisy: step "read" seen',
      'warning chatty: step "write" seen',
    ]);
  });

  it("silences a rule for the whole file, and reports missing reasons and unused entries", () => {
    const out = lint(
      plan([
        { rule: "chatty", reason: "generated" },
        { rule: "noisy", step: "read" },
        { rule: "noisy", step: "nowhere", reason: "stale" },
      ]),
      "p.plan.json",
    );
    expect(out).toEqual([
      expect.stringMatching(/^10:5 error suppression-without-reason: suppression of noisy gives no reason/),
      expect.stringMatching(/^14:5 warning unused-suppression: suppression of "noisy" is unused: no such finding in step "nowhere"/),
      expect.stringMatching(/warning noisy: step "write" seen$/),
    ]);
  });
});
