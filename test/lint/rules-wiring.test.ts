/** Rules that check a step's arguments against the tool catalogue: input_schema and resource types. */
import { rule as toolArgumentMismatch } from "../../src/lint/rules/tool-argument-mismatch.js";
import { rule as wiringTypeMismatch } from "../../src/lint/rules/wiring-type-mismatch.js";
import { stepsBlock, testRule } from "./rules-tester.js";

/** A plan whose steps start on line 3 (as `plan()` does), with a catalogue that has schemas and types. */
function wired(steps: string): string {
  return [
    "planspec: 1",
    "steps:",
    stepsBlock(steps),
    "name: wiring-case",
    "goal: Stabilise the clip found for the query and caption it.",
    "inputs: { query: { type: string }, queries: { type: array, default: [] }, limit: { type: integer, default: 5 }, strict: { type: boolean, default: true } }",
    "tools:",
    "  db.query:",
    "    risk: read",
    "    input_schema: { type: object, required: [sql], additionalProperties: false, properties: { sql: { type: string }, limit: { type: integer }, params: { type: array } } }",
    "  text.search: { risk: read, input_types: [text], output_types: [text] }",
    "  video.search: { risk: read, input_types: [text], output_types: [video] }",
    "  video.stabilize: { risk: read, input_types: [video], output_types: [video] }",
    "  video.caption:",
    "    risk: read",
    "    input_types: [video, text]",
    "    output_types: [video]",
    "    input_schema: { type: object, properties: { clip: {}, caption: {} } }",
    "limits: { run_timeout: 10m, max_tool_calls: 50 }",
    "",
  ].join("\n");
}

testRule(toolArgumentMismatch, {
  valid: [
    wired(`q: { kind: read, goal: Count the orders, tool: db.query, with: { sql: "select 1", limit: 3 } }`),
    { name: "expressions of known and unknown type", code: wired(`q: { kind: read, needs: [q0], goal: Count the orders, tool: db.query, with: { sql: "select \${{ inputs.query }}", limit: "\${{ inputs.limit }}", params: "\${{ steps.q0.output.rows }}" } }\nq0: { kind: read, goal: Count the users, tool: db.query, with: { sql: "select 2" }, output: users }`) },
    { name: "positional args matching input_types", code: wired(`s: { kind: search, goal: Search the clips, tool: video.search, with: { args: ["\${{ inputs.query }}"] } }`) },
  ],
  invalid: [
    {
      name: "a missing required argument",
      code: wired(`q: { kind: read, goal: Count the orders, tool: db.query, with: { limit: 3 } }`),
      errors: [{ messageId: "missing", line: 3, column: 66 }],
    },
    {
      name: "an unknown argument, at its value",
      code: wired(`q: { kind: read, goal: Count the orders, tool: db.query, with: { sql: "select 1", limt: 3 } }`),
      errors: [{ messageId: "unknown", line: 3, column: 91 }],
    },
    {
      name: "a literal of the wrong type, and an input of the wrong type",
      code: wired(`q: { kind: read, goal: Count the orders, tool: db.query, with: { sql: 42, limit: "\${{ inputs.strict }}" } }`),
      errors: [
        { messageId: "type", line: 3, column: 73 },
        { messageId: "type", line: 3, column: 84 },
      ],
    },
    {
      name: "the wrong number of positional arguments",
      code: wired(`s: { kind: search, goal: Search the clips, tool: video.search, with: { args: ["cats", "dogs"] } }`),
      errors: [{ messageId: "arity", line: 3, column: 80 }],
    },
  ],
});

testRule(wiringTypeMismatch, {
  valid: [
    wired(`
      find: { kind: search, goal: Find the clip, tool: video.search, with: { args: ["\${{ inputs.query }}"] }, output: clip }
      fix: { kind: analyze, needs: [find], goal: Stabilise the clip, tool: video.stabilize, with: { args: ["\${{ steps.find.output }}"] } }
    `),
    {
      name: "a for_each producer hands over a list, of no declared resource type",
      code: wired(`
        find: { kind: search, goal: Find the clips, tool: text.search, for_each: { items: "\${{ inputs.queries }}", max_items: 5 }, with: { args: ["\${{ item }}"] }, output: clips }
        fix: { kind: analyze, needs: [find], goal: Stabilise the clips, tool: video.stabilize, with: { args: ["\${{ steps.find.output }}"] } }
      `),
    },
    {
      name: "a path into the output has no declared type",
      code: wired(`
        find: { kind: search, goal: Find the clip, tool: text.search, with: { args: ["\${{ inputs.query }}"] }, output: clip }
        fix: { kind: analyze, needs: [find], goal: Stabilise the clip, tool: video.stabilize, with: { args: ["\${{ steps.find.output.url }}"] } }
      `),
    },
  ],
  invalid: [
    {
      name: "Text Search into Video Stabilizer",
      code: wired(`
        find: { kind: search, goal: Find the clip, tool: text.search, with: { args: ["\${{ inputs.query }}"] }, output: clip }
        fix: { kind: analyze, needs: [find], goal: Stabilise the clip, tool: video.stabilize, with: { args: ["\${{ steps.find.output }}"] } }
      `),
      errors: [{ messageId: "mismatch", line: 4, column: 104 }],
    },
    {
      name: "named arguments take their position from input_schema",
      code: wired(`
        find: { kind: search, goal: Find the clip, tool: video.search, with: { args: ["\${{ inputs.query }}"] }, output: clip }
        cap: { kind: analyze, needs: [find], goal: Caption the clip, tool: video.caption, with: { clip: "\${{ steps.find.output }}", caption: "\${{ steps.find.output }}" } }
      `),
      errors: [{ messageId: "mismatch", line: 4, column: 136 }],
    },
  ],
});
