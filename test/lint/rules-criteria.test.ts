/** Rules about what a step promises: goals, success criteria and hypotheses. */
import { rule as missingSuccessCriteria } from "../../src/lint/rules/missing-success-criteria.js";
import { rule as unusedHypothesis } from "../../src/lint/rules/unused-hypothesis.js";
import { rule as unverifiedHypothesis } from "../../src/lint/rules/unverified-hypothesis.js";
import { rule as vagueStepGoal } from "../../src/lint/rules/vague-step-goal.js";
import { rule as vagueSuccessCriteria } from "../../src/lint/rules/vague-success-criteria.js";
import { plan, testRule } from "./rules-tester.js";

const readWith = (success: string) =>
  plan(`
    read_client:
      kind: read
      goal: Understand the login client code
      tool: fs.read
      output: source
      success:
        - ${success}
  `);

testRule(missingSuccessCriteria, {
  valid: [
    readWith('check: "${{ len(output.files) > 0 }}"'),
    { name: "approvals are exempt", code: plan(`sign_off: { kind: approval, goal: Lead signs off the change, approval: { required: true } }`) },
  ],
  invalid: [
    {
      code: plan(`read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }`),
      errors: [{ messageId: "missing", line: 3, column: 3 }],
    },
  ],
});

testRule(vagueSuccessCriteria, {
  valid: [
    readWith('judge: "the retry loop and its max_attempts constant are quoted with line numbers"'),
    readWith('check: "${{ contains(output.text, \'retry\') }}"'),
    {
      name: "a judge beside a check is a second opinion",
      code: plan(`
        read_client:
          kind: read
          goal: Understand the login client code
          tool: fs.read
          output: source
          success:
            - check: "\${{ len(output.files) > 0 }}"
            - judge: the code is understood
      `),
    },
  ],
  invalid: [
    {
      name: "a judge that restates the goal",
      code: readWith("judge: I understand the login client code well"),
      errors: [{ messageId: "vagueJudge", line: 9, column: 16 }],
    },
    {
      name: "a check that reads nothing",
      code: readWith('check: "${{ 1 == 1 }}"'),
      errors: [{ messageId: "constantCheck", line: 9, column: 16 }],
    },
  ],
});

testRule(vagueStepGoal, {
  valid: [
    plan(`read_client: { kind: read, goal: Read the login client source, tool: fs.read }`),
    { name: "the word count is an option", code: plan(`read: { kind: read, goal: Read source, tool: fs.read }`), options: { minWords: 2 } },
  ],
  invalid: [
    { code: plan(`a: { kind: read, goal: Do the task, tool: fs.read }`), errors: [{ messageId: "tooShort", line: 3, column: 26 }] },
    {
      code: plan(`b: { kind: analyze, goal: Perform the necessary processing of the relevant data, tool: llm.ask }`),
      errors: [{ messageId: "generic", line: 3, column: 29 }],
    },
  ],
});

const hypothesis = "hypotheses: { retries_401: { statement: The client retries 401 responses, verify_by: [read_client] } }";

testRule(unverifiedHypothesis, {
  valid: [
    plan(
      `
      read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
      patch: { kind: write, needs: [read_client], assumes: [retries_401], goal: Stop retrying 401 responses, tool: fs.write }
    `,
      hypothesis,
    ),
  ],
  invalid: [
    {
      code: plan(
        `
        read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
        patch:
          kind: write
          assumes: [retries_401]
          goal: Stop retrying 401 responses
          tool: fs.write
      `,
        hypothesis,
      ),
      errors: [{ messageId: "notVerified", line: 6, column: 15 }],
    },
    {
      name: "a hypothesis nothing verifies",
      code: plan(
        `patch: { kind: write, assumes: [no_backoff], goal: Add backoff between retries, tool: fs.write }`,
        "hypotheses: { no_backoff: { statement: Retries fire back to back, verify_by: [] } }",
      ),
      errors: [{ messageId: "noVerifier", line: 3, column: 35 }],
    },
  ],
});

testRule(unusedHypothesis, {
  valid: [
    plan(
      `
      read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
      patch: { kind: write, needs: [read_client], assumes: [retries_401], goal: Stop retrying 401 responses, tool: fs.write }
    `,
      hypothesis,
    ),
  ],
  invalid: [
    {
      code: plan(`read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }`, hypothesis),
      errors: [{ messageId: "unused", line: 9, column: 28 }],
    },
  ],
});
