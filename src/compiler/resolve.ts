/**
 * Stage 3: resolve a plan document: import tool catalogues and templates (relative to
 * the file that names them), merge the catalogue, and expand `uses` steps.
 */
import { dirname, resolve as resolvePath } from "node:path";
import type { Risk, ToolSpec } from "../ir.js";
import type { Collector } from "./diagnostics.js";
import { loadSource } from "./load.js";
import { checkSchema, documentKind } from "./schema.js";
import type { DocPath, SourceDoc } from "./source.js";
import { didYouMean } from "./suggest.js";
import { fitsType, instantiateStep, jsonType, templateSinks, type TemplateDef } from "./templates.js";

export interface Defaults {
  retry?: Record<string, unknown>;
  timeout?: string;
}

/** One step to compile, with where it was written. */
export interface StepSite {
  id: string;
  def: Record<string, unknown>;
  doc: SourceDoc;
  path: DocPath;
  defaults: Defaults;
  template?: { name: string; instance: string };
  /** Set when `needs` came from the step that uses the template: where that step wrote them. */
  needsFrom?: { id: string; doc: SourceDoc; path: DocPath };
}

export interface Resolved {
  tools: Record<string, ToolSpec>;
  templates: Map<string, TemplateDef>;
  steps: StepSite[];
  /** Template instance id -> the ids its dependents must wait for. */
  instanceSinks: Map<string, string[]>;
  /** Ids of steps that failed to expand; needs on them are not reported again. */
  broken: Set<string>;
}

type Obj = Record<string, unknown>;

function toolSpec(raw: Obj): ToolSpec {
  const t: ToolSpec = { risk: raw.risk as Risk };
  if (typeof raw.description === "string") t.description = raw.description;
  if (raw.input_schema !== undefined) t.inputSchema = raw.input_schema as ToolSpec["inputSchema"];
  if (raw.output_schema !== undefined) t.outputSchema = raw.output_schema as ToolSpec["outputSchema"];
  if (Array.isArray(raw.input_types)) t.inputTypes = raw.input_types as string[];
  if (Array.isArray(raw.output_types)) t.outputTypes = raw.output_types as string[];
  if (raw.annotations !== undefined) t.annotations = raw.annotations as ToolSpec["annotations"];
  return t;
}

