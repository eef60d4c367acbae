/** Revision rules that read a revised plan as a diff of the original (`planspec lint --against`). */
import { describe, expect, it } from "vitest";
import { rule as offGoalStep } from "../../src/lint/rules/off-goal-step.js";
import { rule as addsFilter } from "../../src/lint/rules/revision-adds-filter.js";
import { rule as loosensCheck } from "../../src/lint/rules/revision-loosens-check.js";
import { rule as removesSafeguard } from "../../src/lint/rules/revision-removes-safeguard.js";
import { rule as reroutes } from "../../src/lint/rules/revision-reroutes-deliverable.js";
import { lintCase, plan, testRule } from "./rules-tester.js";

const READ = "read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: source }";
const PATCH = "patch: { kind: write, needs: [read_client], goal: Patch the retry loop of the client, tool: fs.write, output: patch }";
const original = plan(`${READ}\n${PATCH}`, "deliverables: [patch]");

testRule(reroutes, {
  valid: [
    { name: "an unchanged plan", original, code: original },
    {
      name: "a new step feeding the same producer",
      original,
      code: plan(`${READ}\nread_tests: { kind: read, goal: Read the client tests, tool: fs.read, output: tests }\n${PATCH.replace("[read_client]", "[read_client, read_tests]")}`, "deliverables: [patch]"),
    },
  ],
  invalid: [
    {
      name: "another step produces the deliverable",
      original,
      code: plan(
        `${READ}\n${PATCH.replace("output: patch", "output: draft")}\npublish: { kind: write, needs: [patch], goal: Publish the client patch, tool: fs.write, output: patch }`,
        "deliverables: [patch]",
      ),
      errors: [{ messageId: "otherStep", line: 5, column: 99 }],
    },
    {
      name: "the producer calls another tool",
      original,
      code: plan(`${READ}\n${PATCH.replace("tool: fs.write", "tool: llm.ask").replace("kind: write", "kind: analyze")}`, "deliverables: [patch]"),
      errors: [{ messageId: "otherTool", line: 4, column: 97 }],
    },
    {
      name: "the producer changes kind",
      original,
      code: plan(`${READ}\n${PATCH.replace("kind: write", "kind: external").replace("tool: fs.write", "tool: fs.write, risk: external")}`, "deliverables: [patch]"),
      errors: [{ messageId: "otherKind", line: 4, column: 18 }],
    },
  ],
});

// The case: a refund loop over duplicate charges. The plan declares no deliverables,
// so what it delivers is its side effects and final steps.
const refunds = (refund: string, extra = "") =>
  plan(`
    list_charges: { kind: read, goal: List the duplicate charges of batch 42, tool: fs.read, output: charges }
    refund:
      kind: external
      needs: [list_charges]
      goal: Refund each duplicate charge
      tool: mail.send
      idempotency_key: "refund-\${{ item.id }}"
      for_each: { items: "\${{ steps.list_charges.output.rows }}", max_items: 500 }
${refund}
    ${extra}
  `);
const CHECK = '      success: [{ check: "${{ output.refunded == len(steps.list_charges.output.rows) }}" }]';

