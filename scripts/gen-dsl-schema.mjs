// Generates schemas/planspec.schema.json (the DSL schema); run `node scripts/gen-dsl-schema.mjs > schemas/planspec.schema.json`.
const dur = { $ref: "#/definitions/duration" };
const str = (description, extra = {}) => ({ type: "string", description, ...extra });
const strList = (description) => ({ type: "array", items: { type: "string", minLength: 1 }, description });
const posInt = (description) => ({ type: "integer", minimum: 1, description });
const ext = { "^x-": { description: "Extension keys (e.g. x-planspec-disable) are ignored by the compiler." } };
const risk = { type: "string", enum: ["read", "write", "external"], description: "read < write < external" };
const toolSpec = {
  type: "object",
  additionalProperties: false,
  required: ["risk"],
  properties: {
    risk,
    description: str("What the tool does."),
    input_schema: { type: "object", description: "JSON Schema of the tool's arguments." },
    output_schema: { type: "object", description: "JSON Schema of the tool's result." },
    input_types: strList("Resource types the tool takes, by argument position (e.g. [text, image]); a producer of another type feeding it is a wiring error."),
    output_types: strList("Resource types the tool returns (e.g. [video])."),
    annotations: {
      type: "object",
      additionalProperties: false,
      description: "Behaviour hints (MCP tool annotations); lint treats a declared risk below them as under-labelled.",
      properties: {
        readOnlyHint: { type: "boolean", description: "The tool does not modify its environment." },
        destructiveHint: { type: "boolean", description: "The tool may perform destructive updates." },
        idempotentHint: { type: "boolean", description: "Calling it again with the same arguments has no further effect." },
        openWorldHint: { type: "boolean", description: "The tool interacts with entities outside the plan's own world (the internet, other people)." },
      },
    },
  },
};
const toolsMap = {
  type: "object",
  description: "The tool catalogue: name -> { risk, description }. `import` names catalogue files (relative to this file).",
  properties: {
    import: { anyOf: [{ type: "string", minLength: 1 }, strList("Catalogue files to import.")], description: "Catalogue file(s) to import, relative to this file." },
  },
  propertyNames: { minLength: 1 },
  additionalProperties: { $ref: "#/definitions/tool" },
};
const strMap = (description) => ({ type: "object", description, additionalProperties: { type: "string" } });
const mcpServer = {
  description: "An MCP server: a stdio command, or a Streamable HTTP url. Its tools are named <server>.<tool> and catalogued with `planspec import mcp`.",
  oneOf: [
    {
      type: "object",
      additionalProperties: false,
      required: ["command"],
      properties: {
        command: str("The program that speaks MCP on stdin/stdout (found on PATH, or relative to cwd).", { minLength: 1 }),
        args: { type: "array", items: { type: "string" }, description: "Its arguments." },
        env: strMap("Environment variables set for it (on top of PATH, HOME and the like); ${NAME} takes a variable listed in secrets."),
        cwd: str("The directory it starts in, relative to this file (default: this file's directory).", { minLength: 1 }),
      },
    },
    {
      type: "object",
      additionalProperties: false,
      required: ["url"],
      properties: {
        url: str("The server's Streamable HTTP endpoint (http:// or https://).", { pattern: "^https?://" }),
        headers: strMap("HTTP headers sent with every request; ${NAME} takes a variable listed in secrets."),
      },
    },
  ],
};
/** A map of named, typed values: plan inputs and template parameters share one shape. */
const typedValues = (description, extra = {}) => ({
  type: "object",
  description,
  propertyNames: { $ref: "#/definitions/identifier" },
  additionalProperties: {
    type: "object",
    additionalProperties: false,
    required: ["type"],
    properties: {
      type: { type: "string", enum: ["string", "number", "integer", "boolean", "array", "object"] },
      description: { type: "string" },
      default: {},
      ...extra,
    },
  },
});
const envName = { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" };
const retry = {
  type: "object",
  additionalProperties: false,
  properties: {
    max_attempts: posInt("Attempts in all, including the first."),
    backoff: { type: "string", enum: ["none", "fixed", "exponential"] },
    initial_delay: dur,
    max_delay: dur,
  },
};
const defaults = {
  type: "object",
  additionalProperties: false,
  description: "Defaults merged into every step.",
  properties: { retry, timeout: dur },
};
const hypotheses = {
  type: "object",
  description: "Hypotheses to verify before steps that assume them.",
  propertyNames: { $ref: "#/definitions/identifier" },
  additionalProperties: {
    type: "object",
    additionalProperties: false,
    required: ["statement", "verify_by"],
    properties: { statement: str("The claim, in one sentence.", { minLength: 1 }), verify_by: strList("Steps that verify it.") },
  },
};
const criterion = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
  description: "Exactly one of check, evidence, judge.",
  properties: {
    check: str("A deterministic expression over `output`: ${{ output.rows > 0 }}", { minLength: 1 }),
    evidence: strList("References to outputs that must be in the trace: steps.<id>[.output.<path>]"),
    judge: str("A semantic criterion, decided by a judge tool or a person.", { minLength: 1 }),
  },
};
const step = {
  type: "object",
  additionalProperties: false,
  if: { required: ["uses"] },
  then: {},
  else: { required: ["kind", "goal"] },
  properties: {
    kind: { type: "string", enum: ["read", "search", "analyze", "decide", "verify", "write", "external", "approval", "summarize", "phase"], description: "What sort of step this is." },
    goal: str("What the step does, in one sentence.", { minLength: 1 }),
    needs: { anyOf: [{ type: "string", minLength: 1 }, strList("")], description: "Steps that must be done (or skipped) first." },
    tool: str("The tool the step calls.", { minLength: 1 }),
    allowed_tools: strList("Tools an agentic step may call."),
    risk: { ...risk, description: "read < write < external; inferred from the tools when omitted." },
    with: { type: "object", description: "Arguments (or template parameters with `uses`); strings may hold ${{ expr }}." },
    output: { $ref: "#/definitions/identifier", description: "The name the result is stored under." },
    output_schema: { type: "object", description: "JSON Schema of the output; expression paths into it are checked." },
    success: { type: "array", items: criterion, description: "Success criteria evaluated after the step." },
    when: str("An expression; false makes the step skipped.", { minLength: 1 }),
    retry,
    timeout: dur,
    repeat: {
      type: "object",
      additionalProperties: false,
      required: ["until"],
      properties: {
        until: str("Expression over `output`; the step repeats until it is true.", { minLength: 1 }),
        max_attempts: posInt("Bound on repetitions."),
        delay: { ...dur, description: "Wait between attempts (a poll interval), e.g. 30s." },
      },
    },
    for_each: {
      type: "object",
      additionalProperties: false,
      required: ["items"],
      properties: {
        items: str("Expression giving the list; each element is `item`.", { minLength: 1 }),
        max_items: posInt("Bound on the number of items."),
        concurrency: posInt("Items run at once."),
      },
    },
    approval: {
      type: "object",
      additionalProperties: false,
      required: ["required"],
      properties: { required: { type: "boolean" }, approvers: strList("Who may approve."), timeout: dur },
    },
    idempotency_key: str("Expression for the side effect's key; a recorded key is never executed twice.", { minLength: 1 }),
    assumes: strList("Hypotheses this step relies on."),
    uses: str("A template to expand here; `with` gives its parameters.", { minLength: 1 }),
    expand: str("On kind: phase — `planner` or a template name.", { minLength: 1 }),
    max_steps: posInt("On kind: phase — bound on the steps the expansion may add."),
  },
};
const common = {
  $schema: { type: "string", description: "The JSON Schema editors should use for this file." },
  planspec: { description: "The DSL version.", enum: [1] },
  tools: toolsMap,
  templates: strList("Template files to import, relative to this file."),
  defaults,
  hypotheses,
  steps: {
    type: "object",
    description: "The steps: the key is the step id.",
    propertyNames: { $ref: "#/definitions/identifier" },
    additionalProperties: { $ref: "#/definitions/step" },
  },
};
const plan = {
  type: "object",
  additionalProperties: false,
  patternProperties: ext,
  required: ["planspec", "name", "goal", "steps"],
  properties: {
    ...common,
    name: { type: "string", pattern: "^[a-z0-9]+(-[a-z0-9]+)*$", description: "kebab-case plan name." },
    goal: str("What the plan achieves.", { minLength: 1 }),
    deliverables: strList("Output names the goal promises."),
    complexity: { type: "string", enum: ["simple", "moderate", "complex"] },
    inputs: typedValues("Run inputs: name -> { type, description?, default?, secret?, env? }.", {
      secret: { type: "boolean", description: "A secret: scrubbed from everything the run writes and prints, kept only as a fingerprint; resume needs it again." },
      env: { ...envName, description: "An environment variable the value is read from when no --input gives it." },
    }),
    secrets: {
      type: "array",
      uniqueItems: true,
      items: envName,
      description: "Environment variables the plan reads as ${{ secrets.NAME }} (and the only ones ${NAME} in mcp: may send); their values are scrubbed from everything the run writes and prints.",
    },
    limits: {
      type: "object",
      additionalProperties: false,
      description: "Run-level termination conditions.",
      properties: { run_timeout: dur, max_tool_calls: posInt("Bound on tool calls in a run."), max_steps: posInt("Bound on steps (over-planning).") },
    },
    mcp: {
      type: "object",
      description: "MCP servers the plan's tools come from: name -> { command, args?, env?, cwd? } or { url, headers? }.",
      propertyNames: { $ref: "#/definitions/identifier" },
      additionalProperties: { $ref: "#/definitions/mcpServer" },
    },
  },
};
const template = {
  type: "object",
  additionalProperties: false,
  patternProperties: ext,
  required: ["planspec", "template", "steps"],
  properties: {
    ...common,
    template: { type: "string", pattern: "^[a-z0-9]+(-[a-z0-9]+)*$", description: "kebab-case template name." },
    description: { type: "string" },
    params: typedValues("Template parameters: name -> { type, description?, default? }."),
  },
};
const catalog = {
  type: "object",
  additionalProperties: false,
  patternProperties: ext,
  required: ["planspec", "tools"],
  properties: {
    $schema: common.$schema,
    planspec: common.planspec,
    description: { type: "string" },
    tools: { type: "object", propertyNames: { minLength: 1 }, additionalProperties: { $ref: "#/definitions/tool" } },
  },
};
const schema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://planspec.dev/schemas/planspec.schema.json",
  title: "planspec plan, template or tool catalogue",
  if: { type: "object", required: ["template"] },
  then: { $ref: "#/definitions/template" },
  else: { if: { type: "object", required: ["steps"] }, then: { $ref: "#/definitions/plan" }, else: { $ref: "#/definitions/catalog" } },
  definitions: {
    plan,
    template,
    catalog,
    step,
    tool: toolSpec,
    mcpServer,
    identifier: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
    duration: { type: "string", pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$", description: "500ms, 30s, 2m, 24h" },
  },
};
process.stdout.write(JSON.stringify(schema, null, 2) + "\n");
