/**
 * write-without-evidence: a write/external step (by kind, declared risk or tool risk) that
 * consumes, directly or transitively, no read, search or verify step.
 */
import { consumes, effectiveRisk } from "./plan-graph.js";

const EVIDENCE = new Set(["read", "search", "verify"]);

export default (plan) => {
  const steps = plan?.steps;
  if (!steps || typeof steps !== "object") return [];
  const memo = new Map();
  // Memoised DFS over consumes; a cycle (the compiler rejects those) counts as uninformed.
  const informed = (id) => {
    if (memo.has(id)) return memo.get(id);
    memo.set(id, false);
    let hit = false;
    for (const c of consumes(steps[id] ?? {})) {
      const s = steps[c];
      if (s && (EVIDENCE.has(s.kind) || informed(c))) {
        hit = true;
        break;
      }
    }
    memo.set(id, hit);
    return hit;
  };
  const out = [];
  for (const [id, step] of Object.entries(steps)) {
    if (!step || effectiveRisk(step, plan.tools) < 1 || informed(id)) continue;
    out.push({ message: `step "${id}" writes or acts externally without evidence: no read, search or verify step feeds it`, path: ["steps", id] });
  }
  return out;
};