testRule(addsFilter, {
  valid: [
    { name: "the same filter, written differently", original: refunds(`${CHECK}\n      when: "\${{ inputs_ok }}"`.replace("inputs_ok", "true")), code: refunds(`${CHECK}\n      when: "\${{  true }}"`) },
    // holdout8's false block: docs/rules.md says other spacing is no change, and that includes none at all.
    {
      name: "the same filter without its spaces, or in parentheses",
      original: refunds(`${CHECK}\n      when: "\${{ len(steps.list_charges.output.rows) > 0 && steps.list_charges.output.total < 1000 }}"`),
      code: refunds(`${CHECK}\n      when: "\${{len(steps.list_charges.output.rows)>0&&(steps.list_charges.output.total<1000)}}"`),
    },
    {
      name: "a filter on a new step that leads nowhere the plan delivers",
      original: plan(`${READ}\n${PATCH}`, "deliverables: [patch]"),
      code: plan(`${READ}\n${PATCH}\nlog: { kind: analyze, needs: [read_client], goal: Log the size of the client source, tool: llm.ask, when: "\${{ false }}" }`, "deliverables: [patch]"),
    },
  ],
  invalid: [
    {
      name: "a when added to the refund loop",
      original: refunds(CHECK),
      code: refunds(`${CHECK}\n      when: "\${{ steps.list_charges.output.total < 1000 }}"`),
      errors: [{ messageId: "added", line: 12, column: 11 }],
    },
    {
      name: "a filter changed by one character, the spaces aside",
      original: refunds(`${CHECK}\n      when: "\${{ steps.list_charges.output.total < 1000 }}"`),
      code: refunds(`${CHECK}\n      when: "\${{steps.list_charges.output.total<100}}"`),
      errors: [{ messageId: "changed", line: 12, column: 11 }],
    },
    {
      name: "a string in the filter that differs only in its spaces",
      original: refunds(`${CHECK}\n      when: "\${{ steps.list_charges.output.mode == 'all  rows' }}"`),
      code: refunds(`${CHECK}\n      when: "\${{ steps.list_charges.output.mode == 'all rows' }}"`),
      errors: [{ messageId: "changed", line: 12, column: 11 }],
    },
    {
      name: "a changed filter",
      original: refunds(`${CHECK}\n      when: "\${{ true }}"`),
      code: refunds(`${CHECK}\n      when: "\${{ steps.list_charges.output.total < 1000 }}"`),
      errors: [{ messageId: "changed", line: 12, column: 11 }],
    },
    {
      name: "a new filtered step that feeds the deliverable",
      original,
      code: plan(
        `${READ}\nlint_client: { kind: analyze, needs: [read_client], goal: Lint the client source, tool: llm.ask, output: lint, when: "\${{ false }}" }\n${PATCH.replace("[read_client]", "[read_client, lint_client]")}`,
        "deliverables: [patch]",
      ),
      errors: [{ messageId: "newStep", line: 4, column: 120 }],
    },
  ],
});

testRule(loosensCheck, {
  valid: [
    { name: "an unchanged check", original: refunds(CHECK), code: refunds(CHECK.replace("== len(", "==  len(")) },
    {
      name: "a stricter threshold",
      original: plan(`${READ}\n${PATCH.replace(" }", ', success: [{ check: "${{ output.tests_passed >= 0.99 }}" }] }')}`),
      code: plan(`${READ}\n${PATCH.replace(" }", ', success: [{ check: "${{ output.tests_passed >= 0.999 }}" }] }')}`),
    },
  ],
  invalid: [
    {
      name: "a relaxed threshold",
      original: plan(`${READ}\n${PATCH.replace(" }", ', success: [{ check: "${{ output.tests_passed >= 0.99 }}" }] }')}`),
      code: plan(`${READ}\n${PATCH.replace(" }", ', success: [{ check: "${{ output.tests_passed > 0.5 }}" }] }')}`),
      errors: [{ messageId: "threshold", line: 4, column: 130 }],
    },
    {
      name: "a dropped condition",
      original: refunds('      success: [{ check: "${{ output.ok && output.failed == 0 }}" }]'),
      code: refunds('      success: [{ check: "${{ output.ok }}" }]'),
      errors: [{ messageId: "dropped", line: 11, column: 15 }],
    },
    {
      // Two findings at the step (its success is gone), one for the check and one for the evidence.
      name: "a removed check, and removed evidence",
      original: refunds(`${CHECK.replace("}]", '}, { evidence: [steps.list_charges] }]')}`),
      code: refunds(""),
      errors: [{ messageId: "removed", line: 4, column: 3 }],
    },
  ],
});

