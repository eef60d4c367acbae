/**
 * Synthetic plans for the compile benchmark: a deterministic, realistic mix of step kinds,
 * tools, `needs` on 1–3 earlier steps, `with` arguments holding `${{ steps.X.output }}`
 * expressions and success criteria. Written as hand-style YAML and as the JSON form.
 */

/** A small seeded PRNG (mulberry32), so every run benchmarks the same plans. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOOLS = {
  "fs.read": { risk: "read", description: "Read a file from the workspace" },
  "fs.list": { risk: "read", description: "List files matching a glob" },
  "code.search": { risk: "read", description: "Search the code base with a regular expression" },
  "csv.read": { risk: "read", description: "Parse a CSV file into records" },
  "http.get": { risk: "read", description: "Fetch a URL" },
  "stats.group": { risk: "read", description: "Group records and count them" },
  "llm.complete": { risk: "read", description: "Ask a language model" },
  "tests.run": { risk: "read", description: "Run the test suite and report failures" },
  "fs.write": { risk: "write", description: "Write a file in the workspace" },
  "report.render": { risk: "write", description: "Render a Markdown report" },
  "email.send": { risk: "external", description: "Send an email" },
};

/** kind, weight, tools it may call. */
const KINDS = [
  ["read", 22, ["fs.read", "csv.read", "http.get"]],
  ["search", 10, ["code.search", "fs.list"]],
  ["analyze", 30, ["stats.group", "llm.complete"]],
  ["verify", 12, ["tests.run"]],
  ["decide", 5, ["llm.complete"]],
  ["summarize", 6, ["llm.complete"]],
  ["write", 12, ["fs.write", "report.render"]],
  ["external", 3, ["email.send"]],
];
const TOTAL_WEIGHT = KINDS.reduce((s, k) => s + k[1], 0);

const GOALS = {
  read: "Read the input records and confirm they parse",
  search: "Find the files that define the behaviour under change",
  analyze: "Group the records by customer and count anomalies",
  verify: "Run the tests and confirm the change holds",
  decide: "Decide whether the anomalies need a follow-up",
  summarize: "Summarise the findings for the report",
  write: "Write the report section from the verified figures",
  external: "Send the report to the recipient",
};

const id = (i) => `step_${String(i).padStart(5, "0")}`;

/** Builds the plan document (the DSL's data model) with `n` steps. */
export function generatePlan(n, seed = 42) {
  const r = rng(seed);
  const pick = (arr) => arr[Math.floor(r() * arr.length)];
  const steps = {};
  for (let i = 0; i < n; i++) {
    // The first step is a read so every later write has evidence to cite.
    let w = r() * TOTAL_WEIGHT;
    let kindRow = KINDS[0];
    if (i > 0) for (const k of KINDS) if ((w -= k[1]) < 0) { kindRow = k; break; }
    const [kind, , tools] = kindRow;
    const step = { kind, goal: `${GOALS[kind]} (part ${i})` };
    const needs = [];
    if (i > 0) {
      // Mostly local dependencies (a recent step), sometimes a long edge back.
      const count = 1 + Math.floor(r() * Math.min(3, i));
      while (needs.length < count) {
        const back = r() < 0.8 ? 1 + Math.floor(r() * Math.min(20, i)) : 1 + Math.floor(r() * i);
        const dep = id(i - back);
        if (!needs.includes(dep)) needs.push(dep);
      }
      step.needs = needs;
    }
    step.tool = pick(tools);
    const args = {};
    needs.forEach((dep, j) => (args[`in${j}`] = j === 0 && r() < 0.3 ? `\${{ steps.${dep}.output.records }}` : `\${{ steps.${dep}.output }}`));
    if (kind === "read" || kind === "search") args.path = r() < 0.5 ? "${{ inputs.data_dir }}" : `data/part-${i}.csv`;
    args.limit = 100 + (i % 7) * 50;
    step.with = args;
    step.output = `out_${i}`;
    if (kind === "write" || kind === "external") {
      step.risk = TOOLS[step.tool].risk;
      step.success = [{ evidence: needs.slice(0, 2).map((d) => `steps.${d}`) }];
    } else if (r() < 0.85) {
      step.success = [{ check: r() < 0.5 ? "${{ len(output.records) > 0 }}" : "${{ exists(output.count) && output.count >= 0 }}" }];
    }
    if (kind === "external") {
      step.approval = { required: true, approvers: ["ops-lead"], timeout: "24h" };
      step.idempotency_key = `\${{ run.id }}:send:${i}`;
    }
    steps[id(i)] = step;
  }
  return {
    planspec: 1,
    name: `bench-${n}-steps`,
    goal: "Read the order data, find anomalous orders, verify the figures and publish a report.",
    deliverables: [`out_${n - 1}`],
    complexity: "complex",
    inputs: { data_dir: { type: "string", default: "data/" } },
    tools: TOOLS,
    limits: { run_timeout: "24h", max_tool_calls: n * 3, max_steps: n + 10 },
    defaults: { retry: { max_attempts: 3, backoff: "exponential", initial_delay: "1s", max_delay: "30s" }, timeout: "2m" },
    steps,
  };
}

/** YAML scalar: plain when safe, else double-quoted (expressions always are, as people write them). */
function scalar(v) {
  if (typeof v !== "string") return String(v);
  return /^[A-Za-z0-9_./ ()-]+$/.test(v) && !/^(true|false|null|yes|no|~)$/i.test(v) && !/^[\d.]+$/.test(v) ? v : JSON.stringify(v);
}

function flow(v) {
  if (Array.isArray(v)) return `[${v.map(flow).join(", ")}]`;
  if (v && typeof v === "object") return `{ ${Object.entries(v).map(([k, x]) => `${k}: ${flow(x)}`).join(", ")} }`;
  return scalar(v);
}

/** Renders the plan as YAML in the style of the hand-written examples (block maps, flow leaves). */
export function toYaml(plan) {
  const out = ["# yaml-language-server: $schema=../../schemas/planspec.schema.json"];
  for (const [k, v] of Object.entries(plan)) {
    if (k === "steps") continue;
    if (v && typeof v === "object" && !Array.isArray(v)) {
      out.push(`${k}:`);
      for (const [k2, v2] of Object.entries(v)) out.push(`  ${JSON.stringify(k2).includes(".") ? JSON.stringify(k2) : k2}: ${flow(v2)}`);
    } else out.push(`${k}: ${flow(v)}`);
  }
  out.push("steps:");
  for (const [sid, s] of Object.entries(plan.steps)) {
    out.push(`  ${sid}:`);
    for (const [k, v] of Object.entries(s)) {
      if (k === "with" || k === "success") {
        out.push(`    ${k}:`);
        if (k === "with") for (const [a, x] of Object.entries(v)) out.push(`      ${a}: ${flow(x)}`);
        else for (const c of v) out.push(`      - ${flow(c).replace(/^\{ | \}$/g, "")}`);
      } else out.push(`    ${k}: ${flow(v)}`);
    }
  }
  return out.join("\n") + "\n";
}

/** The JSON form, as the importer writes it. */
export function toJson(plan) {
  return JSON.stringify(plan, null, 2) + "\n";
}
