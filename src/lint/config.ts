/**
 * `planspec.config.yaml`: rule severities and options, ignores and a warning budget.
 * Found by walking up from each linted file (cached per directory, so a corpus of
 * thousands of files costs one walk per directory) or named with `--config`.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { type Diagnostic, type Severity, LineIndex, locate } from "../diagnostic.js";
import type { DocPath, SourceDoc } from "../compiler/source.js";
import { loadAjv } from "../compiler/lazy.js";
import { didYouMean } from "../compiler/suggest.js";
import { parseYamlSource } from "../compiler/yaml-source.js";
import { displayPath } from "./files.js";
import { ruleDocsUrl } from "./rule.js";

export const CONFIG_FILE = "planspec.config.yaml";
export const CONFIG_ERROR = "invalid-config";
export const SEVERITY_LEVELS = ["off", "info", "warning", "error"] as const;
export type SeverityLevel = Severity | "off";

export interface RuleSetting {
  severity?: SeverityLevel;
  options?: Record<string, unknown>;
}

export interface ResolvedConfig {
  /** The config file, when one applies. */
  file?: string;
  /** Directory `ignores` are relative to. */
  baseDir: string;
  rules: Record<string, RuleSetting>;
  ignores: string[];
  maxWarnings?: number;
}

/** What config validation needs to know about a rule id. */
export interface KnownRule {
  id: string;
  defaultOptions?: Record<string, unknown>;
}

export interface RuleOverride {
  id: string;
  severity: SeverityLevel;
}

/** The severity a rule runs at under `config` (`fallback` when the config is silent). */
export function severityOf(config: ResolvedConfig | undefined, id: string, fallback: Severity): SeverityLevel {
  return config?.rules[id]?.severity ?? fallback;
}

/** Parses one `--rule id=severity`; returns an error message for the user instead of throwing. */
export function parseRuleOverride(text: string, known: readonly KnownRule[]): RuleOverride | string {
  const m = /^([^=\s]+)\s*=\s*(\S+)$/.exec(text.trim());
  if (!m) return `--rule expects id=severity (off, info, warning, error), got "${text}"`;
  const id = m[1]!;
  const severity = m[2]!;
  const ids = known.map((r) => r.id);
  const withHint = (message: string, hint: string | undefined) => (hint ? `${message}; ${hint}` : message);
  if (!ids.includes(id)) return withHint(`--rule: unknown rule "${id}"`, didYouMean(id, ids));
  if (!(SEVERITY_LEVELS as readonly string[]).includes(severity)) {
    return withHint(`--rule ${id}: severity must be off, info, warning or error, got "${severity}"`, severityHint(severity));
  }
  return { id, severity: severity as SeverityLevel };
}

/** ESLint users write `warn`: suggest by prefix before edit distance. */
function severityHint(value: string): string | undefined {
  const prefixed = value.length >= 2 ? SEVERITY_LEVELS.find((s) => s.startsWith(value.toLowerCase())) : undefined;
  return prefixed ? `did you mean "${prefixed}"?` : didYouMean(value, SEVERITY_LEVELS);
}

const severitySchema = { enum: [...SEVERITY_LEVELS] };
const configSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    rules: {
      type: "object",
      additionalProperties: {
        if: { type: "string" },
        then: severitySchema,
        else: { type: "array", minItems: 1, maxItems: 2, items: [severitySchema, { type: "object" }] },
      },
    },
    ignores: { type: "array", items: { type: "string", minLength: 1 } },
    maxWarnings: { type: "integer", minimum: 0 },
  },
};

let validator: ValidateFunction | undefined;
function validateConfig(): ValidateFunction {
  // Compiled once per process, and only when some config file exists.
  if (!validator) {
    // ajv is loaded here, not at import: most lint runs have no config file (~30 ms saved).
    const ajv = new (loadAjv().Ajv)({ allErrors: true, strictTuples: false });
    validator = ajv.compile(configSchema);
  }
  return validator;
}

/**
 * Loads and validates one config file; errors are positioned diagnostics (the CLI exits 2)
 * naming the file as `shown`.
 */
