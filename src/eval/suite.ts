/**
 * Eval suites (SPEC §7): a YAML file of cases, each a goal with required and forbidden
 * step matchers and an optional gold plan. The loader reports every problem with a
 * position, as the compiler does, and never throws for bad input.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type Diagnostic, LineIndex, locate, sortDiagnostics } from "../diagnostic.js";
import { compileFile } from "../compiler/index.js";
import { parseYamlSource } from "../compiler/yaml-source.js";
import type { DocPath, SourceDoc } from "../compiler/source.js";
import { RISKS, STEP_KINDS, type Risk, type StepKind, type ToolSpec } from "../ir.js";

/** Selects steps: every field given must hold (`tool` may also be one of `allowed_tools`). */
export interface Matcher {
  id?: string;
  kind?: StepKind;
  tool?: string;
  output?: string;
  /** Ids of required matchers whose step must have this matcher's step as an ancestor. */
  before: string[];
}

export interface SuiteCase {
  id: string;
  goal: string;
  required: Matcher[];
  forbidden: Matcher[];
  /** Absolute path of the gold plan file. */
  gold?: string;
  /** An inline gold plan document (the DSL as YAML data). */
  goldInline?: Record<string, unknown>;
}

export interface Suite {
  file: string;
  name: string;
  description?: string;
  tools: Record<string, ToolSpec>;
  cases: SuiteCase[];
}

export type SuiteResult = { ok: true; suite: Suite; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[]; sources: Map<string, SourceDoc> };

