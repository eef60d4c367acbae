/**
 * What a SQL text will do: comments, string literals and quoted identifiers are blanked
 * first (so `WHERE note = 'DROP TABLE x'` and `WHERE deleted = false` stay reads), then
 * each statement's leading verb (after a `WITH ... AS (...)` prefix, `PREPARE ... AS` or
 * `EXPLAIN ANALYZE`, inside parentheses) is classified, and so are the bodies of a WITH's
 * common table expressions (a data-modifying CTE writes though its statement is a SELECT).
 */
import type { Risk } from "../ir.js";
import { pushAll } from "../util/arrays.js";

export interface SqlEffect {
  risk: Risk;
  destructive: boolean;
  /** "`DROP TABLE`", "`DELETE FROM`", "`UPDATE`". */
  what: string;
  /** Runs statements the text holds in strings or a block (internal to sqlEffects). */
  dynamic?: boolean;
  /** A procedure named for a look-up: no effect unless the text holds a destructive statement (internal). */
  lookUp?: boolean;
}

/**
 * How sure the caller is that the text is SQL: `strong` (an argument named `sql`, a
 * database tool) reads any statement; `weak` (an argument named `query`) only a text that
 * starts with a statement and has SQL structure; `none` only an upper-case statement
 * with its object at the very start (`DROP TABLE x`, `DELETE FROM x`).
 */
export type SqlContext = "strong" | "weak" | "none";

const WRITE_VERBS: Record<string, { destructive: boolean; objects?: RegExp }> = {
  DROP: { destructive: true, objects: /^(?:TABLE|DATABASE|SCHEMA|VIEW|INDEX|USER|ROLE|MATERIALIZED|SEQUENCE|FUNCTION|TRIGGER|TYPE|EXTENSION|COLUMN|IF|OWNED|POLICY|PROCEDURE|ROUTINE|DOMAIN|TABLESPACE|PUBLICATION|SUBSCRIPTION|SERVER|RULE|EVENT|AGGREGATE|COLLATION|SYNONYM|PACKAGE|LOGIN|FOREIGN|KEYSPACE|STREAM|STAGE|WAREHOUSE)$/ },
  TRUNCATE: { destructive: true },
  DELETE: { destructive: true, objects: /^FROM$/ },
  UPDATE: { destructive: false },
  ALTER: { destructive: false, objects: /^(?:TABLE|DATABASE|SCHEMA|VIEW|INDEX|USER|ROLE|SEQUENCE|TYPE|SYSTEM)$/ },
  INSERT: { destructive: false, objects: /^(?:INTO|OVERWRITE)$/ },
  UPSERT: { destructive: false },
  REPLACE: { destructive: false, objects: /^INTO$/ },
  MERGE: { destructive: false, objects: /^INTO$/ },
  // `REASSIGN OWNED BY a TO b`: every object of a role handed to another.
  REASSIGN: { destructive: false, objects: /^OWNED$/ },
  GRANT: { destructive: false },
  REVOKE: { destructive: false },
  CREATE: { destructive: false },
  COPY: { destructive: false },
  // A procedure's effect is its body, which the text does not show: a reviewer reads a write
  // (destructive when its name says so: `CALL purge_old_claims()`).
  CALL: { destructive: false },
  EXEC: { destructive: false },
  EXECUTE: { destructive: false },
  // Maintenance that rewrites or locks tables: `VACUUM FULL`, `REINDEX`, `CLUSTER`.
  VACUUM: { destructive: false },
  REINDEX: { destructive: false },
  CLUSTER: { destructive: false },
  REFRESH: { destructive: false, objects: /^MATERIALIZED$/ },
  OPTIMIZE: { destructive: false, objects: /^TABLE$/ },
  RENAME: { destructive: false, objects: /^(?:TABLE|USER)$/ },
  LOAD: { destructive: false, objects: /^DATA$/ },
  LOCK: { destructive: false, objects: /^TABLES?$/ },
};

/**
 * Functions that change things though a SELECT calls them: by their name, or one that removes
 * (SQLite's `writefile`, `edit`, which opens an editor, `load_extension`, which runs a library's native code).
 */