const withVerify = (verify: string) =>
  plan(`${READ}\n${PATCH}\n${verify}`, "deliverables: [patch]");
const VERIFY = "check_patch: { kind: verify, needs: [patch], goal: Run the client tests on the patch, tool: tests.run }";

testRule(removesSafeguard, {
  valid: [
    { name: "a verify step renamed", original: withVerify(VERIFY), code: withVerify(VERIFY.replace("check_patch", "test_patch")) },
    {
      name: "an approval gate moved onto an approval step above the effect",
      original: plan(`${READ}\nnotify: { kind: external, needs: [read_client], goal: Mail the change to the team, tool: mail.send, approval: { required: true } }`),
      code: plan(`${READ}\nok: { kind: approval, needs: [read_client], goal: Approve the mail to the team }\nnotify: { kind: external, needs: [ok], goal: Mail the change to the team, tool: mail.send }`),
    },
  ],
  invalid: [
    {
      name: "a verify step removed",
      original: withVerify(VERIFY),
      code: withVerify(""),
      errors: [{ messageId: "stepRemoved", line: 3, column: 3 }],
    },
    {
      name: "an approval gate dropped",
      original: plan(`${READ}\nnotify: { kind: external, needs: [read_client], goal: Mail the change to the team, tool: mail.send, approval: { required: true } }`),
      code: plan(`${READ}\nnotify: { kind: external, needs: [read_client], goal: Mail the change to the team, tool: mail.send }`),
      errors: [{ messageId: "gateRemoved", line: 4, column: 3 }],
    },
    {
      name: "the approval step moved to a parallel branch",
      original: plan(`${READ}\nok: { kind: approval, needs: [read_client], goal: Approve the mail to the team }\nnotify: { kind: external, needs: [ok], goal: Mail the change to the team, tool: mail.send }`),
      code: plan(`${READ}\nok: { kind: approval, needs: [read_client], goal: Approve the mail to the team }\nnotify: { kind: external, needs: [read_client], goal: Mail the change to the team, tool: mail.send }`),
      errors: [{ messageId: "noLongerGated", line: 5, column: 36 }],
    },
  ],
});

testRule(offGoalStep, {
  valid: [
    {
      name: "a new step that uses the original work",
      original,
      code: plan(`${READ}\n${PATCH}\nreport: { kind: external, needs: [patch], goal: Mail the retry fix to the team, tool: mail.send }`),
    },
  ],
  invalid: [
    {
      name: "a new step on the goal's words but connected to nothing the plan did",
      original,
      code: plan(`${READ}\n${PATCH}\nreport: { kind: external, goal: Report the login client retry bug to everyone, tool: mail.send }`),
      errors: [{ messageId: "unrelated", line: 5, column: 35 }],
    },
  ],
});

describe("revision-loosens-check messages", () => {
  it("names each removed criterion", () => {
    const { messages } = lintCase(loosensCheck, { original: refunds(`${CHECK.replace("}]", '}, { evidence: [steps.list_charges] }]')}`), code: refunds("") });
    expect(messages).toEqual([
      'the revision removes the success check `${{ output.refunded == len(steps.list_charges.output.rows) }}` of step "refund"; keep it'.replace("${{ ", "").replace(" }}", ""),
      'the revision removes the success evidence `steps.list_charges` of step "refund"; keep it',
    ]);
  });
});

describe("the issue's refund revision fails the gate", () => {
  it("a when on the refund loop and a loosened check are two errors", () => {
    const before = refunds(CHECK);
    const after = refunds(`      success: [{ check: "\${{ output.refunded > 0 }}" }]\n      when: "\${{ steps.list_charges.output.total < 1000 }}"`);
    expect(lintCase(addsFilter, { code: after, original: before }).found.map((f) => f.messageId)).toEqual(["added"]);
    expect(lintCase(loosensCheck, { code: after, original: before }).found.map((f) => f.messageId)).toEqual(["threshold"]);
  });
});