export function loadConfigFile(
  path: string,
  known: readonly KnownRule[],
  shown: string = path,
): { config?: ResolvedConfig; diagnostics: Diagnostic[] } {
  const file = shown;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message;
    return { diagnostics: [configDiagnostic(file, undefined, [0, 0], `cannot read config ${file}: ${reason}`)] };
  }
  const { doc, errors } = parseYamlSource(file, text);
  const index = new LineIndex(text);
  const diagnostics = errors.map((e) => configDiagnostic(file, index, [e.start, e.end], e.message));
  if (!doc || diagnostics.length > 0) return { diagnostics };
  const data = doc.data ?? {};
  const validate = validateConfig();
  if (!validate(data)) {
    for (const e of validate.errors ?? []) {
      const d = schemaDiagnostic(doc, e);
      if (d) diagnostics.push(d);
    }
    return { diagnostics };
  }
  const raw = data as { rules?: Record<string, unknown>; ignores?: string[]; maxWarnings?: number };
  const config: ResolvedConfig = { file: path, baseDir: dirname(path), rules: {}, ignores: raw.ignores ?? [] };
  if (raw.maxWarnings !== undefined) config.maxWarnings = raw.maxWarnings;
  const byId = new Map(known.map((r) => [r.id, r]));
  for (const [id, value] of Object.entries(raw.rules ?? {})) {
    const rule = byId.get(id);
    if (!rule) {
      diagnostics.push(configDiagnostic(file, index, doc.rangeOf(["rules", id], "key"), `unknown rule "${id}"`, didYouMean(id, byId.keys())));
      continue;
    }
    const [severity, options] = Array.isArray(value) ? value : [value];
    const setting: RuleSetting = { severity: severity as SeverityLevel };
    if (options !== undefined) {
      diagnostics.push(...checkOptions(doc, rule, options as Record<string, unknown>));
      setting.options = options as Record<string, unknown>;
    }
    config.rules[id] = setting;
  }
  return diagnostics.length > 0 ? { diagnostics } : { config, diagnostics };
}

/** Options must be ones the rule declares, of the type of their default. */
function checkOptions(doc: SourceDoc, rule: KnownRule, options: Record<string, unknown>): Diagnostic[] {
  const defaults = rule.defaultOptions ?? {};
  const out: Diagnostic[] = [];
  for (const [key, value] of Object.entries(options)) {
    const path = ["rules", rule.id, 1, key];
    if (!(key in defaults)) {
      const names = Object.keys(defaults);
      const what = names.length ? `; it has ${names.join(", ")}` : "; it takes none";
      out.push(configDiagnostic(doc.file, doc.index, doc.rangeOf(path, "key"), `rule "${rule.id}" has no option "${key}"${what}`, didYouMean(key, names)));
    } else if (typeOf(value) !== typeOf(defaults[key])) {
      out.push(configDiagnostic(doc.file, doc.index, doc.rangeOf(path), `option "${key}" of rule "${rule.id}" must be ${typeOf(defaults[key])}, got ${typeOf(value)}`));
    }
  }
  return out;
}

function typeOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

/** JSON pointer to document path; indexes become numbers, as sequence lookups need (map lookups accept either). */
function pointerPath(pointer: string): DocPath {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, "/").replace(/~0/g, "~")));
}

/** One readable message per ajv keyword, at the YAML position of the offending value. */
function schemaDiagnostic(doc: SourceDoc, e: ErrorObject): Diagnostic | undefined {
  const path: DocPath = pointerPath(e.instancePath);
  const where = path.length ? path.join(".") : "the config";
  const at = (p: DocPath, part?: "key") => doc.rangeOf(p, part);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "if":
      return undefined; // bookkeeping: the then/else error says what is wrong
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const hint = didYouMean(key, Object.keys(configSchema.properties));
      return configDiagnostic(doc.file, doc.index, at([...path, key], "key"), `unknown key "${key}" in ${where}`, hint);
    }
    case "enum": {
      const got = JSON.stringify(valueAt(doc.data, path));
      const hint = typeof valueAt(doc.data, path) === "string" ? severityHint(String(valueAt(doc.data, path))) : undefined;
      return configDiagnostic(doc.file, doc.index, at(path), `${where} must be one of ${SEVERITY_LEVELS.join(", ")}, got ${got}`, hint);
    }
    case "type":
      return configDiagnostic(doc.file, doc.index, at(path), `${where} must be ${String(params.type)}, got ${typeOf(valueAt(doc.data, path))}`);
    case "minItems":
    case "maxItems":
      return configDiagnostic(doc.file, doc.index, at(path), `${where} must be a severity, [severity] or [severity, { options }]`);
    case "minimum":
      return configDiagnostic(doc.file, doc.index, at(path), `${where} must be at least ${String(params.limit)}`);
    case "minLength":
      return configDiagnostic(doc.file, doc.index, at(path), `${where} must not be empty`);
    default:
      return configDiagnostic(doc.file, doc.index, at(path), `${where} ${e.message ?? "is invalid"}`);
  }
}

function valueAt(data: unknown, path: DocPath): unknown {
  let v: unknown = data;
  for (const seg of path) v = v && typeof v === "object" ? (v as Record<string, unknown>)[String(seg)] : undefined;
  return v;
}

function configDiagnostic(file: string, index: LineIndex | undefined, range: [number, number], message: string, hint?: string): Diagnostic {
  const d: Omit<Diagnostic, "line" | "col" | "endLine" | "endCol"> = {
    code: CONFIG_ERROR,
    severity: "error",
    message,
    file,
    range,
    docsUrl: ruleDocsUrl(CONFIG_ERROR),
  };
  if (hint) d.hint = hint;
  return locate(index, d);
}