const WRITING_NAMES = "pg_terminate_backend|pg_cancel_backend|lo_unlink|pg_drop_replication_slot|setval|pg_reload_conf|dblink_exec|writefile|edit|load_extension|\\w*(?:purge|delete|truncate|wipe|erase|destroy)\\w*";
const WRITING_FUNCTION = new RegExp(`\\b(${WRITING_NAMES})\\s*\\(`, "gi");
/** The cheap test for one, before the text is read: the name, a closing quote, a comment, then `(` (`"writefile"(`, `writefile/**\/(`). */
const WRITING_FUNCTION_CHEAP = new RegExp(`\\b(?:${WRITING_NAMES})["\`\\]]?\\s*(?:\\(|/\\*|--)`, "i");
/** A procedure named for removing things: `CALL purge_old_claims()`, `EXEC sp_delete_rows`. */
const REMOVING_NAME = /(?:^|[._])(?:purge|delete|drop|truncate|wipe|remove|erase|destroy|clean(?:up)?|reset)(?:[._]|$)|^(?:purge|delete|drop|truncate|wipe|remove|erase|destroy|cleanup|reset)/i;

/** A procedure's words (`dbo.sp_get_orders` -> sp, get, orders): the first (after `sp`/`usp`) a look-up, none a change. */
const LOOK_UP_FIRST = new Set(["get", "list", "fetch", "read", "count", "find", "search", "show", "lookup", "describe", "report", "select", "help", "helpdb", "helptext", "helpindex", "who", "spaceused", "columns", "tables", "stats", "check", "validate", "calc", "calculate", "compute", "explain", "view"]);
const CHANGE_WORD = /^(?:create|insert|update|upsert|set|add|save|write|put|merge|refresh|rebuild|load|import|sync|send|apply|grant|revoke|assign|close|cancel|approve|process|run|exec|execute|archive|move|copy|reset|purge|delete|drop|truncate|wipe|remove|erase|destroy|clean|cleanup|kill|pay|refund|charge|transfer|lock|unlock|enable|disable|rename|replace|restore|migrate|seed|fix|patch|backfill|generate|recalc|recalculate|recompute|schedule|queue|enqueue|notify|email|publish|rotate|expire|flush|commit|rollback|do|make|change|modify|edit|alter|register|reserve)$/;

