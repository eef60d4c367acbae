/**
 * What a SQL text will do: comments, string literals and quoted identifiers are blanked
 * first (so `WHERE note = 'DROP TABLE x'` and `WHERE deleted = false` stay reads), then
 * each statement's leading verb (after a `WITH ... AS (...)` prefix) is classified.
 */
import type { Risk } from "../ir.js";

export interface SqlEffect {
  risk: Risk;
  destructive: boolean;
  /** "`DROP TABLE`", "`DELETE FROM`", "`UPDATE`". */
  what: string;
}

/**
 * How sure the caller is that the text is SQL: `strong` (an argument named `sql`, a
 * database tool) reads any statement; `weak` (an argument named `query`) only a text that
 * starts with a statement and has SQL structure; `none` only an upper-case statement
 * with its object at the very start (`DROP TABLE x`, `DELETE FROM x`).
 */
export type SqlContext = "strong" | "weak" | "none";

const WRITE_VERBS: Record<string, { destructive: boolean; objects?: RegExp }> = {
  DROP: { destructive: true, objects: /^(?:TABLE|DATABASE|SCHEMA|VIEW|INDEX|USER|ROLE|MATERIALIZED|SEQUENCE|FUNCTION|TRIGGER|TYPE|EXTENSION|COLUMN|IF)$/ },
  TRUNCATE: { destructive: true },
  DELETE: { destructive: true, objects: /^FROM$/ },
  UPDATE: { destructive: false },
  ALTER: { destructive: false, objects: /^(?:TABLE|DATABASE|SCHEMA|VIEW|INDEX|USER|ROLE|SEQUENCE|TYPE|SYSTEM)$/ },
  INSERT: { destructive: false, objects: /^(?:INTO|OVERWRITE)$/ },
  UPSERT: { destructive: false },
  REPLACE: { destructive: false, objects: /^INTO$/ },
  MERGE: { destructive: false, objects: /^INTO$/ },
  GRANT: { destructive: false },
  REVOKE: { destructive: false },
  CREATE: { destructive: false },
  COPY: { destructive: false },
};

// Words that show a text is SQL and not prose that happens to start with "Update".
const STRUCTURE = /\b(?:WHERE|SET|VALUES|INTO|FROM|TABLE|CASCADE|ON|TO)\b|;/i;
// Outside a SQL argument a statement must open the text, in upper case.
export const UPPER_START = /^\s*(?:DROP|TRUNCATE|DELETE|UPDATE|ALTER|INSERT|UPSERT|REPLACE|MERGE|GRANT|REVOKE|CREATE|COPY|WITH)\b/;
const CHEAP = /\b(?:drop|truncate|delete|update|alter|insert|upsert|replace|merge|grant|revoke|create|copy)\b/i;

/** The statements of `text` that write, with what they do. */
export function sqlEffects(text: string, context: SqlContext): SqlEffect[] {
  if (context === "none" ? !UPPER_START.test(text) : !CHEAP.test(text)) return [];
  const code = blank(text);
  const out: SqlEffect[] = [];
  let first = true;
  for (const statement of code.split(";")) {
    const words = topLevelWords(statement);
    const atStart = first;
    if (words.length) first = false;
    if (words.length === 0) continue;
    if (context !== "strong" && !atStart) break;
    let k = 0;
    if (words[0]!.toUpperCase() === "WITH") {
      k = words.findIndex((w, j) => j > 0 && /^(?:SELECT|INSERT|UPDATE|DELETE|MERGE)$/i.test(w));
      if (k < 0) continue;
    }
    if (/^EXPLAIN$/i.test(words[k]!) && !/^ANALY[SZ]E$/i.test(words[k + 1] ?? "")) continue;
    const raw = words[k]!;
    const verb = raw.toUpperCase();
    const spec = WRITE_VERBS[verb];
    if (!spec) {
      // `SELECT ... INTO new_table` creates a table.
      if (verb === "SELECT" && words.some((w) => /^INTO$/i.test(w)) && context === "strong") out.push({ risk: "write", destructive: false, what: "`SELECT INTO`" });
      continue;
    }
    const next = words[k + 1];
    const hasObject = spec.objects === undefined || (next !== undefined && spec.objects.test(next.toUpperCase()));
    // Outside a SQL argument, only a statement that reads as SQL counts ("Update the docs" is prose).
    if (context !== "strong" && (!hasObject || !STRUCTURE.test(statement))) continue;
    if (context === "none" && (raw !== verb || (next !== undefined && spec.objects && next !== next.toUpperCase()))) continue;
    if (verb === "COPY" && !words.some((w) => /^FROM$/i.test(w))) continue;
    const shown = spec.objects && next && hasObject && !/^IF$/i.test(next) ? `${verb} ${next.toUpperCase()}` : verb;
    const dropsColumn = verb === "ALTER" && words.some((w, j) => /^DROP$/i.test(w) && j > k);
    const wholeTable = verb === "UPDATE" && !words.some((w) => /^WHERE$/i.test(w));
    out.push({ risk: "write", destructive: spec.destructive || dropsColumn || wholeTable, what: `\`${shown}${dropsColumn ? " ... DROP" : ""}\`` });
  }
  return out;
}

/** Blanks comments, string literals, quoted identifiers and dollar-quoted bodies. */
function blank(text: string): string {
  return blankDollarQuotes(text.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, " "))
    .replace(/'(?:[^']|'')*'?/g, "''")
    .replace(/"(?:[^"]|"")*"?/g, "x")
    .replace(/`[^`]*`?/g, "x");
}

/** Blanks `$tag$ ... $tag$` bodies in one pass (a backreference regex is quadratic on many `$`). */
function blankDollarQuotes(text: string): string {
  if (!text.includes("$")) return text;
  const open = /\$[A-Za-z_]*\$/g;
  let out = "";
  let from = 0;
  for (let m = open.exec(text); m; m = open.exec(text)) {
    const close = text.indexOf(m[0], m.index + m[0].length);
    // An unclosed quote runs to the end of the text.
    const end = close < 0 ? text.length : close + m[0].length;
    out += `${text.slice(from, m.index)}''`;
    from = end;
    open.lastIndex = end;
    if (close < 0) break;
  }
  return out + text.slice(from);
}

/** Words outside parentheses (a sub-select does not make the statement a SELECT). */
function topLevelWords(statement: string): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const m of statement.matchAll(/[()]|[A-Za-z_][A-Za-z0-9_.]*/g)) {
    const t = m[0];
    if (t === "(") depth++;
    else if (t === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) out.push(t);
  }
  return out;
}
