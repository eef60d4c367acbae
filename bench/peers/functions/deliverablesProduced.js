/**
 * goal-drift, approximated for a single plan: each deliverable the goal promises must be
 * some step's output. (planspec's goal-drift compares a revision with its original.)
 */
export default (plan) => {
  const produced = new Set();
  for (const s of Object.values(plan?.steps ?? {})) if (s && typeof s.output === "string") produced.add(s.output);
  const out = [];
  (Array.isArray(plan?.deliverables) ? plan.deliverables : []).forEach((d, i) => {
    if (!produced.has(d)) out.push({ message: `deliverable "${d}" is produced by no step`, path: ["deliverables", i] });
  });
  return out;
};
