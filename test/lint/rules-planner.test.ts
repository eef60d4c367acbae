/** The five planner-failure rules of SPEC §4 that need no original plan. */
import { rule as overPlanning } from "../../src/lint/rules/over-planning.js";
import { rule as riskUnderLabelled } from "../../src/lint/rules/risk-under-labelled.js";
import { rule as unboundedLoop } from "../../src/lint/rules/unbounded-loop.js";
import { rule as writeWithoutEvidence } from "../../src/lint/rules/write-without-evidence.js";
import { dedent, plan, testRule } from "./rules-tester.js";

const readThenPatch = plan(`
  read_client:
    kind: read
    goal: Read the login client source file
    tool: fs.read
    output: source
  patch:
    kind: write
    needs: [read_client]
    goal: Patch the retry loop of the login client
    tool: fs.write
`);

testRule(writeWithoutEvidence, {
  valid: [
    readThenPatch,
    {
      name: "evidence reached through a consumed analysis",
      code: plan(`
        read_client:
          kind: read
          goal: Read the login client source file
          tool: fs.read
          output: source
        design:
          kind: analyze
          needs: [read_client]
          goal: Design the change to the retry loop
          tool: llm.ask
          output: design
        patch:
          kind: write
          needs: [design]
          goal: Apply the designed change to the client
          tool: fs.write
          with: { change: "\${{ steps.design.output }}" }
      `),
    },
  ],
  invalid: [
    {
      name: "a write with no needs at all",
      code: plan(`
        patch:
          kind: write
          goal: Patch the retry loop of the login client
          tool: fs.write
      `),
      errors: [{ messageId: "noEvidence", line: 3, column: 3 }],
    },
    {
      name: "needs a read but consumes only a guess",
      code: plan(`
        guess:
          kind: analyze
          goal: Guess where the retry loop lives
          tool: llm.ask
          output: guess
        read_client:
          kind: read
          goal: Read the login client source file
          tool: fs.read
          output: source
        patch:
          kind: write
          needs: [guess, read_client]
          goal: Patch the file the guess names
          tool: fs.write
          with: { file: "\${{ steps.guess.output }}" }
      `),
      errors: [{ messageId: "noEvidence", line: 13, column: 3 }],
    },
    {
      name: "an analyze step whose tool writes",
      code: plan(`
        tidy:
          kind: analyze
          goal: Tidy the configuration files of the client
          tool: fs.write
      `),
      errors: [{ messageId: "noEvidence", line: 3, column: 3 }],
    },
  ],
});

testRule(riskUnderLabelled, {
  valid: [
    plan(`
      patch:
        kind: write
        goal: Patch the retry loop of the login client
        tool: fs.write
        risk: write
    `),
    {
      name: "an inferred risk follows the tools",
      code: plan(`
        notify:
          kind: external
          goal: Mail the change summary to the team
          tool: mail.send
      `),
    },
  ],
  invalid: [
    {
      name: "declared below the tool",
      code: plan(`
        patch:
          kind: analyze
          goal: Patch the retry loop of the login client
          tool: fs.write
          risk: read
      `),
      errors: [{ messageId: "belowTool", line: 7, column: 11 }],
    },
    {
      name: "a write kind labelled read",
      code: plan(`
        patch:
          kind: write
          goal: Record the decision in the change log
          tool: llm.ask
          risk: read
      `),
      errors: [{ messageId: "belowKind", line: 7, column: 11 }],
    },
    {
      name: "an external kind whose risk is inferred from read tools",
      code: plan(`
        notify:
          kind: external
          goal: Post the summary to the team channel
          tool: llm.ask
      `),
      errors: [{ messageId: "belowKind", line: 4, column: 11 }],
    },
  ],
});