/**
 * Finds the config for each linted file: the `--config` file, else the nearest
 * `planspec.config.yaml` above it. `--rule` overrides apply on top of either (or of none).
 */
export class ConfigResolver {
  /** Every config problem met so far; the CLI exits 2 when there is one. */
  readonly diagnostics: Diagnostic[] = [];
  private readonly nearest = new Map<string, string | null>();
  private readonly byDir = new Map<string, ResolvedConfig>();
  private readonly loaded = new Map<string, ResolvedConfig>();
  private readonly fallback: ResolvedConfig;

  constructor(
    private readonly known: readonly KnownRule[],
    private readonly opts: { cwd: string; explicit?: string; overrides?: readonly RuleOverride[] },
  ) {
    this.fallback = this.withOverrides({ baseDir: opts.cwd, rules: {}, ignores: [] });
  }

  /** The config that applies to `file` (an absolute path or one relative to cwd). */
  forFile(file: string): ResolvedConfig {
    // By the file's directory as written: a corpus directory holds thousands of plans, and
    // resolving each path was most of the cost. Only plain paths (no `.` or `..` segment,
    // where dirname and resolve do not commute) are remembered.
    const dir = dirname(file);
    let config = this.byDir.get(dir);
    if (config === undefined) {
      config = this.lookup(file);
      if (!/(?:^|[\\/])\.\.?(?:[\\/]|$)/.test(file)) this.byDir.set(dir, config);
    }
    return config;
  }

  private lookup(file: string): ResolvedConfig {
    const configFile = this.opts.explicit ? resolve(this.opts.cwd, this.opts.explicit) : this.find(dirname(resolve(this.opts.cwd, file)));
    if (configFile === null) return this.fallback;
    let config = this.loaded.get(configFile);
    if (!config) {
      const result = loadConfigFile(configFile, this.known, displayPath(configFile, this.opts.cwd));
      this.diagnostics.push(...result.diagnostics);
      config = result.config ? this.withOverrides(result.config) : { ...this.fallback, file: configFile, baseDir: dirname(configFile) };
      this.loaded.set(configFile, config);
    }
    return config;
  }

  /** Every config file used so far. */
  configs(): ResolvedConfig[] {
    return [...this.loaded.values()];
  }

  private find(dir: string): string | null {
    const seen: string[] = [];
    let d = dir;
    let found: string | null = null;
    for (;;) {
      const cached = this.nearest.get(d);
      if (cached !== undefined) {
        found = cached;
        break;
      }
      seen.push(d);
      const candidate = join(d, CONFIG_FILE);
      if (existsSync(candidate)) {
        found = candidate;
        break;
      }
      const parent = dirname(d);
      if (parent === d) break;
      d = parent;
    }
    for (const s of seen) this.nearest.set(s, found);
    return found;
  }

  private withOverrides(config: ResolvedConfig): ResolvedConfig {
    const overrides = this.opts.overrides ?? [];
    if (overrides.length === 0) return config;
    const rules = { ...config.rules };
    for (const o of overrides) rules[o.id] = { ...rules[o.id], severity: o.severity };
    return { ...config, rules };
  }
}

/** What `planspec lint --print-config FILE` prints: the config that applies and every rule's setting. */
export interface PrintedConfig {
  file: string;
  /** The config file that applies (relative to cwd when inside it), or null for the defaults. */
  config: string | null;
  inlineConfig: boolean;
  ignored: boolean;
  ignores: string[];
  maxWarnings?: number;
  rules: Record<string, SeverityLevel | [SeverityLevel, Record<string, unknown>]>;
}

/** The resolved settings for `file` under `config`, for `--print-config`. */
export function describeConfig(
  config: ResolvedConfig,
  file: string,
  rules: ReadonlyArray<{ id: string; meta: { defaultSeverity: Severity; defaultOptions?: Record<string, unknown> } }>,
  engineCodes: ReadonlyArray<{ id: string; defaultSeverity: Severity }>,
  cwd: string,
  inlineConfig: boolean,
  isIgnored: (file: string, patterns: readonly string[], baseDir: string) => boolean,
): PrintedConfig {
  const out: PrintedConfig = {
    file,
    config: config.file ? displayPath(resolve(cwd, config.file), cwd) : null,
    inlineConfig,
    ignored: isIgnored(resolve(cwd, file), config.ignores, config.baseDir),
    ignores: config.ignores,
    rules: {},
  };
  if (config.maxWarnings !== undefined) out.maxWarnings = config.maxWarnings;
  for (const r of rules) {
    const severity = severityOf(config, r.id, r.meta.defaultSeverity);
    const options = { ...r.meta.defaultOptions, ...config.rules[r.id]?.options };
    out.rules[r.id] = Object.keys(options).length ? [severity, options] : severity;
  }
  for (const c of engineCodes) out.rules[c.id] = severityOf(config, c.id, c.defaultSeverity);
  return out;
}
