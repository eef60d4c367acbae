/**
 * The declared risk is what the sandbox enforces and what approvals key on: a label below
 * the risk of the step's tools, of its kind, or of what it will do (a `DROP TABLE` sent
 * through a "read" tool, `rm -rf` in a diagnostic shell) hides a side effect.
 */
import { type IRNode, type Risk, riskRank } from "../../ir.js";
import { describeRisk, showPath } from "../effective-risk.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "risk-under-labelled",
  meta: {
    description: "A step whose declared risk is below the risk of its tools, its kind or what its arguments and tools will do.",
    defaultSeverity: "error",
    messages: {
      belowTool: 'step "{{step}}" declares risk {{risk}} but its tool "{{tool}}" is {{toolRisk}}; declare risk: {{toolRisk}}',
      belowKind: 'step "{{step}}" is kind {{kind}} but its risk is {{risk}}; declare risk: {{needed}}',
      belowEffect: 'step "{{step}}" {{label}} but {{reason}} makes this {{what}}; declare risk: {{needed}}',
    },
  },
  check(ctx) {
    const { ir } = ctx;
    for (const node of ir.nodes) {
      const riskTool = riskiestTool(node, ir.tools);
      const kindNeeds: Risk | undefined = node.kind === "external" ? "external" : node.kind === "write" ? "write" : undefined;
      const stated = Math.max(riskRank(node.risk), riskTool ? riskRank(riskTool.risk) : 0, kindNeeds ? riskRank(kindNeeds) : 0);
      const effect = ctx.risk.of(node);
      // What the step will do outranks its tools and kind: report that one finding.
      if (riskRank(effect.risk) > stated) {
        const cause = ctx.risk.cause(node, effect.risk)!;
        const label = node.riskInferred
          ? riskTool
            ? `has risk ${node.risk} from its tool "${riskTool.name}"`
            : `has risk ${node.risk} (inferred)`
          : `declares risk ${node.risk}`;
        ctx.report({
          messageId: "belowEffect",
          node: node.id,
          path: cause.path,
          data: { step: node.id, label, reason: cause.reason, what: describeRisk(cause.risk, cause.destructive), needed: effect.risk },
          confidence: cause.confidence,
          ...(node.riskInferred && riskTool && cause.path[0] === "with"
            ? { hint: `the catalogue calls "${riskTool.name}" ${riskTool.risk}, but ${showPath(cause.path)} decides what this call does` }
            : {}),
        });
        continue;
      }
      if (!node.riskInferred && riskTool && riskRank(riskTool.risk) > riskRank(node.risk)) {
        ctx.report({
          messageId: "belowTool",
          node: node.id,
          path: ["risk"],
          data: { step: node.id, risk: node.risk, tool: riskTool.name, toolRisk: riskTool.risk },
        });
        continue;
      }
      if (kindNeeds && riskRank(node.risk) < riskRank(kindNeeds)) {
        ctx.report({
          messageId: "belowKind",
          node: node.id,
          path: node.riskInferred ? ["kind"] : ["risk"],
          data: { step: node.id, kind: node.kind, risk: node.riskInferred ? `${node.risk} (inferred)` : node.risk, needed: kindNeeds },
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
