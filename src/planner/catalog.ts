/**
 * The planner's inputs from disk: the `--tools` catalogue (attached to every planned
 * document) and `--templates` files (offered to the model as standard workflows).
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { parse } from "yaml";
import { PlannerError } from "../llm/errors.js";

type Obj = Record<string, unknown>;

export interface CatalogTool {
  risk: "read" | "write" | "external";
  description?: string;
  input_schema?: Obj;
  output_schema?: Obj;
}

export interface Catalog {
  /** The file as the user named it. */
  file: string;
  /** The tools map as written (`import` entries made absolute). */
  tools: Obj;
}

export interface TemplateInfo {
  file: string;
  name: string;
  description?: string;
  params: Record<string, { type?: string; description?: string; default?: unknown }>;
  steps: string[];
}

function readYaml(file: string, cwd: string, what: string): Obj {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), "utf8");
  } catch (err) {
    throw new PlannerError("input", `cannot read ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    throw new PlannerError("input", `${what} ${file} is not valid YAML: ${(err as Error).message.split("\n")[0]}`);
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new PlannerError("input", `${what} ${file} is not a YAML map`);
  return data as Obj;
}

/** Reads a tool catalogue file; `import` paths inside it are made absolute so they resolve from anywhere. */
export function loadCatalog(file: string, cwd: string): Catalog {
  const data = readYaml(file, cwd, "tool catalogue");
  const tools = data.tools;
  if (!tools || typeof tools !== "object" || Array.isArray(tools)) throw new PlannerError("input", `tool catalogue ${file} has no tools: map`);
  const out: Obj = { ...(tools as Obj) };
  const base = dirname(resolve(cwd, file));
  if (out.import !== undefined) {
    const list = Array.isArray(out.import) ? out.import : [out.import];
    out.import = list.map((p) => (typeof p === "string" && !isAbsolute(p) ? resolve(base, p) : p));
  }
  return { file, tools: out };
}

/** The tools of a catalogue with their risks, for the prompt (imports listed by path). */
export function catalogEntries(catalog: Catalog): Array<{ name: string; risk: string; description?: string }> {
  const out: Array<{ name: string; risk: string; description?: string }> = [];
  for (const [name, spec] of Object.entries(catalog.tools)) {
    if (name === "import") continue;
    const s = spec as Partial<CatalogTool> | undefined;
    const entry: { name: string; risk: string; description?: string } = { name, risk: String(s?.risk ?? "read") };
    if (typeof s?.description === "string") entry.description = s.description;
    out.push(entry);
  }
  return out;
}

/** Reads a template file's name, parameters and step ids. */
export function loadTemplate(file: string, cwd: string): TemplateInfo {
  const data = readYaml(file, cwd, "template");
  if (typeof data.template !== "string") throw new PlannerError("input", `${file} is not a template (no template: name)`);
  const info: TemplateInfo = {
    file: resolve(cwd, file),
    name: data.template,
    params: (data.params as TemplateInfo["params"]) ?? {},
    steps: Object.keys((data.steps as Obj) ?? {}),
  };
  if (typeof data.description === "string") info.description = data.description;
  return info;
}

/** A path to `target` as a plan at `planFile` would import it. */
export function importPath(planFile: string, target: string): string {
  const rel = relative(dirname(planFile), target).split("\\").join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** The planned document with the catalogue (inline) and the templates (imports) attached, keys in DSL order. */
export function attach(doc: Obj, catalog: Catalog, templates: readonly TemplateInfo[], planFile: string): Obj {
  const tools: Obj = { ...catalog.tools };
  if (Array.isArray(tools.import)) tools.import = (tools.import as string[]).map((p) => importPath(planFile, p));
  const out: Obj = {};
  // A model's `mcp:` (programs to start) is dropped like its tools: servers are the reviewer's choice.
  const { tools: _ignored, templates: _t, mcp: _m, ...rest } = doc;
  const order = ["planspec", "name", "goal", "deliverables", "complexity", "inputs"];
  for (const k of order) if (k in rest) out[k] = rest[k];
  out.tools = tools;
  if (templates.length) out.templates = templates.map((t) => importPath(planFile, t.file));
  for (const [k, v] of Object.entries(rest)) if (!(k in out)) out[k] = v;
  return out;
}
