/**
 * risk-under-labelled: a declared risk below the riskiest tool's, or kind write/external
 * whose (declared or inferred) risk is lower than the kind implies.
 */
import { rank, riskiestTool } from "./plan-graph.js";

export default (plan) => {
  const out = [];
  for (const [id, step] of Object.entries(plan?.steps ?? {})) {
    if (!step) continue;
    const tool = riskiestTool(step, plan.tools);
    const declared = typeof step.risk === "string";
    if (declared && tool && rank(tool.risk) > rank(step.risk)) {
      out.push({ message: `step "${id}" declares risk ${step.risk} but its tool "${tool.name}" is ${tool.risk}`, path: ["steps", id, "risk"] });
      continue;
    }
    // As planspec infers it: the declared risk, else the riskiest tool's, else read.
    const risk = declared ? step.risk : (tool?.risk ?? "read");
    const needed = step.kind === "external" ? "external" : step.kind === "write" ? "write" : undefined;
    if (needed && rank(risk) < rank(needed)) {
      out.push({ message: `step "${id}" is kind ${step.kind} but its risk is ${risk}`, path: ["steps", id, declared ? "risk" : "kind"] });
    }
  }
  return out;
};
