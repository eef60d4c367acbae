/** Rules about what flows between steps: outputs, inputs, deliverables, duplicates, shape. */
import { rule as deepChain } from "../../src/lint/rules/deep-chain.js";
import { rule as duplicateStep } from "../../src/lint/rules/duplicate-step.js";
import { rule as missingDeliverable } from "../../src/lint/rules/missing-deliverable.js";
import { rule as phaseWithoutBounds } from "../../src/lint/rules/phase-without-bounds.js";
import { rule as redundantDependency } from "../../src/lint/rules/redundant-dependency.js";
import { rule as summaryWithoutEvidence } from "../../src/lint/rules/summary-without-evidence.js";
import { rule as unusedInput } from "../../src/lint/rules/unused-input.js";
import { rule as unusedOutput } from "../../src/lint/rules/unused-output.js";
import { rule as writeWithoutVerification } from "../../src/lint/rules/write-without-verification.js";
import { plan, testRule } from "./rules-tester.js";

const readAndExplain = (extra = "") =>
  plan(
    `
    read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
    explain: { kind: analyze, needs: [read_client], goal: Explain the retry loop of the client, tool: llm.ask, output: explanation }
  `,
    extra,
  );

testRule(unusedOutput, {
  valid: [readAndExplain("deliverables: [explanation]")],
  invalid: [{ code: readAndExplain(), errors: [{ messageId: "unused", line: 4, column: 118 }] }],
});

testRule(missingDeliverable, {
  valid: [readAndExplain("deliverables: [explanation]")],
  invalid: [
    {
      code: readAndExplain("deliverables: [explanation, patch]"),
      errors: [{ messageId: "missing", line: 10, column: 29 }],
    },
  ],
});

testRule(unusedInput, {
  valid: [
    plan(
      `
      read_client: { kind: read, goal: Read the login client source, tool: fs.read, with: { path: "\${{ inputs['client_path'] }}" } }
    `,
      "inputs: { client_path: { type: string } }",
    ),
  ],
  invalid: [
    {
      name: "a string that only mentions the input does not read it",
      code: plan(
        `
        read_client: { kind: read, goal: Read the login client source, tool: fs.read, with: { path: "\${{ 'inputs.client_path' }}" } }
      `,
        "inputs: { client_path: { type: string } }",
      ),
      errors: [{ messageId: "unused", line: 9, column: 24 }],
    },
  ],
});

testRule(duplicateStep, {
  valid: [
    plan(`
      read_a: { kind: read, goal: Read the login client source, tool: fs.read, with: { path: src/login.ts } }
      read_b: { kind: read, goal: Read the login client tests, tool: fs.read, with: { path: test/login.test.ts } }
    `),
  ],
  invalid: [
    {
      name: "same tool, same arguments written differently",
      code: plan(`
        read_a:
          kind: read
          goal: Read the login client source
          tool: fs.read
          with: { path: src/login.ts, encoding: utf8 }
        read_b:
          kind: read
          goal: Read the client source again
          tool: fs.read
          with:
            encoding: " utf8"
            path: src/login.ts
      `),
      errors: [{ messageId: "duplicate", line: 13, column: 7 }],
    },
  ],
});

testRule(redundantDependency, {
  valid: [
    {
      name: "an implied need the step reads from stays",
      code: plan(`
        read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
        explain: { kind: analyze, needs: [read_client], goal: Explain the retry loop of the client, tool: llm.ask, output: why }
        patch: { kind: write, needs: [read_client, explain], goal: Patch the retry loop as explained, tool: fs.write, with: { src: "\${{ steps.read_client.output }}", why: "\${{ steps.explain.output }}" } }
      `),
    },
  ],
  invalid: [
    {
      code: plan(`
        read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
        explain: { kind: analyze, needs: [read_client], goal: Explain the retry loop of the client, tool: llm.ask, output: why }
        patch:
          kind: write
          needs: [read_client, explain]
          goal: Patch the retry loop as explained
          tool: fs.write
          with: { why: "\${{ steps.explain.output }}" }
      `),
      errors: [{ messageId: "redundant", line: 7, column: 13 }],
    },
  ],
});

