/**
 * What a step's arguments will do: one walk over `with`, reading each literal string in
 * the light of its argument's name and of the tool that receives it (a command, a SQL
 * statement, an HTTP method, a production target, a public audience, an amount).
 */
import { evaluate, parseExpression, references } from "../compiler/expr/index.js";
import type { DocPath } from "../compiler/source.js";
import { type Confidence, minConfidence as min } from "../diagnostic.js";
import { type PlanIR, type Value, isExprValue, isTemplateValue } from "../ir.js";
import type { ImpactSignal, RiskSignal } from "./effective-risk.js";
import { COMMAND_PROGRAMS, type CommandEffect, DESTROYING_MUTATION, LOADER_VARIABLES, METHOD_OVERRIDE_KEYS, METHOD_PARAM, PRODUCTION, argvEffects, commandEffects, firstProgram, graphqlMutation } from "./risk-shell.js";
import { type SqlContext, UPPER_START, sqlEffects } from "./risk-sql.js";
import type { ToolFacts } from "./risk-tools.js";

const COMMAND_KEYS = new Set(["command", "cmd", "commands", "script", "shell", "bash", "sh", "run", "exec", "argv", "cmdline", "command_line", "entrypoint"]);
const SQL_KEYS_STRONG = new Set(["sql", "statement", "statements", "stmt", "ddl", "dml", "migration", "queries"]);
const SQL_KEYS_WEAK = new Set(["query", "q"]);
const METHOD_KEYS = new Set(["method", "http_method", "verb"]);
const URL_KEYS = new Set(["url", "uri", "endpoint", "path", "href"]);
const PROD_KEYS = new Set(["env", "environment", "stage", "context", "kube_context", "cluster", "namespace", "target", "profile", "workspace", "project", "host", "hostname", "server", "url", "endpoint", "base_url", "database", "db", "dsn", "connection", "site", "account", "region"]);
const PROD_KEYS_SURE = new Set(["env", "environment", "stage"]);
const PUBLIC_KEYS = new Set(["visibility", "acl", "access", "audience", "privacy", "sharing"]);
const PUBLIC_VALUES = /^(?:public|public-read|public-read-write|everyone|anyone|world|all users)$/i;

// Argument names that make a value worth reading whatever the tool.
const NAMED_KEYS = new Set([...COMMAND_KEYS, ...SQL_KEYS_STRONG, ...SQL_KEYS_WEAK, ...METHOD_KEYS, ...PROD_KEYS, ...PUBLIC_KEYS, "amount"]);

/** A template's text as the plan shows it: its literal parts, its constant expressions' text, a stand-in word for the rest. */
function templateText(parts: ReadonlyArray<string | { $expr: string }>, item?: Item): string {
  return parts.map((p) => (typeof p === "string" ? p : (constantText(p.$expr, item) ?? "X"))).join("");
}

/** One of a `for_each`'s items, when the plan gives them as literals. */
export type Item = { value: unknown };

/**
 * The value of an expression that names nothing (no input, step, secret or run; `item` only when the item is given):
 * `'rm -rf'`, `'DEL' + 'ETE'`, `upper('delete')`, `['rm -rf /data', 'ls']`, `item.cmd`. Undefined for one that names
 * anything else or fails.
 */
function constantValue(source: string, item?: Item): { value: unknown } | undefined {
  const { ast, errors } = parseExpression(source);
  if (!ast || errors.length > 0 || references(ast).some((r) => r.root !== "item" || item === undefined)) return undefined;
  try {
    return { value: evaluate(ast, item === undefined ? {} : { item: item.value }) };
  } catch {
    return undefined;
  }
}

/** The text of a constant expression: a string's or a number's. */
function constantText(source: string, item?: Item): string | undefined {
  const c = constantValue(source, item);
  return typeof c?.value === "string" || typeof c?.value === "number" ? String(c.value) : undefined;
}

