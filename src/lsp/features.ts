/**
 * Completion, hover and go-to-definition over an analysed document. Pure functions of the
 * analysis and an offset; the server turns offsets into LSP positions.
 */
import type { SourceDoc } from "../compiler/index.js";
import { catalogue as compilerCatalogue } from "../compiler/index.js";
import { FUNCTIONS } from "../compiler/expr/index.js";
import { STEP_KINDS, type IRNode, type JsonValue } from "../ir.js";
import { registeredRules } from "../lint/engine.js";
import { PlanGraph } from "../graph.js";
import type { Analysis } from "./analysis.js";
import { cursorContext, stepOf, wordAt } from "./context.js";

type Obj = Record<string, unknown>;

export type ItemKind = "step" | "tool" | "input" | "param" | "template" | "property" | "function" | "keyword" | "value";

export interface Item {
  label: string;
  kind: ItemKind;
  detail?: string;
  documentation?: string;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

function stepsOf(a: Analysis): Obj {
  const steps = isObj(a.data) ? (a.data as Obj).steps : undefined;
  return isObj(steps) ? steps : {};
}

function stepItem(id: string, def: unknown, node?: IRNode): Item {
  const d = isObj(def) ? def : {};
  const kind = node?.kind ?? (typeof d.kind === "string" ? d.kind : typeof d.uses === "string" ? `uses ${d.uses}` : "step");
  const item: Item = { label: id, kind: "step", detail: `${kind}${node ? `, risk ${node.risk}` : ""}` };
  const goal = node?.goal ?? d.goal;
  if (typeof goal === "string") item.documentation = goal;
  return item;
}

/** Every source document the last compile read (the plan, catalogues, templates). */
function sourcesOf(a: Analysis): SourceDoc[] {
  const seen = new Map<string, SourceDoc>();
  for (const r of [a.result, a.irResult]) for (const [f, d] of r?.sources ?? []) if (!seen.has(f)) seen.set(f, d);
  return [...seen.values()];
}

function toolsOf(a: Analysis): Map<string, { risk?: string; description?: string }> {
  const out = new Map<string, { risk?: string; description?: string }>();
  for (const [name, spec] of Object.entries(a.ir?.tools ?? {})) out.set(name, { risk: spec.risk, ...(spec.description ? { description: spec.description } : {}) });
  for (const doc of sourcesOf(a)) {
    const tools = isObj(doc.data) ? (doc.data as Obj).tools : undefined;
    if (!isObj(tools)) continue;
    for (const [name, spec] of Object.entries(tools)) {
      if (name === "import" || out.has(name)) continue;
      const s = isObj(spec) ? spec : {};
      out.set(name, { ...(typeof s.risk === "string" ? { risk: s.risk } : {}), ...(typeof s.description === "string" ? { description: s.description } : {}) });
    }
  }
  return out;
}

/** Templates the plan can `uses`: name → its document. */
function templatesOf(a: Analysis): Map<string, SourceDoc> {
  const out = new Map<string, SourceDoc>();
  for (const doc of sourcesOf(a)) {
    const name = isObj(doc.data) ? (doc.data as Obj).template : undefined;
    if (typeof name === "string" && doc.file !== a.result.root?.file) out.set(name, doc);
  }
  return out;
}

/** The JSON Schema `output_schema` of a step, at a property path. */
function schemaAt(schema: unknown, path: readonly string[]): Obj | undefined {
  let s: unknown = schema;
  for (const seg of path) {
    if (!isObj(s)) return undefined;
    if (/^\[\d*\]$/.test(seg) || /^\d+$/.test(seg)) s = s.items;
    else s = isObj(s.properties) ? (s.properties as Obj)[seg] : undefined;
  }
  return isObj(s) ? s : undefined;
}

function outputSchemaOf(a: Analysis, step: string): JsonValue | undefined {
  const node = a.ir?.nodes.find((n) => n.id === step);
  if (node?.outputSchema !== undefined) return node.outputSchema;
  const def = stepsOf(a)[step];
  return isObj(def) ? (def.output_schema as JsonValue | undefined) : undefined;
}

function expressionItems(a: Analysis, expr: string, self: string | undefined): Item[] {
  const m = /([A-Za-z_][\w\-]*(?:\.[\w\-]*|\[\d*\])*)$/.exec(expr);
  // `items[0].name` walks into the list's items: one `[]` segment per index.
  const ref = (m ? m[1]! : "").replace(/\[\d*\]/g, ".[]");
  const parts = ref.split(".");
  const root = parts[0]!;
  const steps = stepsOf(a);
  if (parts.length === 1) {
    const roots: Item[] = ["steps", "inputs", "output", "item", "run", "params"].map((label) => ({ label, kind: "keyword" }));
    const fns: Item[] = Object.entries(FUNCTIONS).map(([label, f]) => ({ label, kind: "function", documentation: f.doc }));
    return [...roots, ...fns];
  }
  if (root === "steps") {
    if (parts.length === 2) return Object.entries(steps).filter(([id]) => id !== self).map(([id, def]) => stepItem(id, def, a.ir?.nodes.find((n) => n.id === id)));
    if (parts.length === 3) return [{ label: "output", kind: "property", detail: "the step's result" }, { label: "status", kind: "property", detail: "done, failed or skipped" }];
    if (parts[2] === "output") {
      const schema = schemaAt(outputSchemaOf(a, parts[1]!), parts.slice(3, -1));
      const props = schema && isObj(schema.properties) ? (schema.properties as Obj) : {};
      return Object.entries(props).map(([label, p]) => ({
        label,
        kind: "property" as const,
        ...(isObj(p) && typeof p.type === "string" ? { detail: p.type } : {}),
        ...(isObj(p) && typeof p.description === "string" ? { documentation: p.description } : {}),
      }));
    }
    return [];
  }
  if (root === "inputs" && parts.length === 2) {
    const inputs = isObj(a.data) && isObj((a.data as Obj).inputs) ? ((a.data as Obj).inputs as Obj) : {};
    return Object.entries(inputs).map(([label, spec]) => ({
      label,
      kind: "input" as const,
      ...(isObj(spec) && typeof spec.type === "string" ? { detail: spec.type } : {}),
      ...(isObj(spec) && typeof spec.description === "string" ? { documentation: spec.description } : {}),
    }));
  }
  if (root === "params" && parts.length === 2) {
    const params = isObj(a.data) && isObj((a.data as Obj).params) ? ((a.data as Obj).params as Obj) : {};
    return Object.keys(params).map((label) => ({ label, kind: "param" as const }));
  }
  if (root === "run" && parts.length === 2) return [{ label: "id", kind: "property", detail: "the run's id" }];
  return [];
}

function listed(before: string): Set<string> {
  const open = before.lastIndexOf("[");
  return new Set((open >= 0 ? before.slice(open + 1) : "").split(",").map((s) => s.trim()).filter(Boolean));
}

/** Completion items at `offset`. */
export function complete(a: Analysis, offset: number): Item[] {
  const ctx = cursorContext(a.text, offset);
  const self = stepOf(ctx.keys);
  if (ctx.expression !== undefined) return expressionItems(a, ctx.expression, self);
  const last = ctx.keys[ctx.keys.length - 1];
  const steps = stepsOf(a);
  const before = ctx.before;
  if (last === "needs" || last === "verify_by") {
    const already = listed(before);
    const def = self ? steps[self] : undefined;
    if (isObj(def) && Array.isArray(def.needs)) for (const n of def.needs) if (typeof n === "string" && !before.endsWith(n)) already.add(n);
    return Object.entries(steps)
      .filter(([id]) => id !== self && !already.has(id))
      .map(([id, def]) => stepItem(id, def, a.ir?.nodes.find((n) => n.id === id)));
  }
  if (last === "tool" || last === "allowed_tools") {
    return [...toolsOf(a)].map(([label, t]) => ({ label, kind: "tool" as const, ...(t.risk ? { detail: `risk ${t.risk}` } : {}), ...(t.description ? { documentation: t.description } : {}) }));
  }
  if (last === "uses") return [...templatesOf(a).keys()].map((label) => ({ label, kind: "template" as const }));
  if (last === "kind" && self) return STEP_KINDS.map((label) => ({ label, kind: "value" as const }));
  if (last === "risk" && self) return ["read", "write", "external"].map((label) => ({ label, kind: "value" as const }));
  // A key under `with:` of a step that uses a template: the template's parameters.
  const inWith = last === "with" || (ctx.keys[ctx.keys.length - 2] === "with" && /^\s*[\w-]*$/.test(before));
  if (self && inWith) {
    const def = steps[self];
    const template = isObj(def) && typeof def.uses === "string" ? templatesOf(a).get(def.uses) : undefined;
    const params = template && isObj(template.data) ? (template.data as Obj).params : undefined;
    if (isObj(params)) {
      const given = isObj(def) && isObj(def.with) ? new Set(Object.keys(def.with as Obj)) : new Set<string>();
      return Object.entries(params)
        .filter(([p]) => !given.has(p))
        .map(([label, spec]) => ({
          label,
          kind: "param" as const,
          ...(isObj(spec) && typeof spec.type === "string" ? { detail: spec.type } : {}),
          ...(isObj(spec) && typeof spec.description === "string" ? { documentation: spec.description } : {}),
        }));
    }
  }
  return [];
}

export interface Target {
  /** The file as the compile result names it (relative to the analysis' cwd). */
  file: string;
  range: [number, number];
}

/** What the word at `offset` names: a step, a tool or a template. */
function symbolAt(a: Analysis, offset: number): { kind: "step" | "tool" | "template"; name: string; range: [number, number] } | undefined {
  const w = wordAt(a.text, offset);
  if (!w) return undefined;
  const ctx = cursorContext(a.text, w.start);
  const steps = stepsOf(a);
  const nodes = new Set(a.ir?.nodes.map((n) => n.id) ?? []);
  const last = ctx.keys[ctx.keys.length - 1];
  const ref = /^steps\.([\w\-]+)/.exec(w.word);
  if (ref && (ctx.expression !== undefined || last === "evidence")) {
    const name = ref[1]!;
    const at = w.start + "steps.".length;
    // The instance and step of a template step: `steps.publish_post.build` is one id.
    const dotted = w.word.split(".").slice(1, 3).join(".");
    return { kind: "step", name: nodes.has(dotted) && !(name in steps) ? dotted : name, range: [at, at + name.length] };
  }
  if (last === "needs" || last === "verify_by") return { kind: "step", name: w.word, range: [w.start, w.end] };
  if (last === "tool" || last === "allowed_tools") return { kind: "tool", name: w.word, range: [w.start, w.end] };
  if (last === "uses") return { kind: "template", name: w.word, range: [w.start, w.end] };
  // A step's own key: `  fetch:` directly under `steps:`.
  const line = a.text.slice(a.text.lastIndexOf("\n", w.start - 1) + 1, w.end + 1);
  if (ctx.keys.length === 1 && ctx.keys[0] === "steps" && /^\s*[\w\-]+:$/.test(line)) return { kind: "step", name: w.word, range: [w.start, w.end] };
  return undefined;
}

/** Where the symbol at `offset` is defined. */
export function definition(a: Analysis, offset: number): Target | undefined {
  const sym = symbolAt(a, offset);
  if (!sym) return undefined;
  const result = a.result.root ? a.result : a.irResult ?? a.result;
  if (sym.kind === "step") {
    const origin = result.origins.get(sym.name) ?? a.irResult?.origins.get(sym.name);
    const doc = origin && (result.sources.get(origin.file) ?? a.irResult?.sources.get(origin.file));
    if (origin && doc) return { file: origin.file, range: doc.rangeOf(origin.path, "key") };
    const root = result.root;
    if (root && isObj(root.data) && isObj((root.data as Obj).steps) && sym.name in ((root.data as Obj).steps as Obj)) {
      return { file: fileOf(a, root), range: root.rangeOf(["steps", sym.name], "key") };
    }
    return undefined;
  }
  if (sym.kind === "template") {
    const doc = templatesOf(a).get(sym.name);
    return doc ? { file: fileOf(a, doc), range: doc.rangeOf(["template"]) } : undefined;
  }
  for (const doc of sourcesOf(a)) {
    const tools = isObj(doc.data) ? (doc.data as Obj).tools : undefined;
    if (isObj(tools) && sym.name in tools) return { file: fileOf(a, doc), range: doc.rangeOf(["tools", sym.name], "key") };
  }
  return undefined;
}

/** The name a compile result uses for a source document. */
function fileOf(a: Analysis, doc: SourceDoc): string {
  for (const r of [a.result, a.irResult]) for (const [f, d] of r?.sources ?? []) if (d === doc) return f;
  return doc.file;
}

/** Markdown for the symbol or diagnostics at `offset`. */
export function hover(a: Analysis, offset: number): { markdown: string; range?: [number, number] } | undefined {
  const parts: string[] = [];
  const sym = symbolAt(a, offset);
  if (sym?.kind === "step") {
    const node = a.ir?.nodes.find((n) => n.id === sym.name);
    const def = stepsOf(a)[sym.name];
    if (node && a.ir) {
      const effective = new PlanGraph(a.ir).effectiveRisk(node);
      const lines = [
        `**step \`${node.id}\`**: ${node.kind}`,
        `risk: ${node.risk}${node.riskInferred ? " (inferred)" : ""}${effective !== node.risk ? `; effective risk: **${effective}**` : `; effective risk: ${effective}`}`,
      ];
      if (node.tool) lines.push(`tool: \`${node.tool}\``);
      if (node.dependsOn.length) lines.push(`needs: ${node.dependsOn.map((d) => `\`${d}\``).join(", ")}`);
      if (node.output) lines.push(`output: \`${node.output}\``);
      if (node.approval?.required) lines.push(`approval: ${node.approval.approvers.join(", ") || "required"}`);
      lines.push("", node.goal);
      parts.push(lines.join("  \n"));
    } else if (isObj(def)) {
      parts.push(`**step \`${sym.name}\`**: ${String(def.kind ?? (def.uses ? `uses ${def.uses}` : "step"))}${def.risk ? `  \nrisk: ${String(def.risk)}` : ""}${typeof def.goal === "string" ? `\n\n${def.goal}` : ""}`);
    }
  } else if (sym?.kind === "tool") {
    const t = toolsOf(a).get(sym.name);
    if (t) parts.push(`**tool \`${sym.name}\`**${t.risk ? `: risk ${t.risk}` : ""}${t.description ? `\n\n${t.description}` : ""}`);
  } else if (sym?.kind === "template") {
    const doc = templatesOf(a).get(sym.name);
    const data = doc && isObj(doc.data) ? (doc.data as Obj) : undefined;
    if (data) {
      const params = isObj(data.params) ? Object.keys(data.params as Obj) : [];
      parts.push(`**template \`${sym.name}\`**${typeof data.description === "string" ? `: ${data.description}` : ""}${params.length ? `  \nparams: ${params.map((p) => `\`${p}\``).join(", ")}` : ""}`);
    }
  }
  // The rules behind findings under the cursor, with their docs.
  const here = a.byFile.get(a.path) ?? [];
  const rules = registeredRules();
  const cat = compilerCatalogue as Record<string, { title: string }>;
  for (const code of new Set(here.filter((d) => d.range[0] <= offset && offset <= d.range[1]).map((d) => d.code))) {
    const d = here.find((x) => x.code === code)!;
    const rule = rules.find((r) => r.id === code);
    const about = rule ? rule.meta.description : cat[code] ? cat[code]!.title : code;
    parts.push(`**${code}**: ${about} ([docs](${d.docsUrl}))`);
  }
  if (parts.length === 0) return undefined;
  return { markdown: parts.join("\n\n---\n\n"), ...(sym ? { range: sym.range } : {}) };
}
