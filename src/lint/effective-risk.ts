/**
 * Effective risk: a step's risk is at least what it will do, not only what it is
 * labelled. One analysis per plan, shared by every risk rule through the rule context,
 * infers a floor for each step from its tools' catalogue annotations, names and
 * descriptions, and from the arguments it passes: shell commands, SQL statements, HTTP
 * methods. Every inference carries a reason, the argument's path and a confidence.
 * Linear in the plan: each tool is read once per distinct catalogue entry (cached
 * across plans), each `with` string once.
 */
import type { DocPath } from "../compiler/source.js";
import type { Confidence } from "../diagnostic.js";
import { type IRNode, type PlanIR, type Risk, type ToolSpec, type Value, isExprValue, isTemplateValue, maxRisk, riskRank } from "../ir.js";
import type { PlanGraph } from "./graph.js";
import { COMMAND_PROGRAMS, type CommandEffect, PRODUCTION, argvEffects, commandEffects, firstProgram } from "./risk-shell.js";
import { type SqlContext, sqlEffects } from "./risk-sql.js";
import { toolActions } from "./risk-words.js";

/** The blast radius classes that make a missing approval an error. */
export type Impact = "payment" | "production" | "public";

/** One thing a step will do that sets a floor on its risk. */
export interface RiskSignal {
  risk: Risk;
  destructive: boolean;
  /** What was seen and where, for messages: "`DROP TABLE` in `with.sql`". */
  reason: string;
  /** Below the step: `["with", "sql"]`, `["tool"]`. */
  path: DocPath;
  confidence: Confidence;
}

/** A sign of a high blast radius: money, production, the public. */
export interface ImpactSignal {
  impact: Impact;
  reason: string;
  path: DocPath;
  confidence: Confidence;
}

export interface StepRisk {
  /** What the plan states: the highest of the step's label, its tools' catalogue risk and its kind. */
  stated: Risk;
  /** `stated` raised by what the step will do. */
  risk: Risk;
  destructive: boolean;
  signals: readonly RiskSignal[];
  impacts: readonly ImpactSignal[];
}

const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };

/** The effective risk of every step of one plan, computed on first use. */
export class EffectiveRisk {
  private readonly steps = new Map<IRNode, StepRisk>();

  constructor(
    private readonly ir: PlanIR,
    private readonly graph: PlanGraph,
  ) {}

  of(node: IRNode): StepRisk {
    let s = this.steps.get(node);
    if (!s) this.steps.set(node, (s = analyseStep(node, this.ir, this.graph.effectiveRisk(node))));
    return s;
  }

  risk(node: IRNode): Risk {
    return this.of(node).risk;
  }

  /**
   * The strongest signal that lifts the step to `level` when what the plan states does
   * not reach it; undefined when the plan states it (or nothing lifts it).
   */
  cause(node: IRNode, level: Risk): RiskSignal | undefined {
    const s = this.of(node);
    if (riskRank(s.stated) >= riskRank(level)) return undefined;
    return strongest(s.signals.filter((g) => riskRank(g.risk) >= riskRank(level)));
  }

  /** How sure it is that the step reaches `level`: high when the plan states it. */
  confidence(node: IRNode, level: Risk): Confidence {
    const s = this.of(node);
    if (riskRank(s.stated) >= riskRank(level)) return "high";
    return this.cause(node, level)?.confidence ?? "low";
  }

  /** The strongest signal that the step destroys something. */
  destructiveCause(node: IRNode): RiskSignal | undefined {
    return strongest(this.of(node).signals.filter((g) => g.destructive));
  }

  /** The strongest sign of each blast radius class. */
  impact(node: IRNode, impact: Impact): ImpactSignal | undefined {
    return strongest(this.of(node).impacts.filter((i) => i.impact === impact));
  }
}

function strongest<T extends { confidence: Confidence; risk?: Risk }>(list: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const g of list) {
    if (!best || RANK[g.confidence] > RANK[best.confidence] || (RANK[g.confidence] === RANK[best.confidence] && g.risk !== undefined && best.risk !== undefined && riskRank(g.risk) > riskRank(best.risk))) best = g;
  }
  return best;
}

/** "What it is" for messages: a destructive write, a write, an external effect. */
export function describeRisk(risk: Risk, destructive: boolean): string {
  return risk === "external" ? (destructive ? "a destructive external effect" : "an external effect") : risk === "write" ? (destructive ? "a destructive write" : "a write") : "a read";
}

// ---------------------------------------------------------------------------------------
// Tools: what the catalogue entry says, once per distinct entry.

interface ToolFacts {
  shell: boolean;
  sql: SqlContext;
  http: boolean;
  llm: boolean;
  signals: Array<Omit<RiskSignal, "path"> & { impact?: Impact }>;
}

