/**
 * Least privilege for agents: an agentic step granted many tools, or an external tool its
 * kind never calls for, gives a confused model room to do damage.
 */
import { defineRule } from "../rule.js";

// Kinds that look and think; none of them calls for an external effect.
const LOOKING_KINDS: ReadonlySet<string> = new Set(["read", "search", "analyze", "decide", "verify", "summarize"]);

export const rule = defineRule({
  id: "broad-tool-grant",
  meta: {
    description: "A step granted more tools than a threshold, or an external tool its kind never needs.",
    defaultSeverity: "warning",
    defaultOptions: { maxTools: 6 },
    messages: {
      tooMany: 'step "{{step}}" may call {{count}} tools (more than {{max}}); grant only the tools it needs',
      needlessExternal:
        'step "{{step}}" ({{kind}}) is granted external tool "{{tool}}" it never needs; remove it from allowed_tools',
    },
  },
  check(ctx) {
    const { ir } = ctx;
    const max = Number(ctx.options.maxTools ?? 6);
    for (const node of ir.nodes) {
      if (node.allowedTools.length > max) {
        ctx.report({
          messageId: "tooMany",
          node: node.id,
          path: ["allowed_tools"],
          data: { step: node.id, count: node.allowedTools.length, max },
        });
      }
      if (!LOOKING_KINDS.has(node.kind)) continue;
      // The main `tool` is what the step is for; only the extra grants are suspect.
      const external = node.allowedTools.find((t) => t !== node.tool && ir.tools[t]?.risk === "external");
      if (external !== undefined) {
        ctx.report({
          messageId: "needlessExternal",
          node: node.id,
          path: ["allowed_tools"],
          data: { step: node.id, kind: node.kind, tool: external },
        });
      }
    }
  },
});
