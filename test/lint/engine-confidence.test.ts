/** Every finding carries a confidence: the rule's default, a report's own, high when neither says. */
import { describe, expect, it } from "vitest";
import { compileSource } from "../../src/compiler/index.js";
import { lintCompiled } from "../../src/lint/engine.js";
import { defineRule } from "../../src/lint/rule.js";
import { rules } from "../../src/lint/rules/index.js";
import { TINY_PLAN, stepRule } from "./tiny-plan.js";

const guess = defineRule({
  id: "guess",
  meta: { description: "a heuristic", defaultSeverity: "warning", defaultConfidence: "low", messages: { seen: "step {{step}} looks odd" } },
  check(ctx) {
    for (const n of ctx.ir.nodes) ctx.report({ messageId: "seen", node: n.id, data: { step: n.id }, ...(n.id === "write" ? { confidence: "medium" as const } : {}) });
  },
});

describe("finding confidence", () => {
  const result = compileSource("tiny.plan.yaml", TINY_PLAN, { cwd: "/" });

  it("is the rule's default, a report may override it, and it is high when unset", () => {
    const found = lintCompiled(result, { rules: [guess, stepRule("fact")] });
    expect(found.map((d) => `${d.code} ${d.message.split(" ")[1]} ${d.confidence}`)).toEqual([
      "fact \"read\" high",
      "guess read low",
      "fact \"write\" high",
      "guess write medium",
    ]);
  });

  it("heuristic rules say so in their meta", () => {
    const below = rules.filter((r) => r.meta.defaultConfidence !== undefined && r.meta.defaultConfidence !== "high").map((r) => `${r.id} ${r.meta.defaultConfidence}`);
    expect(below).toEqual([
      "concurrent-writes medium",
      "duplicate-step medium",
      "goal-drift medium",
      "off-goal-step low",
      "over-planning medium",
      "vague-step-goal low",
      "vague-success-criteria low",
    ]);
  });
});