const SHELL_SEGMENTS = new Set(["shell", "sh", "bash", "zsh", "exec", "execute", "terminal", "cmd", "command", "commands", "subprocess", "ssh", "console", "powershell", "pwsh", "cli"]);
const SHELL_DESCRIPTION = /\b(?:shell|bash|terminal|command[- ]line|(?:run|runs|execute|executes) (?:a|an|the|any) (?:shell |diagnostic |arbitrary )?command)\b/i;
const SQL_STRONG = /\b(?:sql|postgres(?:ql)?|mysql|mariadb|sqlite|bigquery|snowflake|redshift|clickhouse|duckdb|mssql|oracle|database|warehouse)\b/i;
const SQL_SEGMENTS = new Set(["db", "sql", "database", "warehouse", "postgres", "pg", "mysql", "sqlite", "bigquery", "snowflake", "redshift", "duckdb"]);
const HTTP_SEGMENTS = new Set(["http", "https", "fetch", "request", "requests", "rest", "api", "webhook", "webhooks", "curl", "url", "graphql"]);
const HTTP_DESCRIPTION = /\b(?:HTTP|REST|webhook|API (?:call|request))\b/i;
const LLM = /\b(?:llm|gpt|claude|openai|anthropic|gemini|language model|the model|ai model|prompt|completion|chat model)\b/i;
const LLM_SEGMENTS = new Set(["llm", "ask", "complete", "completion", "model", "prompt", "gpt", "summarize", "summarise", "explain", "judge"]);

// Facts by catalogue entry object (steps of a plan share it), then by its content (plans
// of a corpus share catalogues but not objects).
const bySpec = new WeakMap<ToolSpec, { name: string; facts: ToolFacts }>();
const toolCache = new Map<string, Map<string, ToolFacts>>();
let cached = 0;
const NO_SPEC: ToolSpec = { risk: "read" };

function toolFacts(name: string, spec: ToolSpec | undefined): ToolFacts {
  const held = bySpec.get(spec ?? NO_SPEC);
  if (held && held.name === name) return held.facts;
  const facts = factsByContent(name, spec);
  bySpec.set(spec ?? NO_SPEC, { name, facts });
  return facts;
}

function factsByContent(name: string, spec: ToolSpec | undefined): ToolFacts {
  const a = spec?.annotations;
  // By name, then by description and hints: no key string is built per lookup.
  const key = a ? `${spec?.description ?? ""}\u0000${JSON.stringify(a)}` : (spec?.description ?? "");
  let byKey = toolCache.get(name);
  let facts = byKey?.get(key);
  if (facts) return facts;
  const segments = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const desc = spec?.description ?? "";
  const hasSegment = (set: ReadonlySet<string>) => segments.some((s) => set.has(s));
  facts = {
    shell: hasSegment(SHELL_SEGMENTS) || SHELL_DESCRIPTION.test(desc),
    sql: SQL_STRONG.test(`${segments.join(" ")} ${desc}`) ? "strong" : hasSegment(SQL_SEGMENTS) || segments.includes("query") ? "weak" : "none",
    http: hasSegment(HTTP_SEGMENTS) || HTTP_DESCRIPTION.test(desc),
    llm: hasSegment(LLM_SEGMENTS) || LLM.test(desc),
    signals: [],
  };
  if (a) {
    const tool = `of tool "${name}"`;
    if (a.destructiveHint === true && a.readOnlyHint !== true) {
      facts.signals.push({ risk: a.openWorldHint === true ? "external" : "write", destructive: true, reason: `the catalogue annotation \`destructiveHint: true\` ${tool}`, confidence: "high" });
    } else if (a.openWorldHint === true && a.readOnlyHint !== true) {
      facts.signals.push({ risk: "external", destructive: false, reason: `the catalogue annotation \`openWorldHint: true\` ${tool}`, confidence: "high" });
    } else if (a.readOnlyHint === false) {
      facts.signals.push({ risk: "write", destructive: false, reason: `the catalogue annotation \`readOnlyHint: false\` ${tool}`, confidence: "high" });
    }
  }
  // A catalogue that says read-only is a structural fact; a name is only a hint.
  for (const act of a?.readOnlyHint === true ? [] : toolActions(name, spec?.description)) {
    const reason = act.where === "id" ? `the word "${act.word}" in tool id "${name}"` : `the description of tool "${name}" ("${shorten(desc)}")`;
    const signal: ToolFacts["signals"][number] = { risk: act.risk, destructive: act.cls === "delete", reason, confidence: "medium" };
    // Booking a flight or ordering a taxi spends money as surely as a payment does.
    if (act.cls === "payment" || act.cls === "booking") signal.impact = "payment";
    else if (act.cls === "publish" && /^(?:publish|tweet|announce)/.test(act.word.toLowerCase())) signal.impact = "public";
    facts.signals.push(signal);
    break;
  }
  if (++cached > 10_000) {
    toolCache.clear();
    cached = 0;
    byKey = undefined;
  }
  if (!byKey) toolCache.set(name, (byKey = new Map()));
  byKey.set(key, facts);
  return facts;
}

function shorten(text: string): string {
  const t = text.trim();
  return t.length > 40 ? `${t.slice(0, 37)}...` : t;
}

// ---------------------------------------------------------------------------------------
// Steps: the tools' facts plus what the arguments say.

