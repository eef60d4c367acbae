/**
 * Less noise (issue 11): the heuristics that fired on plans a reviewer would pass. Each
 * rule keeps its real finding (the invalid case) and stops at the look-alike (valid).
 */
import { rule as overPlanning } from "../../src/lint/rules/over-planning.js";
import { rule as summaryWithoutEvidence } from "../../src/lint/rules/summary-without-evidence.js";
import { rule as unusedOutput } from "../../src/lint/rules/unused-output.js";
import { rule as vagueStepGoal } from "../../src/lint/rules/vague-step-goal.js";
import { plan, testRule } from "./rules-tester.js";

testRule(summaryWithoutEvidence, {
  valid: [
    {
      name: "a summary of reads in a plan that writes elsewhere",
      code: plan(`
        read: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
        report: { kind: summarize, needs: [read], goal: Summarise how the client retries, tool: llm.ask, output: summary }
        note: { kind: write, goal: Write the meeting note file, tool: fs.write, output: note }
      `),
    },
  ],
  invalid: [
    {
      name: "the only verify step ran before the write",
      code: plan(`
        read: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
        test: { kind: verify, needs: [read], goal: Run the login client tests, tool: tests.run, output: before }
        patch: { kind: write, needs: [test], goal: Patch the retry loop of the client, tool: fs.write, output: patch }
        report: { kind: summarize, needs: [patch], goal: Summarise the change for the pull request, tool: llm.ask, output: summary }
      `),
      errors: [{ messageId: "noVerify", line: 6, column: 3 }],
    },
  ],
});

testRule(unusedOutput, {
  valid: [
    {
      name: "the receipt of a terminal side effect and the verdict of a terminal check",
      code: plan(`
        read: { kind: read, goal: Read the change summary, tool: fs.read, output: text }
        mail: { kind: external, needs: [read], goal: Mail the change summary to the team, tool: mail.send, output: receipt }
        check: { kind: verify, needs: [read], goal: Check the summary names the ticket, tool: tests.run, output: verdict }
      `),
    },
  ],
  invalid: [
    {
      name: "a terminal read's output still goes nowhere",
      code: plan(`
        read: { kind: read, goal: Read the change summary, tool: fs.read, output: text }
      `),
      errors: [{ messageId: "unused", line: 3, column: 77 }],
    },
  ],
});

testRule(vagueStepGoal, {
  valid: ["Deploy the release", "Stabilize the video.", "Fix the login bug"].map((goal) => ({
    name: `short imperative: ${goal}`,
    code: plan(`s: { kind: analyze, goal: ${goal}, tool: llm.ask, output: o }`),
  })),
  invalid: [
    { name: "one word", code: plan("s: { kind: analyze, goal: Deploy, tool: llm.ask, output: o }"), errors: [{ messageId: "tooShort", line: 3, column: 29 }] },
    { name: "a generic verb", code: plan("s: { kind: analyze, goal: Process the data, tool: llm.ask, output: o }"), errors: [{ messageId: "tooShort", line: 3, column: 29 }] },
    { name: "no verb first", code: plan("s: { kind: analyze, goal: The release, tool: llm.ask, output: o }"), errors: [{ messageId: "tooShort", line: 3, column: 29 }] },
  ],
});

testRule(overPlanning, {
  valid: [
    {
      name: "a second check of other tests is not a re-check",
      code: plan(`
        read: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
        unit: { kind: verify, needs: [read], goal: Run the login unit tests, tool: tests.run, with: { suite: unit }, output: unit }
        e2e: { kind: verify, needs: [unit], goal: Run the login end-to-end tests, tool: tests.run, with: { suite: e2e }, output: e2e }
        report: { kind: summarize, needs: [e2e, unit], goal: Report both test results, tool: llm.ask, output: summary }
      `, "deliverables: [summary]\ncomplexity: moderate"),
    },
  ],
  invalid: [
    {
      name: "the same check with the same arguments",
      code: plan(`
        read: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
        unit: { kind: verify, needs: [read], goal: Run the login unit tests, tool: tests.run, with: { suite: unit }, output: unit }
        again: { kind: verify, needs: [unit], goal: Run the login unit tests again, tool: tests.run, with: { suite: unit }, output: again }
        report: { kind: summarize, needs: [again, unit], goal: Report the test results, tool: llm.ask, output: summary }
      `, "deliverables: [summary]\ncomplexity: moderate"),
      errors: [{ messageId: "recheck", line: 5, column: 3 }],
    },
  ],
});
