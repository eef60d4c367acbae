/** Rules that compare a revised plan with the original (`planspec lint --against`). */
import { describe, expect, it } from "vitest";
import { rule as goalDrift } from "../../src/lint/rules/goal-drift.js";
import { rule as offGoalStep } from "../../src/lint/rules/off-goal-step.js";
import { rule as unsafeRevision } from "../../src/lint/rules/unsafe-revision.js";
import { lintCase, plan, testRule } from "./rules-tester.js";

const steps = `
  read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
  patch: { kind: write, needs: [read_client], goal: Patch the retry loop of the client, tool: fs.write, output: patch }
`;
const original = plan(steps, "deliverables: [patch]");

testRule(goalDrift, {
  valid: [
    { name: "an unchanged plan", code: original, original },
    {
      name: "a new step that feeds the deliverable",
      original,
      code: plan(
        `
        read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
        read_tests: { kind: read, goal: Read the login client tests, tool: fs.read, output: tests }
        patch: { kind: write, needs: [read_client, read_tests], goal: Patch the retry loop of the client, tool: fs.write, output: patch }
      `,
        "deliverables: [patch]",
      ),
    },
  ],
  invalid: [
    {
      name: "a changed goal and an extra deliverable",
      original,
      code: plan(steps, "deliverables: [patch, source]").replace("goal: Fix the retry bug", "goal: Rewrite the whole HTTP layer"),
      errors: [
        { messageId: "goalChanged", line: 6, column: 7 },
        { messageId: "deliverableAdded", line: 10, column: 23 },
      ],
    },
    {
      name: "a deliverable dropped and one that lost its producer",
      original: plan(steps, "deliverables: [patch, source]"),
      code: plan(
        `
        read_client: { kind: read, goal: Read the login client source, tool: fs.read }
        patch: { kind: write, needs: [read_client], goal: Patch the retry loop of the client, tool: fs.write }
      `,
        "deliverables: [source]",
      ),
      errors: [
        { messageId: "deliverableRemoved", line: 10, column: 15 },
        { messageId: "producerLost", line: 10, column: 16 },
      ],
    },
    {
      name: "a new step that serves no deliverable",
      original,
      code: plan(
        `${steps}  tweet: { kind: external, needs: [read_client], goal: Tweet about the login client, tool: mail.send, idempotency_key: t }`,
        "deliverables: [patch]",
      ),
      errors: [{ messageId: "newStepServesNothing", line: 5, column: 3 }],
    },
  ],
});

testRule(offGoalStep, {
  valid: [
    {
      original,
      code: plan(`${steps}  note: { kind: write, needs: [patch], goal: Note the retry change in the changelog, tool: fs.write }`),
    },
  ],
  invalid: [
    {
      original,
      code: plan(`${steps}  lunch: { kind: external, goal: Order pizza for the whole team, tool: mail.send }`),
      errors: [{ messageId: "offGoal", line: 5, column: 34 }],
    },
  ],
});

/** A one-step plan whose step runs `command` through a shell tool catalogued read. */
const tfPlan = (command: string): string =>
  [
    "planspec: 1",
    "name: status-record",
    "goal: Move the status record to the new provider.",
    "tools: { tf.run: { risk: read, description: Run a terraform command in the infra repository } }",
    "limits: { run_timeout: 10m, max_tool_calls: 5 }",
    "steps:",
    "  plan_change:",
    "    kind: analyze",
    `    with: { command: "${command}" }`,
    "    goal: Produce the terraform plan of the status record change",
    "    tool: tf.run",
    "    timeout: 5m",
    "",
  ].join("\n");

testRule(unsafeRevision, {
  valid: [
    {
      name: "a raised risk behind an approval",
      original,
      code: plan(`
        read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
        patch: { kind: external, needs: [read_client], goal: Patch the retry loop of the client, tool: mail.send, output: patch, approval: { required: true } }
      `),
    },
  ],
  invalid: [
    {
      name: "a read step that now writes",
      original,
      code: plan(`
        read_client:
          kind: read
          goal: Read the login client source
          tool: fs.write
          risk: write
          output: source
        patch: { kind: write, needs: [read_client], goal: Patch the retry loop of the client, tool: fs.write, output: patch }
      `),
      errors: [{ messageId: "riskRaised", line: 7, column: 11 }],
    },
    {
      // docs/rules.md: the *effective* risk, so a command the revision chains on counts.
      name: "a read step whose revised command now applies",
      original: tfPlan("terraform plan -target=aws_route53_record.status -out=status.tfplan"),
      code: tfPlan("terraform plan -target=aws_route53_record.status -out=status.tfplan && terraform apply -auto-approve status.tfplan"),
      errors: [{ messageId: "riskRaised", line: 9, column: 22 }],
    },
    {
      // The dropped gate is revision-removes-safeguard's finding now, not this rule's.
      name: "a new external step beside a dropped gate",
      original: plan(`
        read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source, approval: { required: true } }
      `),
      code: plan(`
        read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }
        notify: { kind: external, needs: [read_client], goal: Mail the change to the team, tool: mail.send }
      `),
      errors: [{ messageId: "newExternal", line: 4, column: 3 }],
    },
  ],
});

describe("revision rules without an original", () => {
  it("report nothing when the engine has no original to compare with", () => {
    const code = plan(steps, "deliverables: [other]");
    for (const rule of [goalDrift, offGoalStep, unsafeRevision]) {
      expect(lintCase(rule, { code }).found).toEqual([]);
    }
  });
});