const chain = (n: number) =>
  plan(
    Array.from({ length: n }, (_, i) =>
      i === 0
        ? `s0: { kind: read, goal: Read the login client source, tool: fs.read, output: o0 }`
        : `s${i}: { kind: analyze, needs: [s${i - 1}], goal: Refine the retry analysis further, tool: llm.ask, output: o${i} }`,
    ).join("\n"),
  );

testRule(deepChain, {
  valid: [chain(15), { name: "the depth is an option", code: chain(6), options: { maxDepth: 6 } }],
  invalid: [
    { code: chain(16), errors: [{ messageId: "tooDeep", line: 18, column: 3 }] },
    { name: "a lower threshold", code: chain(4), options: { maxDepth: 3 }, errors: [{ messageId: "tooDeep", line: 6, column: 3 }] },
  ],
});

const patchThen = (after: string) =>
  plan(`
    read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
    patch: { kind: write, needs: [read_client], goal: Patch the retry loop of the client, tool: fs.write, output: patch }
    ${after}
  `);

testRule(summaryWithoutEvidence, {
  valid: [
    patchThen(`test: { kind: verify, needs: [patch], goal: Run the login client tests, tool: tests.run, output: results }
    report: { kind: summarize, needs: [test], goal: Summarise the change and the test results, tool: llm.ask, output: summary }`),
  ],
  invalid: [
    {
      code: patchThen(`report: { kind: summarize, needs: [patch], goal: Summarise the change for the pull request, tool: llm.ask, output: summary }`),
      errors: [{ messageId: "noVerify", line: 5, column: 3 }],
    },
  ],
});

testRule(writeWithoutVerification, {
  valid: [patchThen(`test: { kind: verify, needs: [patch], goal: Run the login client tests, tool: tests.run, output: results }`)],
  invalid: [
    {
      name: "the only verify step runs before the write",
      code: plan(`
        read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
        test: { kind: verify, needs: [read_client], goal: Run the login client tests, tool: tests.run, output: results }
        patch: { kind: write, needs: [test], goal: Patch the retry loop of the client, tool: fs.write, output: patch }
      `),
      errors: [{ messageId: "unverified", line: 5, column: 3 }],
    },
    {
      // docs/rules.md: "a step whose effective risk is `write`": an UPDATE through a read tool counts.
      name: "a write the label hides, with no verify step at all",
      code: [
        "planspec: 1",
        "name: markdown",
        "goal: Lower the outerwear prices for the sale.",
        "tools: { catalog_db.query: { risk: read, description: Run a SQL query on the catalogue database } }",
        "limits: { run_timeout: 10m, max_tool_calls: 5 }",
        "steps:",
        "  apply_markdown:",
        "    kind: analyze",
        "    goal: Lower the outerwear prices by 20 percent",
        "    tool: catalog_db.query",
        "    timeout: 1m",
        '    with: { sql: "UPDATE products SET price = round(price * 0.8, 2)" }',
        "",
      ].join("\n"),
      errors: [{ messageId: "unverified", line: 7, column: 3 }],
    },
  ],
});

testRule(phaseWithoutBounds, {
  valid: [
    plan(`
      fix_rest: { kind: phase, goal: Fix the tests the change broke, expand: planner, max_steps: 6, allowed_tools: [fs.read, fs.write] }
    `),
  ],
  invalid: [
    {
      code: plan(`
        fix_rest:
          kind: phase
          goal: Fix the tests the change broke
          expand: planner
          allowed_tools: [fs.read, fs.write]
      `),
      errors: [{ messageId: "unbounded", line: 6, column: 13 }],
    },
  ],
});
