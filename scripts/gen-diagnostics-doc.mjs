// Generates docs/diagnostics.md from the catalogue and the golden cases (after `npm run build`):
//   node scripts/gen-diagnostics-doc.mjs > docs/diagnostics.md
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
const root = fileURLToPath(new URL("..", import.meta.url));
const { catalogue } = await import(`${root}dist/compiler/diagnostics.js`);
const err = `${root}specs/compile/err`;
const examples = {};
for (const f of readdirSync(err).filter((f) => f.endsWith(".out")).sort()) {
  for (const line of readFileSync(`${err}/${f}`, "utf8").split("\n")) {
    const m = /\[(PS\d+)\]$/.exec(line);
    if (m && !examples[m[1]]) examples[m[1]] = { line, file: f.replace(/\.out$/, ".plan.yaml") };
  }
}
const why = {
  PS100: "The file could not be read (missing, a directory, no permission). Exit code 2.",
  PS101: "The YAML or JSON does not parse. Exit code 2. The position is where the parser gave up.",
  PS102: "YAML and JSON silently keep the last of two equal keys; in a plan that hides a mistake, so it is an error.",
  PS103: "A key the DSL requires is absent: a plan needs planspec, name, goal and steps; a step needs kind and goal (or uses).",
  PS104: "The DSL has no such key. Unknown keys are errors so that typos (`kindd`, `need`) never pass silently. The hint names the closest key.",
  PS105: "The value has the wrong type (a string where a list is expected, ...).",
  PS106: "The value is not one of the allowed words (kind, risk, complexity, backoff ...).",
  PS107: "The value does not have the required form: plan and template names are kebab-case; step ids, inputs and outputs are identifiers (letters, digits, `_`), so that `steps.<id>.output` reads unambiguously.",
  PS108: "A number or size is out of range (`max_attempts: 0`, an empty goal, a success criterion with two keys).",
  PS109: "`planspec:` names a DSL version this compiler does not read.",
  PS110: "Durations are a number and a unit: `500ms`, `30s`, `2m`, `24h`, `1d`.",
  PS111: "`needs` names a step that does not exist. The hint names the closest id.",
  PS112: "A step cannot wait for itself.",
  PS113: "The needs form a cycle, printed as its path; no order can satisfy it.",
  PS114: "A step's `tool` or `allowed_tools` names a tool missing from the catalogue (inline or imported). The risk of an unknown tool cannot be checked.",
  PS115: "`assumes` names a hypothesis that the plan does not declare.",
  PS116: "Two steps store their result under one output name; references would be ambiguous.",
  PS117: "An imported catalogue or template file cannot be read. Paths are relative to the importing file.",
  PS118: "`tools: { import }` names a file that is not a tool catalogue (`planspec: 1` and a `tools:` map).",
  PS119: "`uses` names a template that no `templates:` import provides.",
  PS120: "Templates that use each other would expand forever; the path shows the cycle.",
  PS121: "A template parameter without a default was not given in `with`.",
  PS122: "`with` on a template use gives a parameter the template does not declare.",
  PS123: "A template parameter's value does not have the declared type (expressions are checked at run time).",
  PS124: "The `${{ }}` expression does not parse; the column points at the offending token.",
  PS125: "Expressions may call len, exists, contains, startsWith, endsWith, lower, upper, join, keys, toJSON and fromJSON.",
  PS126: "A function got the wrong number of arguments.",
  PS127: "A step reads the output of a step that is not among its (transitive) needs, so it could run before the value exists. Add the step to needs.",
  PS128: "An expression names a step that does not exist. Steps expanded from a template are read as `steps[\"instance.step\"]`.",
  PS129: "`inputs.x` names an input the plan does not declare.",
  PS130: "The step declares an `output_schema`, and the path read from its output is not in it.",
  PS131: "`output` is the step's own result, so it exists only in success checks and `repeat.until`.",
  PS132: "`item` is the current element of `for_each`; elsewhere it has no value.",
  PS133: "The expression names something that does not exist at run time.",
  PS134: "A step's output is read, but the step declares no `output:` name to store it under.",
  PS135: "`evidence` entries are references to outputs in the trace (`steps.read_csv` or `steps.read_csv.output.rows`), not expressions.",
  PS136: "A step that `uses` a template is replaced by the template's steps; its own kind, tool, etc. would be lost.",
  PS137: "`output_schema` must be a valid JSON Schema (draft-07).",
  PS138: "A plan with no steps does nothing.",
  PS139: "The file is not the kind of document expected here (a catalogue imported as a template, a list at the top level, ...).",
  PS140: "A `${{` has no closing `}}`.",
  PS141: "`$expr` and `$template` are how the IR stores compiled expressions, so `with` cannot use them as literal keys.",
  PS142: "An input's default does not have the input's declared type.",
  PS143: "A hypothesis's `verify_by` names a step that does not exist.",
  PS144: "A `kind: phase` step needs `expand: planner` or `expand: <template>`; `expand` and `max_steps` mean nothing on other kinds.",
  PS145: "A step's expression reads `steps.<its own id>`: its result does not exist before it runs. TaskBench plans that pass a node its own output (`<node-i>` in node i) hit this.",
  PS150: "`planspec validate`: the IR does not match `schemas/plan-ir.schema.json`.",
  PS151: "`planspec validate`: the IR breaks an invariant the compiler guarantees (unique ids, resolved needs/tools/hypotheses, acyclic, topological order, matching planHash).",
};
let md = `# Compiler diagnostics\n\nEvery problem the compiler finds is a diagnostic with a code from this catalogue (\`src/compiler/diagnostics.ts\`), a position and a message:\n\n\`\`\`\nfile:line:col: message [PS1xx]\n\`\`\`\n\nThe compiler reports every problem it can find in one run; it rejects only what has no meaning (unknown keys, wrong types, dangling ids, cycles, bad expressions). Whether a well-formed plan is *safe* is the linter's job (\`docs/rules.md\`). Exit codes: 0 compiled, 1 errors, 2 unreadable or unparseable input (PS100, PS101).\n\nEach code below has a golden case in \`specs/compile/err/\` that the tests re-run.\n`;
for (const [code, { title }] of Object.entries(catalogue)) {
  md += `\n## ${code}\n\n**${title}** — ${why[code] ?? ""}\n`;
  const ex = examples[code];
  if (ex) md += `\nExample (\`specs/compile/err/${ex.file}\`):\n\n\`\`\`\n${ex.line}\n\`\`\`\n`;
}
process.stdout.write(md);
