/**
 * Shared helpers for the Spectral peer ruleset: the same facts planspec's IR carries
 * (which steps a step consumes, a step's effective risk), recomputed from the raw JSON
 * plan because Spectral sees only the document.
 */
const RANK = { read: 0, write: 1, external: 2 };
const STEP_REF = /\bsteps\.([A-Za-z_][\w-]*)/g;

/** Every string inside a value (arguments, criteria, conditions). */
function strings(value, out) {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
  return out;
}

/**
 * The steps whose output `step` reads: those its expressions and evidence name, else its
 * direct needs (planspec's `consumes`).
 */
export function consumes(step) {
  const named = new Set();
  const texts = strings([step.with, step.success, step.when, step.repeat, step.for_each, step.idempotency_key], []);
  for (const t of texts) {
    if (!t.includes("steps.")) continue;
    for (const m of t.matchAll(STEP_REF)) named.add(m[1]);
  }
  if (named.size) return [...named];
  const needs = step.needs;
  return Array.isArray(needs) ? needs : typeof needs === "string" ? [needs] : [];
}

/** The step's tools: `tool` plus `allowed_tools`. */
export function toolsOf(step) {
  const out = [];
  if (typeof step.tool === "string") out.push(step.tool);
  if (Array.isArray(step.allowed_tools)) for (const t of step.allowed_tools) if (!out.includes(t)) out.push(t);
  return out;
}

/** The riskiest catalogue tool a step may call, or undefined. */
export function riskiestTool(step, catalogue) {
  let best;
  for (const name of toolsOf(step)) {
    const risk = catalogue?.[name]?.risk;
    if (risk in RANK && (!best || RANK[risk] > RANK[best.risk])) best = { name, risk };
  }
  return best;
}

/** max(declared risk, tool risk, the risk the kind implies), as the linter judges a step. */
export function effectiveRisk(step, catalogue) {
  let r = RANK[step.risk] ?? 0;
  const t = riskiestTool(step, catalogue);
  if (t) r = Math.max(r, RANK[t.risk]);
  if (step.kind === "write") r = Math.max(r, 1);
  if (step.kind === "external") r = Math.max(r, 2);
  return r;
}

export const rank = (risk) => RANK[risk] ?? 0;
