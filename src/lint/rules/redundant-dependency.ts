/**
 * A need that another need already implies adds an edge but no order; in a generated plan
 * it usually means the planner lost track of the graph. A need the step reads from is
 * data flow and stays.
 */
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "redundant-dependency",
  meta: {
    description: "A need that another need already implies transitively and whose output the step does not read.",
    defaultSeverity: "warning",
    messages: {
      redundant: 'step "{{step}}" needs "{{dep}}", which "{{via}}" already needs; drop "{{dep}}" from its needs',
    },
  },
  check(ctx) {
    const { graph } = ctx;
    for (const node of graph.nodes) {
      if (node.dependsOn.length < 2) continue;
      // A need the step reads from is data flow, so only pure ordering needs are candidates.
      const orderOnly = node.dependsOn.filter((d) => !node.consumes.includes(d));
      for (const dep of graph.impliedNeeds(node.id, orderOnly)) {
        const via = node.dependsOn.find((d) => d !== dep && graph.isAncestor(dep, d));
        if (via === undefined) continue;
        ctx.report({
          messageId: "redundant",
          node: node.id,
          path: ["needs", node.dependsOn.indexOf(dep)],
          data: { step: node.id, dep, via },
        });
      }
    }
  },
});
