/**
 * Building the revised plan for a refinement: the run's plan source with one step
 * replaced by an instance of a generated template holding the model's sub-steps, so
 * the compiler itself names them `<step>.<sub>`, re-attaches their needs, and passes
 * the artifacts the step referenced in as parameters.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { parse } from "yaml";
import type { IRNode, PlanIR } from "../ir.js";
import { jsonTypeOf } from "./refine-context.js";

type Obj = Record<string, unknown>;

export interface RevisedFiles {
  planFile: string;
  templateFile: string;
  planText: string;
}

function kebab(s: string): string {
  return s.replace(/[^A-Za-z0-9]+/g, "-").replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase().replace(/^-+|-+$/g, "") || "step";
}

/** The template name a refinement of `step` uses. */
export function refineTemplateName(step: string): string {
  return `refine-${kebab(step)}`;
}

/** The parameters the sub-steps get: one per step whose output the refined step consumes. */
export function refineParams(node: IRNode, plan: PlanIR, artifacts: ReadonlyMap<string, unknown>): Record<string, { type: string; description: string }> {
  const out: Record<string, { type: string; description: string }> = {};
  for (const id of node.consumes) {
    const src = plan.nodes.find((n) => n.id === id);
    if (!src?.output || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(id)) continue;
    out[id] = { type: artifacts.has(id) ? jsonTypeOf(artifacts.get(id)) : "object", description: `the output "${src.output}" of step ${id}: ${src.goal}` };
  }
  return out;
}

function absolutize(list: unknown, base: string): unknown {
  const one = (p: unknown) => (typeof p === "string" && !isAbsolute(p) ? resolve(base, p) : p);
  return Array.isArray(list) ? list.map(one) : one(list);
}

/**
 * Writes the template and the revised plan into `outDir` and returns their paths; the
 * plan's relative imports are made absolute so it compiles from the run directory.
 */
export function writeRevision(opts: {
  sourceFile: string;
  sourceText: string;
  node: IRNode;
  plan: PlanIR;
  subSteps: Obj;
  artifacts: ReadonlyMap<string, unknown>;
  outDir: string;
  tag: string;
}): RevisedFiles {
  const { node } = opts;
  const base = dirname(opts.sourceFile);
  const data = parse(opts.sourceText) as Obj;
  const tools = data.tools as Obj | undefined;
  if (tools && tools.import !== undefined) tools.import = absolutize(tools.import, base);
  const templateName = refineTemplateName(node.id);
  const params = refineParams(node, opts.plan, opts.artifacts);
  const templateDoc = {
    planspec: 1,
    template: templateName,
    description: `Sub-steps of "${node.id}": ${node.goal}`,
    params,
    steps: opts.subSteps,
  };
  mkdirSync(opts.outDir, { recursive: true });
  const templateFile = join(opts.outDir, `${opts.tag}.template.yaml`);
  writeFileSync(templateFile, JSON.stringify(templateDoc, null, 2) + "\n");
  const templates = data.templates === undefined ? [] : (absolutize(data.templates, base) as unknown[]);
  data.templates = [...(Array.isArray(templates) ? templates : [templates]), templateFile];
  const steps = { ...(data.steps as Obj) };
  const original = (steps[node.id] ?? {}) as Obj;
  const use: Obj = { uses: templateName };
  if (original.needs !== undefined) use.needs = original.needs;
  if (Object.keys(params).length) use.with = Object.fromEntries(Object.keys(params).map((id) => [id, `\${{ steps.${id}.output }}`]));
  // Keep the step's place in the map so the revised file reads like the original.
  data.steps = Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, k === node.id ? use : v]));
  const planFile = join(opts.outDir, `${opts.tag}.plan.json`);
  const planText = JSON.stringify(data, null, 2) + "\n";
  writeFileSync(planFile, planText);
  return { planFile, templateFile, planText };
}
