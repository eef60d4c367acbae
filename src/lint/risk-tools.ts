/**
 * What a tool's catalogue entry says it is (a shell, a SQL client, an HTTP client, a
 * model) and does (annotations, the verb in its name or description), read once per
 * distinct entry and cached across the plans of a corpus.
 */
import type { Confidence } from "../diagnostic.js";
import type { Risk, ToolSpec } from "../ir.js";
import type { Impact } from "./effective-risk.js";
import type { SqlContext } from "./risk-sql.js";
import { toolActions } from "./risk-words.js";

/** What a step's arguments mean depends on the tool that receives them. */
export interface ToolFacts {
  shell: boolean;
  sql: SqlContext;
  http: boolean;
  llm: boolean;
  signals: Array<{ risk: Risk; destructive: boolean; reason: string; confidence: Confidence; impact?: Impact }>;
}

const SHELL_SEGMENTS = new Set(["shell", "sh", "bash", "zsh", "exec", "execute", "terminal", "cmd", "command", "commands", "subprocess", "ssh", "console", "powershell", "pwsh", "cli"]);
const SHELL_DESCRIPTION = /\b(?:shell|bash|terminal|command[- ]line|(?:run|runs|execute|executes) (?:a|an|the|any) (?:shell |diagnostic |arbitrary )?command)\b/i;
const SQL_STRONG = /\b(?:sql|postgres(?:ql)?|mysql|mariadb|sqlite|bigquery|snowflake|redshift|clickhouse|duckdb|mssql|oracle|database|warehouse)\b/i;
const SQL_SEGMENTS = new Set(["db", "sql", "database", "warehouse", "postgres", "pg", "mysql", "sqlite", "bigquery", "snowflake", "redshift", "duckdb"]);
const HTTP_SEGMENTS = new Set(["http", "https", "fetch", "request", "requests", "rest", "api", "webhook", "webhooks", "curl", "url", "graphql"]);
const HTTP_DESCRIPTION = /\b(?:HTTP|REST|webhook|API (?:call|request))\b/i;
const LLM = /\b(?:llm|gpt|claude|openai|anthropic|gemini|language model|the model|ai model|prompt|completion|chat model)\b/i;
const LLM_SEGMENTS = new Set(["llm", "ask", "complete", "completion", "model", "prompt", "gpt", "summarize", "summarise", "explain", "judge"]);

// Facts by tool name, then by the entry's description and hints, compared as strings:
// the plans of a corpus share catalogues but not objects, and a WeakMap entry or a key
// string per lookup costs more than the comparison.
interface Cached {
  description: string;
  hints: string;
  facts: ToolFacts;
}
const toolCache = new Map<string, Cached[]>();
let cached = 0;

export function toolFacts(name: string, spec: ToolSpec | undefined): ToolFacts {
  const a = spec?.annotations;
  const description = spec?.description ?? "";
  const hints = a ? JSON.stringify(a) : "";
  const list = toolCache.get(name);
  if (list) for (const c of list) if (c.description === description && c.hints === hints) return c.facts;
  const facts = readFacts(name, spec);
  if (++cached > 10_000) {
    toolCache.clear();
    cached = 0;
  }
  const entry = { description, hints, facts };
  const again = toolCache.get(name);
  if (again) again.push(entry);
  else toolCache.set(name, [entry]);
  return facts;
}

function readFacts(name: string, spec: ToolSpec | undefined): ToolFacts {
  const a = spec?.annotations;
  let facts: ToolFacts;
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
  return facts;
}

function shorten(text: string): string {
  const t = text.trim();
  return t.length > 40 ? `${t.slice(0, 37)}...` : t;
}