/** A `for_each`'s items when its expression is a list of literals (`${{ ['rm -rf /data', 'ls'] }}`), the first 32. */
export function constantItems(source: string | undefined): Item[] | undefined {
  const c = source === undefined ? undefined : constantValue(source);
  return Array.isArray(c?.value) ? c.value.slice(0, 32).map((value: unknown) => ({ value })) : undefined;
}

/** The texts a value takes, one for each literal item when it names the item, else the one it shows. */
function valueTexts(parts: ReadonlyArray<string | { $expr: string }>, items: readonly Item[] | undefined): string[] {
  const named = items !== undefined && parts.some((p) => typeof p !== "string" && /\bitem\b/.test(p.$expr));
  return named ? [...new Set(items.map((item) => templateText(parts, item)))] : [templateText(parts)];
}

/**
 * The cheap test before the walk: false when nothing in `args` can say anything to a tool
 * that is no shell, SQL client or HTTP client (no telling argument name, no string that
 * opens like a statement or a known program). Most steps of a corpus stop here.
 */
export function mayMatter(args: { [key: string]: Value }, facts: ToolFacts): boolean {
  if (facts.shell || facts.sql !== "none" || facts.http) return true;
  return valueMayMatter(args, facts.llm);
}

function valueMayMatter(v: Value, llm: boolean): boolean {
  if (typeof v === "string") return !llm && opensLikeAction(v);
  if (v === null || typeof v !== "object") return false;
  if (isExprValue(v)) return false;
  if (isTemplateValue(v)) return !llm && typeof v.$template[0] === "string" && opensLikeAction(v.$template[0]);
  if (Array.isArray(v)) return v.some((x) => valueMayMatter(x, llm));
  for (const k in v) if (NAMED_KEYS.has(k.toLowerCase()) || valueMayMatter(v[k]!, llm)) return true;
  return false;
}

function opensLikeAction(s: string): boolean {
  if (startsUpper(s)) return UPPER_START.test(s);
  if (!startsLower(s) || !s.includes(" ")) return false;
  const program = firstProgram(s);
  return program !== undefined && COMMAND_PROGRAMS.has(program);
}

/** Walks a step's `with` once, reading each literal string in the light of its argument's name. */
export class ArgumentScan {
  private hasUrl = false;
  private hasAmount = false;
  private hasCurrency = false;
  private method: { value: string; path: DocPath } | undefined;
  /** A method given by an override header or a `_method` parameter: it wins over `method`. */
  private override: { value: string; path: DocPath; what: string } | undefined;
  private mutation: { field: string; path: DocPath } | undefined;

  constructor(
    private readonly ir: PlanIR,
    private readonly facts: ToolFacts,
    private readonly signals: RiskSignal[],
    private readonly impacts: ImpactSignal[],
    /** The step's `for_each` items, when the plan gives them as literals. */
    private readonly items?: readonly Item[],
  ) {}

  /**
   * A program and its argument list given apart, the form `exec` runs without a shell
   * (`{ command: kubectl, args: [delete, ns, prod] }`): read as one argv, since neither
   * part says alone what the call does. Returns the keys it read (none when `with` has
   * no such shape), which the per-key walk then skips.
   */
  programAndArgs(args: { [key: string]: Value }): string[] {
    const key = ["command", "cmd"].find((k) => typeof args[k] === "string" && /^\S+$/.test(args[k] as string));
    const list = args.args;
    if (key === undefined || !Array.isArray(list) || list.length === 0) return [];
    this.commands(argvEffects([args[key] as string, ...list.map(argvWord)]), ["with", "args"], this.facts.shell ? "high" : "medium");
    return [key, "args"];
  }

