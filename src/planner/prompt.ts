/**
 * The planner's prompt: what planspec is, the DSL rules that matter most, the tool
 * catalogue with risks, the templates, the lint rules (id + description) and one
 * example plan in JSON form. The catalogue is shown, not asked back: the planner
 * attaches it to the document itself.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { rules } from "../lint/rules/index.js";
import { type Catalog, type TemplateInfo, catalogEntries } from "./catalog.js";

const EXAMPLE = new URL("../../specs/examples/csv-anomalies.plan.yaml", import.meta.url);

const DSL_RULES = `Rules of the DSL (JSON form of the YAML DSL):
- Top level: planspec (always 1), name (kebab-case), goal, deliverables (output names the goal promises), complexity (simple | moderate | complex), inputs, limits, defaults, hypotheses, steps. Do not write "tools" or "templates": they are attached for you.
- steps is a map from step id (letters, digits, _) to a step. Each step has kind (read, search, analyze, decide, verify, write, external, approval, summarize, phase) and a one-sentence goal.
- needs lists the step ids that must finish first (the DAG edges). No cycles.
- tool names one tool of the catalogue; allowed_tools lists the tools an agentic step may call. Only catalogue tools exist.
- risk is read < write < external; it must be at least the highest risk of the step's tools.
- with holds arguments; strings may contain expressions \${{ ... }} referring to inputs.<name>, steps.<id>.output.<path> (only of steps it needs, directly or transitively), run.id, and inside success/repeat.until: output.<path>.
- output names the step's result; deliverables must be produced by some step's output.
- success is a list of criteria, each exactly one of: check (an expression over output), evidence (a list of steps.<id> references whose outputs must exist), judge (a sentence for a judge).
- A write or external step must consume the output of an earlier read, search or verify step (write-without-evidence).
- An external step needs idempotency_key (an expression such as "\${{ run.id }}:notify") and an approval gate ({ required: true, approvers: [...], timeout: 24h }).
- Bound everything: repeat needs max_attempts, for_each needs max_items, retry needs max_attempts; set limits (run_timeout like 30m, max_tool_calls) and defaults.timeout.
- A kind: phase step (expand: planner, max_steps: N) stands for work refined later from the run's state.
- Durations look like 500ms, 30s, 2m, 24h.`;

/** The example plan as the model should write it: JSON, without the tools it would not write. */
export function examplePlanJson(): string {
  const data = parse(readFileSync(EXAMPLE, "utf8")) as Record<string, unknown>;
  delete data.tools;
  delete data.$schema;
  return JSON.stringify(data);
}

function catalogSection(catalog: Catalog): string {
  const lines = catalogEntries(catalog).map((t) => `- ${t.name} (risk: ${t.risk})${t.description ? `: ${t.description}` : ""}`);
  const imports = catalog.tools.import;
  if (imports !== undefined) lines.push(`- (plus the tools of the imported catalogues ${JSON.stringify(imports)})`);
  return `The tool catalogue (use only these tools):\n${lines.join("\n")}`;
}

function templateSection(templates: readonly TemplateInfo[]): string {
  if (!templates.length) return "There are no templates: write every step yourself.";
  const lines = templates.map((t) => {
    const params = Object.entries(t.params)
      .map(([k, p]) => `${k}: ${p.type ?? "any"}${p.default !== undefined ? " (optional)" : ""}`)
      .join(", ");
    return `- ${t.name}${t.description ? `: ${t.description}` : ""} — params { ${params} }; expands to steps ${t.steps.join(", ")}`;
  });
  return `Standard templates (prefer them for the work they cover; write a step as { "uses": "<template>", "with": { params }, "needs": [...] }):\n${lines.join("\n")}`;
}

function rulesSection(): string {
  const lines = rules.map((r) => `- ${r.id} (${r.meta.defaultSeverity}): ${r.meta.description}`);
  return `The plan is compiled and linted; any error sends it back to you. The lint rules:\n${lines.join("\n")}`;
}

/** The system prompt for planning a goal with this catalogue and these templates. */
export function systemPrompt(catalog: Catalog, templates: readonly TemplateInfo[]): string {
  return [
    "You are the planner of planspec, a toolchain that treats AI-agent task plans as checked programs: a plan is a DAG of typed steps that call catalogued tools, with explicit risks, success criteria and bounds. Your answer is compiled and linted exactly like a hand-written plan, then run by a resumable runtime.",
    "Answer with one plan document in the DSL's JSON form, matching the given JSON Schema. No prose.",
    DSL_RULES,
    catalogSection(catalog),
    templateSection(templates),
    rulesSection(),
    `An example plan in JSON form (its tools came from another catalogue):\n${examplePlanJson()}`,
  ].join("\n\n");
}

/** The first user message: the goal, and for candidates which one this is. */
export function goalMessage(goal: string, candidate: number, candidates: number): string {
  const which =
    candidates > 1
      ? `\n\nThis is candidate ${candidate + 1} of ${candidates}: plans are compared on risk, tool calls and assumptions, so prefer the least risky plan that still reaches the goal${candidate > 0 ? ", and take a different approach from the obvious one" : ""}.`
      : "";
  return `Plan this goal:\n${goal}${which}`;
}

/** The repair message: what was wrong with the last answer, as diagnostics with source frames. */
export function repairMessage(feedback: string, round: number, maxRepairs: number): string {
  return `Your plan was rejected (repair ${round} of ${maxRepairs}). Fix every error below and answer with the complete corrected plan document (JSON, same schema). Positions refer to the plan rendered as YAML.\n\n${feedback}`;
}

/** The system prompt for expanding one step of a running plan into sub-steps. */
export function refinementSystemPrompt(toolLines: string): string {
  return [
    "You are the planner of planspec, refining one step of a plan that is already running into concrete sub-steps. The sub-steps become a template instance inside the plan; the revised plan is compiled and linted against the original (goal drift, unsafe revision) before the run continues.",
    "Answer with one JSON object { \"steps\": { ... } } matching the given JSON Schema. No prose.",
    DSL_RULES.replace('Do not write "tools" or "templates": they are attached for you.', "Here you write only steps."),
    `The tool catalogue (use only these tools):\n${toolLines}`,
    rulesSection(),
  ].join("\n\n");
}
