/**
 * User tools for specs/examples/csv-anomalies.plan.yaml, loaded with
 * `planspec run ... --tools specs/examples/tools/csv-tools.mjs`.
 *
 * The default export maps tool names to { risk, description, run(args, ctx) } (SPEC §5).
 * Rows arrive as the built-in csv.read returns them: objects keyed by the header, with
 * string values; each tool also accepts `{ rows: [...] }` so it can take a whole output.
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** The row list inside an argument: an array, or the `rows`/`records` of an object. */
function rowsOf(value, name) {
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object") {
    if (Array.isArray(value.rows)) return value.rows;
    if (Array.isArray(value.records)) return value.records;
  }
  throw new Error(`${name} must be a list of rows, got ${value === null ? "null" : typeof value}`);
}

const isBlank = (v) => v === undefined || v === null || String(v).trim() === "";

/** Data rows start on line 2 of the file (line 1 is the header). */
const lineOf = (index) => index + 2;

function validateFields(args) {
  const rows = rowsOf(args.rows, "rows");
  const required = Array.isArray(args.required) ? args.required : [];
  const maxBadRatio = typeof args.max_bad_ratio === "number" ? args.max_bad_ratio : 0.05;
  const header = rows.length > 0 ? Object.keys(rows[0]) : [];
  const missingColumns = required.filter((f) => !header.includes(f));
  const badRows = [];
  rows.forEach((row, i) => {
    const missing = required.filter((f) => isBlank(row[f]));
    const amount = row.amount;
    const notNumber = !isBlank(amount) && !Number.isFinite(Number(amount));
    if (missing.length > 0 || notNumber) {
      badRows.push({ line: lineOf(i), order_id: row.order_id ?? null, missing, ...(notNumber ? { bad_amount: amount } : {}) });
    }
  });
  const usable = rows.length > 0 && missingColumns.length === 0 && badRows.length <= rows.length * maxBadRatio;
  return { checked: rows.length, usable, missing_columns: missingColumns, bad_rows: badRows };
}

const RULES = {
  negative_amount: (row) => Number(row.amount) < 0,
  time_inversion: (row) => Date.parse(row.shipped_at) < Date.parse(row.ordered_at),
};

function filterRows(args) {
  const rows = rowsOf(args.rows, "rows");
  const rules = Array.isArray(args.rules) ? args.rules : Object.keys(RULES).concat("duplicate_order_id");
  for (const r of rules) {
    if (!(r in RULES) && r !== "duplicate_order_id") throw new Error(`unknown rule "${r}"`);
  }
  const idField = typeof args.id_field === "string" ? args.id_field : "order_id";
  const firstLine = new Map();
  const found = [];
  rows.forEach((row, i) => {
    const reasons = rules.filter((r) => r !== "duplicate_order_id" && RULES[r](row));
    const id = row[idField];
    if (rules.includes("duplicate_order_id") && !isBlank(id)) {
      if (firstLine.has(id)) reasons.push("duplicate_order_id");
      else firstLine.set(id, lineOf(i));
    }
    if (reasons.length > 0) {
      const entry = { line: lineOf(i), ...row, reasons };
      if (reasons.includes("duplicate_order_id")) entry.first_seen_line = firstLine.get(id);
      found.push(entry);
    }
  });
  return { total: rows.length, count: found.length, rows: found };
}

function groupStats(args) {
  const anomalies = rowsOf(args.anomalies, "anomalies");
  const total = typeof args.total === "number" ? args.total : null;
  const byRule = {};
  const byCustomer = {};
  for (const a of anomalies) {
    for (const r of a.reasons ?? []) byRule[r] = (byRule[r] ?? 0) + 1;
    const c = isBlank(a.customer) ? "(none)" : a.customer;
    byCustomer[c] = (byCustomer[c] ?? 0) + 1;
  }
  const ruleLines = Object.entries(byRule)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([r, n]) => `- ${r}: ${n}`);
  const table = [
    "| line | order_id | customer | amount | ordered_at | shipped_at | reasons |",
    "|---:|---|---|---:|---|---|---|",
    ...anomalies.map(
      (a) =>
        `| ${a.line} | ${a.order_id ?? ""} | ${a.customer ?? ""} | ${a.amount ?? ""} | ${a.ordered_at ?? ""} | ${a.shipped_at ?? ""} | ${(a.reasons ?? []).join(", ")} |`,
    ),
  ].join("\n");
  return {
    total_rows: total,
    anomaly_count: anomalies.length,
    anomaly_rate: total ? Math.round((anomalies.length / total) * 10000) / 100 : null,
    by_rule: byRule,
    by_customer: byCustomer,
    by_rule_text: ruleLines.join("\n") || "- none",
    table,
  };
}

/**
 * "Sends" an email by appending it to outbox/emails.jsonl in the workspace. The runtime
 * already skips a step whose idempotency key is recorded; the outbox checks the key too,
 * because a real mail API would (SES, Postmark and SendGrid accept an idempotency key).
 */
function sendEmail(args, ctx) {
  if (isBlank(args.to)) throw new Error("send_email needs `to`");
  const outbox = resolve(ctx.workspace ?? process.cwd(), typeof args.outbox === "string" ? args.outbox : "outbox/emails.jsonl");
  const key = ctx.idempotencyKey ?? null;
  let lines = [];
  try {
    lines = readFileSync(outbox, "utf8").split("\n").filter(Boolean);
  } catch (err) {
    if (err.code !== "ENOENT") throw err;
  }
  const previous = key === null ? undefined : lines.map((l) => JSON.parse(l)).find((m) => m.idempotency_key === key);
  if (previous) return { sent: true, duplicate: true, message_id: previous.message_id, to: previous.to };
  const message = {
    message_id: `msg-${lines.length + 1}`,
    idempotency_key: key,
    run_id: ctx.runId ?? null,
    to: args.to,
    subject: String(args.subject ?? ""),
    body: String(args.body ?? ""),
    attachments: Array.isArray(args.attachments) ? args.attachments : [],
  };
  mkdirSync(dirname(outbox), { recursive: true });
  appendFileSync(outbox, JSON.stringify(message) + "\n");
  return { sent: true, duplicate: false, message_id: message.message_id, to: message.to };
}

export default {
  validate_fields: {
    risk: "read",
    description: "Check that every row has the required fields and a numeric amount; usable when few rows are bad",
    run: (args) => validateFields(args),
  },
  filter_rows: {
    risk: "read",
    description: "Keep the rows that break a rule: negative_amount, time_inversion, duplicate_order_id",
    run: (args) => filterRows(args),
  },
  group_stats: {
    risk: "read",
    description: "Count anomalies by rule and customer and render them as a Markdown table",
    run: (args) => groupStats(args),
  },
  send_email: {
    risk: "external",
    description: "Send an email (appends to outbox/emails.jsonl in the workspace, once per idempotency key)",
    run: (args, ctx) => sendEmail(args, ctx),
  },
};