const SUITE_DOCS = "docs/evals.md#suite-format";
const CASE_KEYS = new Set(["id", "goal", "required", "forbidden", "gold", "inputs", "notes"]);
const MATCHER_KEYS = new Set(["id", "kind", "tool", "output", "before"]);
const TOP_KEYS = new Set(["planspec", "suite", "description", "tools", "cases"]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads and validates a suite file (`file` is shown as given in diagnostics). */
export function loadSuite(file: string, cwd = process.cwd()): SuiteResult {
  const abs = resolve(cwd, file);
  const sources = new Map<string, SourceDoc>();
  const diagnostics: Diagnostic[] = [];
  const fail = (): SuiteResult => ({ ok: false, diagnostics: sortDiagnostics(diagnostics), sources });
  let text: string;
  try {
    text = readFileSync(abs, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    diagnostics.push(locate(undefined, { code: "suite", severity: "error", message: `cannot read ${file}: ${code === "ENOENT" ? "no such file" : String(code)}`, file, range: [0, 0], docsUrl: SUITE_DOCS }));
    return fail();
  }
  const { doc, errors } = parseYamlSource(file, text);
  const index = doc?.index ?? new LineIndex(text);
  for (const e of errors) diagnostics.push(locate(index, { code: "suite", severity: "error", message: e.message, file, range: [e.start, e.end], docsUrl: SUITE_DOCS }));
  if (!doc) return fail();
  sources.set(file, doc);
  const report = (path: DocPath, message: string, part: "key" | "value" = "value") =>
    diagnostics.push(locate(index, { code: "suite", severity: "error", message, file, range: doc.rangeOf(path, part), docsUrl: SUITE_DOCS }));

  const data = doc.data;
  if (!isObj(data)) {
    report([], "a suite file must be a map with planspec, suite, tools and cases");
    return fail();
  }
  for (const key of Object.keys(data)) if (!TOP_KEYS.has(key)) report([key], `unknown key "${key}" in a suite`, "key");
  if (data.planspec !== 1) report(data.planspec === undefined ? [] : ["planspec"], "planspec: 1 is required (the DSL version)");
  if (typeof data.suite !== "string" || data.suite.trim() === "") report(data.suite === undefined ? [] : ["suite"], "suite: a name is required");
  const tools = loadTools(data.tools, dirname(abs), cwd, report, diagnostics, sources);
  const cases: SuiteCase[] = [];
  if (!Array.isArray(data.cases) || data.cases.length === 0) {
    report(data.cases === undefined ? [] : ["cases"], "cases: a non-empty list of cases is required");
  } else {
    const seen = new Set<string>();
    data.cases.forEach((raw, i) => {
      const c = readCase(raw, ["cases", i], dirname(abs), report);
      if (!c) return;
      if (seen.has(c.id)) report(["cases", i, "id"], `duplicate case id "${c.id}"`);
      seen.add(c.id);
      cases.push(c);
    });
  }
  if (diagnostics.some((d) => d.severity === "error")) return fail();
  const suite: Suite = { file, name: String(data.suite), tools, cases };
  if (typeof data.description === "string") suite.description = data.description;
  return { ok: true, suite, diagnostics: [] };
}

type Report = (path: DocPath, message: string, part?: "key" | "value") => void;

/** The suite's catalogue: `{ import: file | [files], <name>: { risk } ... }`, inline entries win. */
function loadTools(raw: unknown, base: string, cwd: string, report: Report, diagnostics: Diagnostic[], sources: Map<string, SourceDoc>): Record<string, ToolSpec> {
  const tools: Record<string, ToolSpec> = Object.create(null);
  if (raw === undefined) {
    report([], "tools: a catalogue (inline, or { import: file }) is required");
    return tools;
  }
  if (!isObj(raw)) {
    report(["tools"], "tools must be a map of tool names (or { import: file })");
    return tools;
  }
  const imports = raw.import === undefined ? [] : Array.isArray(raw.import) ? raw.import : [raw.import];
  imports.forEach((rel, i) => {
    const at: DocPath = Array.isArray(raw.import) ? ["tools", "import", i] : ["tools", "import"];
    if (typeof rel !== "string") return report(at, "tools.import must name a catalogue file");
    const result = compileFile(resolve(base, rel), { cwd });
    for (const [f, d] of result.sources) sources.set(f, d);
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) {
      diagnostics.push(...errors);
      if (errors.some((d) => d.code === "PS100")) report(at, `cannot import catalogue ${rel}`);
      return;
    }
    const data = result.root?.data;
    if (result.kind !== "catalog" || !isObj(data) || !isObj(data.tools)) return report(at, `${rel} is not a tool catalogue (planspec: 1 and a tools: map)`);
    for (const [name, spec] of Object.entries(data.tools)) tools[name] = toolSpec(spec);
  });
  for (const [name, spec] of Object.entries(raw)) {
    if (name === "import") continue;
    if (!isObj(spec) || !(RISKS as readonly unknown[]).includes(spec.risk)) {
      report(isObj(spec) && spec.risk !== undefined ? ["tools", name, "risk"] : ["tools", name], `tool "${name}" needs risk: read, write or external`);
      continue;
    }
    tools[name] = toolSpec(spec);
  }
  return tools;
}

function toolSpec(spec: unknown): ToolSpec {
  const s = isObj(spec) ? spec : {};
  const out: ToolSpec = { risk: (RISKS as readonly unknown[]).includes(s.risk) ? (s.risk as Risk) : "read" };
  if (typeof s.description === "string") out.description = s.description;
  return out;
}

function readCase(raw: unknown, at: DocPath, base: string, report: Report): SuiteCase | undefined {
  if (!isObj(raw)) {
    report(at, "a case must be a map with id, goal and required");
    return undefined;
  }
  for (const key of Object.keys(raw)) if (!CASE_KEYS.has(key)) report([...at, key], `unknown key "${key}" in a case`, "key");
  const id = raw.id;
  if (typeof id !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(id)) {
    report(id === undefined ? at : [...at, "id"], "a case needs an id of letters, digits, '.', '_' or '-' (it names the plan file <id>.plan.yaml)");
    return undefined;
  }
  if (typeof raw.goal !== "string" || raw.goal.trim() === "") report(raw.goal === undefined ? at : [...at, "goal"], `case "${id}" needs a goal`);
  const required = readMatchers(raw.required, [...at, "required"], report, true);
  const forbidden = readMatchers(raw.forbidden, [...at, "forbidden"], report, false);
  const ids = new Set(required.map((m) => m.id).filter((x): x is string => x !== undefined));
  required.forEach((m, i) =>
    m.before.forEach((b, j) => {
      if (!ids.has(b)) report([...at, "required", i, "before", j], `before: "${b}" names no required matcher of case "${id}"`);
      else if (b === m.id) report([...at, "required", i, "before", j], `matcher "${b}" cannot come before itself`);
    }),
  );
  const c: SuiteCase = { id, goal: String(raw.goal ?? ""), required, forbidden };
  if (typeof raw.gold === "string") c.gold = resolve(base, raw.gold);
  else if (isObj(raw.gold)) c.goldInline = raw.gold;
  else if (raw.gold !== undefined) report([...at, "gold"], "gold must be a plan file path or an inline plan");
  return c;
}

function readMatchers(raw: unknown, at: DocPath, report: Report, required: boolean): Matcher[] {
  if (raw === undefined) {
    if (required) report(at.slice(0, -1), "a case needs required: [matchers]");
    return [];
  }
  if (!Array.isArray(raw)) {
    report(at, "matchers must be a list");
    return [];
  }
  const out: Matcher[] = [];
  raw.forEach((m, i) => {
    const here = [...at, i];
    if (!isObj(m)) return report(here, "a matcher must be a map of id, kind, tool, output, before");
    for (const key of Object.keys(m)) if (!MATCHER_KEYS.has(key)) report([...here, key], `unknown key "${key}" in a matcher`, "key");
    if (m.kind === undefined && m.tool === undefined && m.output === undefined) report(here, "a matcher needs at least one of kind, tool, output");
    if (m.kind !== undefined && !(STEP_KINDS as readonly unknown[]).includes(m.kind)) report([...here, "kind"], `unknown step kind "${String(m.kind)}"`);
    for (const k of ["id", "tool", "output"] as const) if (m[k] !== undefined && typeof m[k] !== "string") report([...here, k], `${k} must be a string`);
    const before = m.before === undefined ? [] : Array.isArray(m.before) && m.before.every((b) => typeof b === "string") ? (m.before as string[]) : undefined;
    if (!before) report([...here, "before"], "before must be a list of matcher ids");
    if (!required && before && before.length > 0) report([...here, "before"], "before is only meaningful on required matchers");
    const matcher: Matcher = { before: before ?? [] };
    if (typeof m.id === "string") matcher.id = m.id;
    if (typeof m.kind === "string") matcher.kind = m.kind as StepKind;
    if (typeof m.tool === "string") matcher.tool = m.tool;
    if (typeof m.output === "string") matcher.output = m.output;
    out.push(matcher);
  });
  return out;
}
