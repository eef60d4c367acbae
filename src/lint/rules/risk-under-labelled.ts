/**
 * The declared risk is what the sandbox enforces and what approvals key on: a label below
 * the risk of the step's tools or of its kind hides a side effect.
 */
import { type IRNode, type Risk, riskRank } from "../../ir.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "risk-under-labelled",
  meta: {
    description: "A step whose declared risk is below the risk of its tools or its kind.",
    defaultSeverity: "error",
    messages: {
      belowTool: 'step "{{step}}" declares risk {{risk}} but its tool "{{tool}}" is {{toolRisk}}; declare risk: {{toolRisk}}',
      belowKind: 'step "{{step}}" is kind {{kind}} but its risk is {{risk}}; declare risk: {{needed}}',
    },
  },
  check(ctx) {
    const { ir } = ctx;
    for (const node of ir.nodes) {
      const riskTool = riskiestTool(node, ir.tools);
      if (!node.riskInferred && riskTool && riskRank(riskTool.risk) > riskRank(node.risk)) {
        ctx.report({
          messageId: "belowTool",
          node: node.id,
          path: ["risk"],
          data: { step: node.id, risk: node.risk, tool: riskTool.name, toolRisk: riskTool.risk },
        });
        continue;
      }
      const needed: Risk | undefined = node.kind === "external" ? "external" : node.kind === "write" ? "write" : undefined;
      if (needed && riskRank(node.risk) < riskRank(needed)) {
        ctx.report({
          messageId: "belowKind",
          node: node.id,
          path: node.riskInferred ? ["kind"] : ["risk"],
          data: { step: node.id, kind: node.kind, risk: node.riskInferred ? `${node.risk} (inferred)` : node.risk, needed },
        });
      }
    }
  },
});

function riskiestTool(node: IRNode, tools: Record<string, { risk: Risk }>): { name: string; risk: Risk } | undefined {
  let best: { name: string; risk: Risk } | undefined;
  for (const name of node.allowedTools) {
    const spec = tools[name];
    if (spec && (!best || riskRank(spec.risk) > riskRank(best.risk))) best = { name, risk: spec.risk };
  }
  return best;
}