  visit(v: Value, path: Array<string | number>, key: string, sure: Confidence): void {
    // `env: { LD_PRELOAD: … }` of a step that runs a program: as `LD_PRELOAD=… cmd` on its command line.
    if (path.length === 3 && path[1] === "env" && this.facts.shell && LOADER_VARIABLES.test(key) && !(typeof v === "string" && v.trim() === "")) {
      this.signals.push({ risk: "write", destructive: true, reason: `\`${key}\` in ${quotePath(path)} (code the plan does not show)`, path, confidence: sure });
    }
    if (path.length === 2) {
      const k = key.toLowerCase();
      this.hasUrl ||= URL_KEYS.has(k);
      this.hasAmount ||= k === "amount";
      this.hasCurrency ||= k === "currency";
    }
    if (typeof v === "string") return this.text(v, path, key.toLowerCase(), sure);
    if (v === null || typeof v !== "object") return;
    if (isExprValue(v)) {
      // `${{ 'DEL' + 'ETE' }}`: an expression of literals alone is the text it gives (`${{ item }}`: each literal item's).
      const known = valueTexts([v], this.items).filter((t) => t !== "X");
      if (known.length > 0) return known.forEach((t) => this.text(t, path, key.toLowerCase(), sure));
      // `${{ inputs.env }}` with a default: the default is what runs unless the caller says otherwise.
      const m = /^\s*inputs\.([A-Za-z_][A-Za-z0-9_-]*)\s*$/.exec(v.$expr);
      const d = m ? this.ir.inputs[m[1]!]?.default : undefined;
      if (typeof d === "string") this.text(d, path, key.toLowerCase(), "medium");
      return;
    }
    if (isTemplateValue(v)) {
      // Literal parts joined by a stand-in word keep the command's shape: "rm -rf ${{ x }}"; an expression of literals
      // alone is its text ("${{ 'rm -rf' }} /data").
      return valueTexts(v.$template, this.items).forEach((t) => this.text(t, path, key.toLowerCase(), sure));
    }
    if (Array.isArray(v)) {
      const k = key.toLowerCase();
      if (COMMAND_KEYS.has(k) && v.length > 1 && v.every((x) => typeof x === "string") && (this.facts.shell || k === "argv" || k === "command" || k === "cmd")) {
        this.commands(argvEffects(v as string[]), path, this.facts.shell ? sure : "medium");
        return;
      }
      v.forEach((x, i) => this.visit(x, [...path, i], key, sure));
      return;
    }
    for (const [k, x] of Object.entries(v)) this.visit(x, [...path, k], k, sure);
  }

  private text(s: string, path: DocPath, key: string, sure: Confidence): void {
    if (s.length < 2) return;
    // (Of the methods a value may take, one per item, the one that does the most.)
    if (METHOD_KEYS.has(key) && path.length === 2 && methodRank(s) >= methodRank(this.method?.value ?? "")) this.method = { value: s.trim().toUpperCase(), path };
    if (METHOD_OVERRIDE_KEYS.has(key)) this.override = { value: s.trim().toUpperCase(), path, what: `${String(path[path.length - 1])}: ${s.trim().toUpperCase()}` };
    if (URL_KEYS.has(key)) {
      const p = METHOD_PARAM.exec(s);
      if (p) this.override = { value: p[1]!.toUpperCase(), path, what: `_method=${p[1]!.toUpperCase()}` };
    }
    const field = graphqlMutation(s);
    if (field !== undefined) this.mutation = { field, path };
    if (PROD_KEYS.has(key) && PRODUCTION.test(s)) {
      this.impacts.push({ impact: "production", reason: `"${shortValue(s)}" in ${quotePath(path)}`, path, confidence: PROD_KEYS_SURE.has(key) ? sure : "medium" });
    }
    if (PUBLIC_KEYS.has(key) && PUBLIC_VALUES.test(s.trim())) {
      this.impacts.push({ impact: "public", reason: `\`${key}: ${s.trim()}\` in ${quotePath(path)}`, path, confidence: sure });
    }
    const sqlContext: SqlContext | undefined =
      SQL_KEYS_STRONG.has(key) || this.facts.sql === "strong"
        ? "strong"
        : SQL_KEYS_WEAK.has(key) || this.facts.sql === "weak"
          ? "weak"
          : this.facts.llm || !startsUpper(s)
            ? undefined
            : "none";
    if (sqlContext !== undefined) {
      for (const e of sqlEffects(s, sqlContext)) {
        this.signals.push({ risk: e.risk, destructive: e.destructive, reason: `${e.what} in ${quotePath(path)}`, path, confidence: sqlContext === "none" ? "medium" : min(sure, "high") });
      }
    }
    const commandKey = COMMAND_KEYS.has(key);
    if (this.facts.shell || commandKey) {
      this.commands(commandEffects(s), path, this.facts.shell && commandKey ? sure : min(sure, "medium"));
    } else if (!this.facts.llm && startsLower(s) && s.includes(" ")) {
      const program = firstProgram(s);
      if (program !== undefined && COMMAND_PROGRAMS.has(program)) this.commands(commandEffects(s), path, min(sure, "medium"));
    }
  }