function asList(v: unknown): string[] {
  return typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

class Resolver {
  readonly tools: Record<string, ToolSpec> = {};
  readonly templates = new Map<string, TemplateDef>();
  readonly steps: StepSite[] = [];
  readonly instanceSinks = new Map<string, string[]>();
  readonly broken = new Set<string>();
  private readonly loadedTemplateFiles = new Set<string>();
  private readonly loadedCatalogues = new Set<string>();

  constructor(private readonly out: Collector) {}

  /** Imports `tools.import` catalogues, then adds the document's inline tools (inline wins). */
  addTools(doc: SourceDoc, data: Obj, basePath: DocPath = []): void {
    const tools = data.tools as Obj | undefined;
    if (!tools) return;
    const imports = asList(tools.import);
    imports.forEach((rel, i) => {
      const at = Array.isArray(tools.import) ? [...basePath, "tools", "import", i] : [...basePath, "tools", "import"];
      this.importCatalogue(resolvePath(dirname(doc.file), rel), { file: doc.file, range: doc.rangeOf(at), name: rel });
    });
    for (const [name, spec] of Object.entries(tools)) {
      if (name === "import" || !spec || typeof spec !== "object") continue;
      this.tools[name] = toolSpec(spec as Obj);
    }
  }

  private importCatalogue(file: string, from: { file: string; range: [number, number]; name: string }): void {
    if (this.loadedCatalogues.has(file)) return;
    this.loadedCatalogues.add(file);
    const { doc } = loadSource(file, this.out, from);
    if (!doc) return;
    const kind = documentKind(doc.data);
    if (kind !== "catalog") {
      this.out.report("PS118", from.file, from.range, { file: from.name, reason: `it is a ${kind}, not a \`planspec: 1\` file with only a tools map` });
      return;
    }
    if (!checkSchema(doc, "catalog", this.out)) return;
    for (const [name, spec] of Object.entries((doc.data as Obj).tools as Obj)) {
      this.tools[name] = toolSpec(spec as Obj);
    }
  }

  /** Loads template files named by `templates:` (and theirs, transitively). */
  addTemplateImports(doc: SourceDoc, data: Obj): void {
    asList(data.templates).forEach((rel, i) => {
      const file = resolvePath(dirname(doc.file), rel);
      if (this.loadedTemplateFiles.has(file)) return;
      this.loadedTemplateFiles.add(file);
      const from = { file: doc.file, range: doc.rangeOf(["templates", i]), name: rel };
      const loaded = loadSource(file, this.out, from);
      if (!loaded.doc) return;
      const tdoc = loaded.doc;
      if (documentKind(tdoc.data) !== "template") {
        this.out.report("PS139", from.file, from.range, { reason: `${rel} is not a template file (it has no \`template:\` key)` });
        return;
      }
      if (!checkSchema(tdoc, "template", this.out)) return;
      const tdata = tdoc.data as Obj;
      const name = String(tdata.template);
      this.templates.set(name, {
        name,
        doc: tdoc,
        data: tdata,
        params: (tdata.params ?? {}) as TemplateDef["params"],
        stepIds: Object.keys(tdata.steps as Obj),
      });
      this.addTools(tdoc, tdata);
      this.addTemplateImports(tdoc, tdata);
    });
  }

  /** Adds the steps of a document (plan or template instance), expanding `uses`. */
  addSteps(
    doc: SourceDoc,
    steps: Obj,
    defaults: Defaults,
    prefix: { instance: string; template: string; params: Obj; local: Set<string> } | undefined,
    stack: string[],
  ): void {
    for (const [localId, raw] of Object.entries(steps)) {
      const path: DocPath = ["steps", localId];
      const id = prefix ? `${prefix.instance}.${localId}` : localId;
      let def = raw as Obj;
      if (prefix) def = instantiateStep(def, prefix.params, prefix.instance, prefix.local);
      if (typeof def.uses === "string") {
        this.expand(doc, path, id, def, defaults, stack, prefix);
        continue;
      }
      const site: StepSite = { id, def, doc, path, defaults };
      if (prefix) site.template = { name: prefix.template, instance: prefix.instance };
      this.steps.push(site);
    }
  }

  private expand(doc: SourceDoc, path: DocPath, id: string, def: Obj, defaults: Defaults, stack: string[], outer?: { local: Set<string>; instance: string }): void {
    const name = def.uses as string;
    const t = this.templates.get(name);
    if (!t) {
      const hint = didYouMean(name, this.templates.keys()) ?? (this.templates.size ? undefined : "import template files with `templates: [./x.template.yaml]`");
      this.out.report("PS119", doc.file, doc.rangeOf([...path, "uses"]), { name }, hint ? { hint } : {});
      this.broken.add(id);
      return;
    }
    if (stack.includes(name)) {
      this.out.report("PS120", doc.file, doc.rangeOf([...path, "uses"]), { path: [...stack, name].join(" -> ") });
      this.broken.add(id);
      return;
    }
    const stray = Object.keys(def).filter((k) => k !== "uses" && k !== "with" && k !== "needs");
    for (const k of stray) {
      this.out.report("PS136", doc.file, doc.rangeOf([...path, k], "key"), {
        reason: `a step with \`uses\` takes only with and needs; "${k}" belongs in the template "${name}"`,
      });
    }
    const given = (def.with ?? {}) as Obj;
    const params: Obj = {};
    let ok = true;
    for (const [p, v] of Object.entries(given)) {
      const spec = t.params[p];
      if (!spec) {
        const hint = didYouMean(p, Object.keys(t.params));
        this.out.report("PS122", doc.file, doc.rangeOf([...path, "with", p], "key"), { template: name, param: p }, hint ? { hint } : {});
        ok = false;
        continue;
      }
      const isExpr = typeof v === "string" && v.includes("${{");
      if (!isExpr && !fitsType(v, spec.type)) {
        this.out.report("PS123", doc.file, doc.rangeOf([...path, "with", p]), { template: name, param: p, expected: spec.type, actual: jsonType(v) });
        ok = false;
      }
      params[p] = v;
    }
    for (const [p, spec] of Object.entries(t.params)) {
      if (p in given) continue;
      if ("default" in spec) params[p] = spec.default;
      else {
        this.out.report("PS121", doc.file, doc.rangeOf([...path, "uses"]), { template: name, param: p });
        ok = false;
      }
    }
    if (!ok) {
      this.broken.add(id);
      return;
    }
    const local = new Set(t.stepIds);
    const sinks = templateSinks(t).map((s) => `${id}.${s}`);
    this.instanceSinks.set(id, sinks);
    // Template steps with no needs inside the template start after the using step's needs.
    const outerNeeds = asList(def.needs).map((n) => (outer?.local.has(n) ? `${outer.instance}.${n}` : n));
    const before = this.steps.length;
    const tdefaults: Defaults = { ...defaults, ...((t.data.defaults as Defaults | undefined) ?? {}) };
    this.addSteps(t.doc, t.data.steps as Obj, tdefaults, { instance: id, template: name, params, local }, [...stack, name]);
    for (const site of this.steps.slice(before)) {
      if (site.template?.instance !== id) continue;
      const own = asList(site.def.needs);
      if (own.length === 0 && outerNeeds.length) {
        site.def = { ...site.def, needs: [...outerNeeds] };
        site.needsFrom = { id, doc, path };
      }
    }
  }
}

/** Resolves imports and templates of a validated plan document. */
export function resolvePlan(doc: SourceDoc, out: Collector): Resolved {
  const data = doc.data as Obj;
  const r = new Resolver(out);
  r.addTools(doc, data);
  r.addTemplateImports(doc, data);
  r.addSteps(doc, data.steps as Obj, (data.defaults ?? {}) as Defaults, undefined, []);
  return { tools: r.tools, templates: r.templates, steps: r.steps, instanceSinks: r.instanceSinks, broken: r.broken };
}