function readingProcedure(name: string): boolean {
  const words = name.replace(/\(.*$/, "").split(/[.]/).pop()!.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  if (words[0] === "sp" || words[0] === "usp" || words[0] === "fn") words.shift();
  return words.length > 0 && LOOK_UP_FIRST.has(words[0]!) && !words.some((w) => CHANGE_WORD.test(w));
}

// Words that show a text is SQL and not prose that happens to start with "Update".
const STRUCTURE = /\b(?:WHERE|SET|VALUES|INTO|FROM|TABLE|CASCADE|ON|TO)\b|;/i;
// Outside a SQL argument a statement must open the text, in upper case.
export const UPPER_START = /^\s*(?:DROP|TRUNCATE|DELETE|UPDATE|ALTER|INSERT|UPSERT|REPLACE|MERGE|GRANT|REVOKE|CREATE|COPY|WITH)\b/;
const CHEAP = /\b(?:drop|truncate|delete|update|alter|insert|upsert|replace|merge|grant|revoke|create|copy|into|do)\b/i;
const CHEAP_STRONG = /\b(?:drop|truncate|delete|update|alter|insert|upsert|replace|merge|grant|revoke|create|copy|into|do|call|exec|execute|vacuum|reindex|cluster|refresh|optimize|rename|load|lock|pragma|reassign|gexec)\b/i;
/** Statements that only strong context reads: in a `query` argument or prose they are words ("call the API"). */
const STRONG_ONLY = new Set(["CALL", "EXEC", "EXECUTE", "VACUUM", "REINDEX", "CLUSTER", "REFRESH", "OPTIMIZE", "RENAME", "LOAD", "LOCK"]);
/** A destructive statement anywhere in a text, strings included (dynamic SQL: `EXECUTE 'DROP TABLE ' || t`). */
const DESTRUCTIVE_ANYWHERE = /\b(?:DROP\s+(?:TABLE|DATABASE|SCHEMA|VIEW|OWNED)|TRUNCATE|DELETE\s+FROM)\b/i;

/** The statements of `text` that write, with what they do. */
export function sqlEffects(text: string, context: SqlContext): SqlEffect[] {
  if (context === "none" ? !UPPER_START.test(text) : !(context === "strong" ? CHEAP_STRONG : CHEAP).test(text) && !(context === "strong" && WRITING_FUNCTION_CHEAP.test(text))) return [];
  const code = blank(context === "strong" ? literalStatements(text) : text);
  const out: SqlEffect[] = [];
  let first = true;
  for (const statement of code.split(";")) {
    const atStart = first;
    if (/[A-Za-z_]/.test(statement)) first = false;
    else continue;
    if (context !== "strong" && !atStart) break;
    pushAll(out, statementEffects(statement, context, 0));
  }
  // psql's `\gexec` runs each value the query returns as a statement: SQL the query builds.
  if (context === "strong" && /\\gexec\b/.test(code)) out.push({ risk: "write", destructive: false, what: "`\\gexec`", dynamic: true });
  // Dynamic SQL and code blocks run statements the blanking hid in strings: a destructive
  // one written anywhere in such a text makes their effect destructive (its pieces joined: `'DR' || 'OP TABLE t'`).
  if (context === "strong" && out.some((e) => e.dynamic) && DESTRUCTIVE_ANYWHERE.test(joinedLiterals(text))) for (const e of out) if (e.dynamic) e.destructive = true;
  // A statement built from pieces that are not literals (`EXECUTE chr(68) || 'ROP TABLE t'`, `PREPARE s FROM @q`): not shown.
  if (context === "strong" && out.some((e) => e.dynamic) && builtSql(text)) out.push({ risk: "write", destructive: true, what: "SQL built at run time (the plan does not show it)" });
  const kept = out.filter((e) => !e.lookUp || e.destructive);
  for (const e of kept) {
    delete e.dynamic;
    delete e.lookUp;
  }
  return kept;
}

/** Modifiers of `EXPLAIN ANALYZE`, which runs the statement it explains. */
const EXPLAIN_OPTIONS = /^(?:ANALY[SZ]E|VERBOSE|BUFFERS|COSTS|TIMING|SUMMARY|WAL|SETTINGS)$/i;

/** One statement (comments and literals blanked): its writes, including those a prefix or parentheses hide. */
function statementEffects(statement: string, context: SqlContext, depth: number): SqlEffect[] {
  const out: SqlEffect[] = [];
  // `(DELETE FROM users)`: a statement in parentheses is that statement.
  const inner = depth < 4 ? wholeGroup(statement) : undefined;
  if (inner !== undefined) return statementEffects(inner, context, depth + 1);
  const words = topLevelWords(statement);
  if (words.length === 0) return out;
  let k = 0;
  if (words[0]!.toUpperCase() === "WITH") {
    // A data-modifying CTE writes though the statement is a SELECT:
    // `WITH gone AS (DELETE FROM users RETURNING id) SELECT count(*) FROM gone`.
    if (context === "strong" && depth < 4) for (const body of cteBodies(statement)) pushAll(out, statementEffects(body, context, depth + 1));
    k = words.findIndex((w, j) => j > 0 && /^(?:SELECT|INSERT|UPDATE|DELETE|MERGE)$/i.test(w));
    if (k < 0) return out;
  }
  // `PREPARE name AS DELETE ...`: the statement a later EXECUTE runs.
  if (/^PREPARE$/i.test(words[k]!) && context === "strong") {
    const as = words.findIndex((w, j) => j > k && /^AS$/i.test(w));
    if (as < 0) return out;
    k = as + 1;
  }
  if (/^EXPLAIN$/i.test(words[k]!)) {
    // Plain EXPLAIN only plans; EXPLAIN ANALYZE runs the statement.
    if (!/^ANALY[SZ]E$/i.test(words[k + 1] ?? "")) return out;
    k++;
    while (k < words.length && EXPLAIN_OPTIONS.test(words[k]!)) k++;
  }
  const raw = words[k];
  if (raw === undefined) return out;
  const verb = raw.toUpperCase();
  const spec = WRITE_VERBS[verb];
  if (!spec) {
    // `SELECT ... INTO new_table` creates a table.
    if (verb === "SELECT" && words.some((w) => /^INTO$/i.test(w)) && context === "strong") out.push({ risk: "write", destructive: false, what: "`SELECT INTO`" });
    // `SELECT pg_terminate_backend(pid)`, `SELECT purge_old_rows()`: a function that changes things, called from a SELECT.
    if (verb === "SELECT" && context === "strong") for (const m of statement.matchAll(WRITING_FUNCTION)) {
      const name = m[1]!.toLowerCase();
      out.push({ risk: "write", destructive: !/^(?:setval|pg_reload_conf|dblink_exec|writefile|edit)$/.test(name), what: `\`SELECT ${name}()\``, ...(name === "dblink_exec" ? { dynamic: true } : {}) });
    }
    if (verb === "PRAGMA" && context === "strong") {
      const pragma = pragmaWrites(statement);
      if (pragma !== undefined) out.push({ risk: "write", destructive: false, what: `\`PRAGMA ${pragma}\`` });
    }
    // `DO $$ ... $$` runs a block of code whose statements were blanked with the quote.
    if (verb === "DO" && context === "strong") out.push({ risk: "write", destructive: false, what: "`DO` block", dynamic: true });
    return out;
  }
  if (STRONG_ONLY.has(verb)) {
    if (context !== "strong") return out;
    // `VACUUM` alone, `VACUUM ANALYZE`: routine upkeep that changes no data; FULL rewrites and locks the table;
    // SQLite's `VACUUM INTO 'copy.db'` writes a copy of the database to a file.
    const into = verb === "VACUUM" && words.some((w) => /^INTO$/i.test(w));
    if (verb === "VACUUM" && !into && !words.some((w) => /^FULL$/i.test(w))) return out;
    const name = words[k + 1] ?? "";
    const procedure = verb === "CALL" || verb === "EXEC" || verb === "EXECUTE";
    const shown = verb === "VACUUM" ? (into ? "VACUUM INTO" : "VACUUM FULL") : verb === "REFRESH" ? "REFRESH MATERIALIZED VIEW" : procedure ? `${verb} ${name}` : verb;
    // `CALL get_order_stats()`, `EXEC sp_helpdb`: a procedure named for a look-up, and for nothing
    // else, reads, unless the text hands it a destructive statement (`CALL get_x('DROP TABLE t')`).
    out.push({ risk: "write", destructive: procedure && REMOVING_NAME.test(name), what: `\`${shown}\``, ...(procedure ? { dynamic: true } : {}), ...(procedure && readingProcedure(name) ? { lookUp: true } : {}) });
    return out;
  }
  const next = words[k + 1];
  const hasObject = spec.objects === undefined || (next !== undefined && spec.objects.test(next.toUpperCase()));
  // Outside a SQL argument, only a statement that reads as SQL counts ("Update the docs" is prose).
  if (context !== "strong" && (!hasObject || !STRUCTURE.test(statement))) return out;
  if (context === "none" && (raw !== verb || (next !== undefined && spec.objects && next !== next.toUpperCase()))) return out;
  if (verb === "COPY") {
    // `COPY ... TO PROGRAM 'cmd'` / `FROM PROGRAM` runs a command on the database server.
    const program = words.findIndex((w, j) => j > k && /^PROGRAM$/i.test(w));
    if (program > 0) {
      out.push({ risk: "write", destructive: true, what: `\`COPY ... ${words[program - 1]!.toUpperCase()} PROGRAM\`` });
      return out;
    }
    // `COPY orders TO '/tmp/o.csv'` writes a file on the database server (`TO STDOUT` does not).
    if (/\bTO\s+''/i.test(statement)) {
      out.push({ risk: "write", destructive: false, what: "`COPY ... TO` a file" });
      return out;
    }
    if (!words.some((w) => /^FROM$/i.test(w))) return out;
  }
  const shown = spec.objects && next && hasObject && !/^IF$/i.test(next) ? `${verb} ${next.toUpperCase()}` : verb;
  // (ClickHouse's `ALTER TABLE t DELETE WHERE …` deletes rows; `MERGE … WHEN MATCHED THEN DELETE` too.)
  const removes = verb === "ALTER" || verb === "MERGE" ? words.find((w, j) => j > k && (verb === "ALTER" ? /^(?:DROP|DELETE)$/i : /^DELETE$/i).test(w)) : undefined;
  const dropsColumn = removes !== undefined;
  const wholeTable = verb === "UPDATE" && !words.some((w) => /^WHERE$/i.test(w));
  out.push({ risk: "write", destructive: spec.destructive || dropsColumn || wholeTable, what: `\`${shown}${removes !== undefined ? ` ... ${removes.toUpperCase()}` : ""}\`` });
  return out;
}

/**
 * SQLite's pragmas whose value is kept in the database file (`PRAGMA user_version = 3`,
 * `journal_mode=WAL`): set, they write it; asked for bare, they read.
 */
const PRAGMA_KEPT = new Set(["application_id", "auto_vacuum", "default_cache_size", "encoding", "journal_mode", "legacy_file_format", "page_size", "schema_version", "user_version", "writable_schema"]);
/** Pragmas that act on the database file whether given an argument or not (`PRAGMA optimize`, `wal_checkpoint(TRUNCATE)`). */
const PRAGMA_ACTS = new Set(["incremental_vacuum", "optimize", "wal_checkpoint"]);
/** `PRAGMA [schema.]name`, then `=` or `(` when it is given a value. */
const PRAGMA_STATEMENT = /^\s*PRAGMA\s+(?:\w+\s*\.\s*)?(\w+)\s*([=(])?/i;

/**
 * The pragma a `PRAGMA` statement writes the database with, or undefined: the connection's
 * own settings (`foreign_keys = ON`, `busy_timeout = 5000`) and look-ups (`table_info(t)`,
 * `integrity_check(10)`, a kept value asked for bare) change nothing in the file.
 */
function pragmaWrites(statement: string): string | undefined {
  const m = PRAGMA_STATEMENT.exec(statement);
  if (!m) return undefined;
  const name = m[1]!.toLowerCase();
  return PRAGMA_ACTS.has(name) || (PRAGMA_KEPT.has(name) && m[2] !== undefined) ? name : undefined;
}

/** The text inside the parentheses when `statement` is one parenthesised group, else undefined. */
function wholeGroup(statement: string): string | undefined {
  const t = statement.trim();
  if (!t.startsWith("(")) return undefined;
  const end = closing(t, 0);
  return end === t.length - 1 ? t.slice(1, end) : undefined;
}

/** The bodies of a WITH statement's common table expressions: `name AS (body)`, at the top level. */
function cteBodies(statement: string): string[] {
  const out: string[] = [];
  let depth = 0;
  for (let i = 0; i < statement.length; i++) {
    const c = statement[i];
    if (c === "(") {
      if (depth === 0 && /\bAS\s*(?:(?:NOT\s+)?MATERIALIZED\s*)?$/i.test(statement.slice(Math.max(0, i - 40), i))) {
        const end = closing(statement, i);
        if (end < 0) break;
        out.push(statement.slice(i + 1, end));
        i = end;
        continue;
      }
      depth++;
    } else if (c === ")") depth = Math.max(0, depth - 1);
  }
  return out;
}

/** The index of the parenthesis closing the one at `open`, or -1. */
export function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i;
  }
  return -1;
}

