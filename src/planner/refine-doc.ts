/**
 * Building the revised plan for a refinement: the run's plan source with one step
 * replaced by an instance of a generated template holding the model's sub-steps, so
 * the compiler itself names them `<step>.<sub>`, re-attaches their needs, and passes
 * the artifacts the step referenced in as parameters.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

/**
 * How the refined step names a step it consumes where the refinement is written: in the
 * plan, by its id; inside a template instance (`reporting.install`), by the id local to
 * the template (`check` for `reporting.check`).
 */
function localId(node: IRNode, id: string): string {
  const instance = node.template?.instance;
  return instance !== undefined && id.startsWith(`${instance}.`) ? id.slice(instance.length + 1) : id;
}

/** The parameters the sub-steps get: one per step whose output the refined step consumes. */
export function refineParams(node: IRNode, plan: PlanIR, artifacts: ReadonlyMap<string, unknown>): Record<string, { type: string; description: string }> {
  const out: Record<string, { type: string; description: string }> = {};
  for (const id of node.consumes) {
    const src = plan.nodes.find((n) => n.id === id);
    const name = localId(node, id);
    if (!src?.output || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    out[name] = { type: artifacts.has(id) ? jsonTypeOf(artifacts.get(id)) : "object", description: `the output "${src.output}" of step ${id}: ${src.goal}` };
  }
  return out;
}

/** Replaces step `local` of `steps` by a `uses` of the refinement template, in place of the original. */
function replaceStep(steps: Obj, local: string, fullId: string, templateName: string, params: Record<string, unknown>, subSteps: Obj): Obj {
  const original = (steps[local] ?? {}) as Obj;
  const use: Obj = { uses: templateName };
  if (original.needs !== undefined) use.needs = original.needs;
  if (Object.keys(params).length) use.with = Object.fromEntries(Object.keys(params).map((id) => [id, `\${{ steps.${id}.output }}`]));
  // Keep the step's place in the map so the revised file reads like the original; the
  // steps that read its output now read the sub-step that produces it.
  const sink = producer(subSteps, original.output);
  const ref = new RegExp(`steps\\s*\\.\\s*${local.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=\\s*\\.\\s*(output|status)\\b)`, "g");
  // Dotted ids are read with brackets and in full, also inside a template: steps["reporting.install.fetch"].output.
  const to = `steps[\\"${fullId}.${sink}\\"]`;
  return Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, k === local ? use : sink ? JSON.parse(JSON.stringify(v).replace(ref, () => to)) : v]));
}

/** The sub-step standing for the refined step's output: the one with the same output name, else the last one nothing needs. */
function producer(subSteps: Obj, output: unknown): string | undefined {
  const entries = Object.entries(subSteps) as Array<[string, Obj]>;
  const named = entries.find(([, v]) => output !== undefined && v?.output === output);
  if (named) return named[0];
  const needed = new Set(entries.flatMap(([, v]) => (Array.isArray(v?.needs) ? (v.needs as string[]) : [])));
  return entries.filter(([k]) => !needed.has(k)).at(-1)?.[0];
}

/**
 * A step of a template instance (`reporting.install`) is refined in a copy of its template
 * (same name, imported instead of the original), so every instance of it gets the sub-steps.
 */
function reviseTemplate(data: Obj, base: string, node: IRNode, templateName: string, params: Record<string, unknown>, subSteps: Obj, refineFile: string, outDir: string, tag: string): void {
  const origin = node.template!;
  const steps = data.steps as Obj;
  if (!(steps[origin.instance] as Obj | undefined)?.uses) throw new Error(`step "${node.id}" comes from a nested template instance ("${origin.instance}"); refine its template instead`);
  const list = (Array.isArray(data.templates) ? data.templates : data.templates === undefined ? [] : [data.templates]).map((t) => absolutize(t, base) as string);
  const file = list.find((f) => {
    try {
      return (parse(readFileSync(f, "utf8")) as Obj).template === origin.name;
    } catch {
      return false;
    }
  });
  if (!file) throw new Error(`the template "${origin.name}" of step "${node.id}" is not among the plan's templates`);
  const tdata = parse(readFileSync(file, "utf8")) as Obj;
  const tbase = dirname(file);
  const ttools = tdata.tools as Obj | undefined;
  if (ttools && ttools.import !== undefined) ttools.import = absolutize(ttools.import, tbase);
  const own = tdata.templates === undefined ? [] : (absolutize(tdata.templates, tbase) as unknown);
  tdata.templates = [...(Array.isArray(own) ? own : [own]), refineFile];
  tdata.steps = replaceStep(tdata.steps as Obj, node.id.slice(origin.instance.length + 1), node.id, templateName, params, subSteps);
  const copy = join(outDir, `${tag}.${kebab(origin.name)}.template.yaml`);
  writeFileSync(copy, JSON.stringify(tdata, null, 2) + "\n");
  data.templates = list.map((f) => (f === file ? copy : f));
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
  if (node.template) reviseTemplate(data, base, node, templateName, params, opts.subSteps, templateFile, opts.outDir, opts.tag);
  else data.steps = replaceStep(data.steps as Obj, node.id, node.id, templateName, params, opts.subSteps);
  const planFile = join(opts.outDir, `${opts.tag}.plan.json`);
  const planText = JSON.stringify(data, null, 2) + "\n";
  writeFileSync(planFile, planText);
  return { planFile, templateFile, planText };
}