const COMMAND_KEYS = new Set(["command", "cmd", "commands", "script", "shell", "bash", "sh", "run", "exec", "argv", "cmdline", "command_line", "entrypoint"]);
const SQL_KEYS_STRONG = new Set(["sql", "statement", "statements", "stmt", "ddl", "dml", "migration", "queries"]);
const SQL_KEYS_WEAK = new Set(["query", "q"]);
const METHOD_KEYS = new Set(["method", "http_method", "verb"]);
const URL_KEYS = new Set(["url", "uri", "endpoint", "path", "href"]);
const PROD_KEYS = new Set(["env", "environment", "stage", "context", "kube_context", "cluster", "namespace", "target", "profile", "workspace", "project", "host", "hostname", "server", "url", "endpoint", "base_url", "database", "db", "dsn", "connection", "site", "account", "region"]);
const PROD_KEYS_SURE = new Set(["env", "environment", "stage"]);
const PUBLIC_KEYS = new Set(["visibility", "acl", "access", "audience", "privacy", "sharing"]);
const PUBLIC_VALUES = /^(?:public|public-read|public-read-write|everyone|anyone|world|all users)$/i;

function analyseStep(node: IRNode, ir: PlanIR, stated: Risk): StepRisk {
  const signals: RiskSignal[] = [];
  const impacts: ImpactSignal[] = [];
  if (node.allowedTools.length === 0) return { stated, risk: stated, destructive: false, signals, impacts };
  for (const name of node.allowedTools) {
    const facts = toolFacts(name, ir.tools[name]);
    const path: DocPath = name === node.tool ? ["tool"] : ["allowed_tools"];
    for (const s of facts.signals) {
      signals.push({ risk: s.risk, destructive: s.destructive, reason: s.reason, path, confidence: s.confidence });
      if (s.impact) impacts.push({ impact: s.impact, reason: s.reason, path, confidence: s.confidence });
    }
  }
  // Arguments only do something when a tool receives them (a phase's `with` is context).
  if (node.tool !== undefined && node.with && node.kind !== "phase") {
    const facts = toolFacts(node.tool, ir.tools[node.tool]);
    const args = new ArgumentScan(ir, facts, signals, impacts);
    for (const [key, value] of Object.entries(node.with)) args.visit(value, ["with", key], key, "high");
    args.finish();
  }
  let risk = stated;
  let destructive = false;
  for (const s of signals) {
    risk = maxRisk(risk, s.risk);
    destructive ||= s.destructive;
  }
  return { stated, risk, destructive, signals, impacts };
}

/** Walks a step's `with` once, reading each literal string in the light of its argument's name. */
class ArgumentScan {
  private hasUrl = false;
  private hasAmount = false;
  private hasCurrency = false;
  private method: { value: string; path: DocPath } | undefined;

  constructor(
    private readonly ir: PlanIR,
    private readonly facts: ToolFacts,
    private readonly signals: RiskSignal[],
    private readonly impacts: ImpactSignal[],
  ) {}

  visit(v: Value, path: Array<string | number>, key: string, sure: Confidence): void {
    if (path.length === 2) {
      const k = key.toLowerCase();
      this.hasUrl ||= URL_KEYS.has(k);
      this.hasAmount ||= k === "amount";
      this.hasCurrency ||= k === "currency";
    }
    if (typeof v === "string") return this.text(v, path, key.toLowerCase(), sure);
    if (v === null || typeof v !== "object") return;
    if (isExprValue(v)) {
      // `${{ inputs.env }}` with a default: the default is what runs unless the caller says otherwise.
      const m = /^\s*inputs\.([A-Za-z_][A-Za-z0-9_-]*)\s*$/.exec(v.$expr);
      const d = m ? this.ir.inputs[m[1]!]?.default : undefined;
      if (typeof d === "string") this.text(d, path, key.toLowerCase(), "medium");
      return;
    }
    if (isTemplateValue(v)) {
      // Literal parts joined by a stand-in word keep the command's shape: "rm -rf ${{ x }}".
      return this.text(v.$template.map((p) => (typeof p === "string" ? p : "X")).join(""), path, key.toLowerCase(), sure);
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
    if (METHOD_KEYS.has(key) && path.length === 2) this.method = { value: s.trim().toUpperCase(), path };
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
    const m = this.method;
    if (m && /^(?:POST|PUT|PATCH|DELETE)$/.test(m.value) && (this.facts.http || this.hasUrl)) {
      this.signals.push({
        risk: "external",
        destructive: m.value === "DELETE",
        reason: `\`method: ${m.value}\` in \`${showPath(m.path)}\``,
        path: m.path,
        confidence: this.facts.http ? "high" : "medium",
      });
    }
    if (this.hasAmount && (this.hasCurrency || this.impacts.some((i) => i.impact === "payment"))) {
      this.impacts.push({ impact: "payment", reason: "an `amount` argument", path: ["with", "amount"], confidence: "medium" });
    }
  }
}

function min(a: Confidence, b: Confidence): Confidence {
  return RANK[a] <= RANK[b] ? a : b;
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