testRule(unboundedLoop, {
  valid: [
    plan(`
      poll:
        kind: read
        goal: Poll the build status until it is done
        tool: fs.read
        repeat: { until: "\${{ output.done }}", max_attempts: 10 }
        retry: { max_attempts: 3 }
        output: status
    `),
    {
      name: "keep and until that promise no loop",
      code: plan(`
        freeze:
          kind: read
          goal: Keep the existing labels until the migration ends and read the open tickets
          tool: fs.read
      `),
    },
  ],
  invalid: [
    {
      name: "repeat, for_each and retry without bounds",
      code: plan(`
        poll:
          kind: read
          goal: Poll the build status until it is done
          tool: fs.read
          repeat: { until: "\${{ output.done }}" }
          output: status
        each:
          kind: read
          needs: [poll]
          goal: Read every log file the build wrote
          tool: fs.read
          for_each: { items: "\${{ steps.poll.output.logs }}" }
          retry: { backoff: fixed }
      `),
      errors: [
        { messageId: "repeatUnbounded", line: 7, column: 13 },
        { messageId: "forEachUnbounded", line: 14, column: 15 },
        { messageId: "retryUnbounded", line: 15, column: 12 },
      ],
    },
    {
      name: "an open-ended goal",
      code: plan(`
        fix:
          kind: write
          goal: Keep trying fixes to the retry loop until the tests pass
          tool: fs.write
      `),
      errors: [{ messageId: "openEndedGoal", line: 5, column: 11 }],
    },
    {
      name: "an open-ended goal with another verb: keep adjusting until",
      code: plan(`
        tie_out:
          kind: verify
          goal: Re-run the trial balance and keep adjusting until the accruals tie out
          tool: fs.read
      `),
      errors: [{ messageId: "openEndedGoal", line: 5, column: 11 }],
    },
    {
      name: "no run-level limits",
      code: dedent(`
        planspec: 1
        name: no-limits
        goal: Read the login client source file.
        tools: { fs.read: { risk: read } }
        steps:
          read:
            kind: read
            goal: Read the login client source file
            tool: fs.read
      `),
      errors: [{ messageId: "noLimits", line: 1, column: 1 }],
    },
  ],
});

const fiveSteps = `
  a: { kind: read, goal: Read the login client source, tool: fs.read, output: a }
  b: { kind: read, goal: Read the login client tests, tool: fs.read, output: b }
  c: { kind: read, goal: Read the retry configuration file, tool: fs.read, output: c }
  d: { kind: read, goal: Read the lockout policy document, tool: fs.read, output: d }
  e: { kind: analyze, needs: [a, b, c, d], goal: Explain the lockout from the sources, tool: llm.ask, output: e }
`;

testRule(overPlanning, {
  valid: [
    plan(fiveSteps, "complexity: moderate"),
    { name: "the threshold is an option", code: plan(fiveSteps, "complexity: simple"), options: { simple: 5 } },
    {
      name: "two checks with different tools",
      code: plan(`
        read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: src }
        check_types: { kind: verify, needs: [read_client], goal: Type-check the login client, tool: tests.run, output: types }
        check_style: { kind: verify, needs: [check_types], goal: Lint the login client style, tool: llm.ask, output: style }
      `),
    },
  ],
  invalid: [
    {
      name: "more steps than a simple plan needs",
      code: plan(fiveSteps, "complexity: simple"),
      errors: [{ messageId: "tooManySteps", line: 13, column: 13 }],
    },
    {
      name: "more steps than limits.max_steps",
      code: plan(fiveSteps, "limits: { max_steps: 3, run_timeout: 1m }").replace(/^limits: \{ run_timeout: 10m.*\n/m, ""),
      errors: [{ messageId: "overMaxSteps", line: 12, column: 22 }],
    },
    {
      name: "a verify step re-checking the previous one",
      code: plan(`
        read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: src }
        test_once: { kind: verify, needs: [read_client], goal: Run the login client tests, tool: tests.run, output: t1 }
        test_again: { kind: verify, needs: [test_once], goal: Run the login client tests again, tool: tests.run, output: t2 }
      `),
      errors: [{ messageId: "recheck", line: 5, column: 3 }],
    },
    {
      name: "a read whose result goes nowhere",
      code: plan(`
        read_client: { kind: read, goal: Read the login client source, tool: fs.read }
        read_docs: { kind: read, goal: Read the retry documentation page, tool: fs.read, output: docs }
        explain: { kind: analyze, needs: [read_client, read_docs], goal: Explain the retry rules, tool: llm.ask, with: { docs: "\${{ steps.read_docs.output }}" }, output: why }
      `),
      errors: [{ messageId: "deadStep", line: 3, column: 3 }],
    },
  ],
});