/**
 * Blanks comments, string literals, quoted identifiers and dollar-quoted bodies. An
 * identifier quoted that is only a name is that name (`PRAGMA "user_version" = 3`, SQLite's
 * `[user_version]`, `` `journal_mode` ``, `"writefile"(…)`), as the database reads it.
 */
function blank(text: string): string {
  // An unclosed comment runs to the end (each `/*` looking for its end would be quadratic).
  return blankDollarQuotes(text.replace(/--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g, " "))
    .replace(/'(?:[^']|'')*'?/g, "''")
    .replace(/"(\w+)"|"(?:[^"]|"")*"?/g, (_q, name?: string) => name ?? "x")
    .replace(/`(\w+)`|`[^`]*`?/g, (_q, name?: string) => name ?? "x")
    .replace(/(?<![\w\]])\[(\w+)\]/g, "$1");
}

/** The text with string literals joined by `||` or T-SQL's `+` written as one (`'DR' || 'OP TABLE t'` is `'DROP TABLE t'`). */
function joinedLiterals(text: string): string {
  return text.includes("||") || text.includes("+") ? text.replace(/'\s*(?:\|\||\+)\s*N?'/g, "") : text;
}

/**
 * The text with each statement given whole as a literal to EXEC or EXECUTE written as itself: `EXEC('SELECT 1')`,
 * `EXECUTE 'DELETE FROM t'`, `EXEC sp_executesql N'…'`, `EXEC('DR' + 'OP TABLE t')` (joined). Only a statement's own
 * EXEC: one inside a block (`DO $$ BEGIN EXECUTE '…'; END $$`) stays the block's.
 */
function literalStatements(text: string): string {
  if (!/\bEXEC/i.test(text)) return text;
  return joinedLiterals(text).replace(/(^|;)(\s*)EXEC(?:UTE)?\s*(?:sp_executesql\s+)?(\(\s*)?[NE]?'((?:[^']|'')*)'\s*(\))?\s*(?=;|$)/gi, (whole, lead: string, space: string, open?: string, body?: string, close?: string) =>
    (open === undefined) !== (close === undefined) ? whole : `${lead}${space}${body!.replace(/''/g, "'")}`,
  );
}

/**
 * Where dynamic SQL is handed its statement: PL/pgSQL's and T-SQL's EXECUTE, `EXEC(…)`, MySQL's `PREPARE s FROM`,
 * `sp_executesql` (group 1: EXEC or EXECUTE, whose word after it may be a name rather than a statement).
 */
const DYNAMIC_SITE = /\b(EXEC(?:UTE)?)\b\s*|\bPREPARE\s+\w+\s+FROM\s+|\bsp_executesql\s+/gi;
/** A literal (`'…'`, `N'…'`, `E'…'`) with those joined to it by `||` or `+`. */
const LEADING_LITERAL = /^[NE]?'(?:[^']|'')*'(?:\s*(?:\|\||\+)\s*[NE]?'(?:[^']|'')*')*\s*/i;

/**
 * Whether a dynamic statement in `text` is built from pieces the plan does not show: a function of them (`chr(68) ||
 * …`, `concat(…)`), a variable not assigned in the text, or a literal piece that does not start with a whole verb
 * (`'DR' || chr(79)`, `format('%s', …)`). `'SELECT ' || quote_ident(t)` and `format('ANALYZE %I', t)` show theirs.
 */
function builtSql(raw: string): boolean {
  const text = raw.replace(/--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g, " ");
  const bodies = [...text.matchAll(/\$[A-Za-z_]*\$/g)].map((m) => m.index);
  // (The `$$` marks before each site, counted once as the sites come in order.)
  let marks = 0;
  for (const m of text.matchAll(DYNAMIC_SITE)) {
    const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 2048);
    // At the top level `EXECUTE name(1)` runs a prepared statement, `EXEC sp_helpdb` a procedure; in a `$$` body (PL/pgSQL)
    // and with a parenthesis or a literal (`EXEC('…')`) the word is an expression.
    while (marks < bodies.length && bodies[marks]! < m.index) marks++;
    const inBody = marks % 2 === 1;
    if (m[1] !== undefined && !inBody && !/^[('"@]|^[NE]'/i.test(rest)) continue;
    if (builtExpression(text, m.index, rest, 0)) return true;
  }
  return false;
}

/** Whether the expression at the start of `rest` (a dynamic statement, at `at` in `text`) is built: see builtSql. */
function builtExpression(text: string, at: number, rest: string, depth: number): boolean {
  const expression = rest.replace(/^[\s(]+/, "");
  const format = /^format\s*\(\s*/i.exec(expression);
  const literal = LEADING_LITERAL.exec(format ? expression.slice(format[0].length) : expression);
  if (literal) {
    // (A literal alone is read where it stands, `'DR' || 'OP TABLE t'` joined; one continued by a piece that is not
    // a literal shows its statement when the literals start with a whole word.)
    const joined = [...literal[0].matchAll(/'((?:[^']|'')*)'/g)].map((p) => p[1]).join("");
    const continued = format !== null || /^(?:\|\||\+)/.test(expression.slice(literal[0].length));
    return continued && !/^\s*[A-Za-z]+\s/.test(joined);
  }
  const name = /^@?[A-Za-z_]\w*(?!\s*\()/.exec(expression)?.[0];
  if (name === undefined || depth > 1) return true;
  // `q text := 'SELECT 1'`, `SET @q = CONCAT(…)`, `DECLARE @s nvarchar(100) = 'DR' + …`: the value the variable was given.
  const before = text.slice(Math.max(0, at - 2048), at);
  const assigned = new RegExp(`(?:^|[\\s;(,])${name.replace(/[$@]/g, "\\$&")}\\b[\\w\\s()]*?(?::=|=)\\s*`, "i").exec(before);
  return assigned === null || builtExpression(before, assigned.index, before.slice(assigned.index + assigned[0].length), depth + 1);
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
