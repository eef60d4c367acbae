/**
 * over-planning: more steps than limits.max_steps or the complexity allows (simple 4,
 * moderate 12, complex 40; complex when undeclared), and read-only steps with no output
 * that nothing consumes. planspec's "verify/summarize re-check" part is not reproduced.
 */
import { consumes, effectiveRisk } from "./plan-graph.js";

const LIMITS = { simple: 4, moderate: 12, complex: 40 };
const GATES = new Set(["verify", "approval", "phase"]);

export default (plan) => {
  const steps = plan?.steps;
  if (!steps || typeof steps !== "object") return [];
  const out = [];
  const ids = Object.keys(steps);
  const max = plan.limits?.max_steps;
  if (typeof max === "number") {
    if (ids.length > max) out.push({ message: `the plan has ${ids.length} steps, more than limits.max_steps (${max})`, path: ["limits", "max_steps"] });
  } else {
    const complexity = plan.complexity in LIMITS ? plan.complexity : "complex";
    if (ids.length > LIMITS[complexity]) {
      out.push({ message: `the plan has ${ids.length} steps, more than the ${LIMITS[complexity]} a ${complexity} plan should need`, path: [plan.complexity ? "complexity" : "steps"] });
    }
  }
  const consumed = new Set();
  for (const id of ids) for (const c of consumes(steps[id] ?? {})) consumed.add(c);
  for (const id of ids) {
    const s = steps[id];
    if (!s || s.output !== undefined || consumed.has(id) || GATES.has(s.kind) || effectiveRisk(s, plan.tools) !== 0) continue;
    out.push({ message: `step "${id}" produces nothing anyone uses and has no side effect`, path: ["steps", id] });
  }
  return out;
};
