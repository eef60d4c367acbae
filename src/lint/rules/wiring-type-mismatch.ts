/**
 * A plan that hands a producer's result to a consumer that takes another kind of thing
 * (a text search result as the video of a video stabiliser) cannot run as written. The
 * catalogue says what each tool takes by position (`input_types`) and returns
 * (`output_types`); an argument that is the whole output of a step is checked against both.
 */
import { positionalArgs, argFact, sameResourceType } from "../arguments.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "wiring-type-mismatch",
  meta: {
    description: "A step's output of one resource type (catalogue output_types) feeds a tool argument of another type (input_types).",
    defaultSeverity: "error",
    messages: {
      mismatch:
        'step "{{step}}" passes the {{produced}} output of step "{{producer}}" ({{producerTool}}) as argument {{position}} of tool "{{tool}}", which takes {{expected}} there; wire a step that produces {{expected}}',
    },
  },
  check(ctx) {
    const { ir, graph } = ctx;
    for (const node of ir.nodes) {
      const tool = node.tool !== undefined ? ir.tools[node.tool] : undefined;
      const expectedTypes = tool?.inputTypes;
      if (!tool || !expectedTypes?.length) continue;
      const args = positionalArgs(node, tool);
      if (!args) continue;
      // Arguments past the declared positions are an arity problem (tool-argument-mismatch).
      args.slice(0, expectedTypes.length).forEach((arg, k) => {
        const fact = argFact(arg.value, ir);
        if (fact.kind !== "output") return;
        const producer = graph.node(fact.step);
        const produced = producer?.tool !== undefined ? ir.tools[producer.tool]?.outputTypes : undefined;
        // A for_each producer hands over a list of results, not one resource.
        if (!producer || producer.forEach || !produced?.length) return;
        const expected = expectedTypes[k]!;
        if (produced.some((t) => sameResourceType(t, expected))) return;
        ctx.report({
          messageId: "mismatch",
          node: node.id,
          path: arg.path,
          data: {
            step: node.id,
            produced: produced.join("/"),
            producer: producer.id,
            producerTool: producer.tool!,
            position: `${k + 1} (${arg.name})`,
            tool: node.tool!,
            expected,
          },
        });
      });
    }
  },
});