  private commands(effects: CommandEffect[], path: DocPath, confidence: Confidence): void {
    if (effects.length === 0) return;
    const where = quotePath(path);
    for (const e of effects) {
      this.signals.push({ risk: e.risk, destructive: e.destructive, reason: `${e.what} in ${where}`, path, confidence });
      if (e.production !== undefined) this.impacts.push({ impact: "production", reason: `${e.what} on "${shortValue(e.production)}" in ${where}`, path, confidence });
      if (e.public) this.impacts.push({ impact: "public", reason: `${e.what} in ${where}`, path, confidence });
    }
  }

  /** Facts that need the whole argument list: an HTTP method beside a URL, money beside an amount. */
  finish(): void {
    const http = this.facts.http || this.hasUrl;
    const o = this.override;
    const m = o ? { value: o.value, path: o.path } : this.method;
    if (m && /^(?:POST|PUT|PATCH|DELETE)$/.test(m.value) && http) {
      this.signals.push({
        risk: "external",
        destructive: m.value === "DELETE",
        reason: `\`${o ? o.what : `method: ${m.value}`}\` in \`${showPath(m.path)}\``,
        path: m.path,
        confidence: this.facts.http ? "high" : "medium",
      });
    }
    const g = this.mutation;
    if (g && http) {
      this.signals.push({
        risk: "external",
        destructive: DESTROYING_MUTATION.test(g.field),
        reason: `the GraphQL mutation \`${g.field}\` in \`${showPath(g.path)}\``,
        path: g.path,
        confidence: this.facts.http ? "high" : "medium",
      });
    }
    if (this.hasAmount && (this.hasCurrency || this.impacts.some((i) => i.impact === "payment"))) {
      this.impacts.push({ impact: "payment", reason: "an `amount` argument", path: ["with", "amount"], confidence: "medium" });
    }
  }
}

/** DELETE above the other methods that change something, those above the rest. */
function methodRank(method: string): number {
  const m = method.trim().toUpperCase();
  return m === "DELETE" ? 2 : /^(?:POST|PUT|PATCH)$/.test(m) ? 1 : 0;
}

/** One word of an argv as the plan gives it: a literal, or a stand-in word for what only the run knows. */
function argvWord(v: Value): string {
  if (typeof v === "string") return v;
  if (v !== null && typeof v === "object" && isTemplateValue(v)) return templateText(v.$template);
  if (v !== null && typeof v === "object" && isExprValue(v)) return constantText(v.$expr) ?? "X";
  return "X";
}

// Cheap first tests, run on every string argument of every step: outside a SQL or shell
// context only a string that opens with an upper-case word (a statement) or a lower-case
// word (a program) can be either.
function startsUpper(s: string): boolean {
  const c = s.charCodeAt(s.length > 0 && s.charCodeAt(0) <= 32 ? s.search(/\S/) : 0);
  return c >= 65 && c <= 90;
}

function startsLower(s: string): boolean {
  const c = s.charCodeAt(s.length > 0 && s.charCodeAt(0) <= 32 ? s.search(/\S/) : 0);
  return (c >= 97 && c <= 122) || c === 47;
}

function quotePath(path: DocPath): string {
  return `\`${showPath(path)}\``;
}

/** `with.sql`, `with.argv[2]`. */
export function showPath(path: DocPath): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${p}` : p;
  return out;
}

function shortValue(s: string): string {
  const t = s.trim().replace(/\s+/g, " ");
  return t.length > 40 ? `${t.slice(0, 37)}...` : t;
}

