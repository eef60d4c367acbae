/**
 * Rules that weigh what a step will do and how far it reaches: effective risk in the risk
 * rules, high-impact effects without approval, approvals that gate nothing, and bounds
 * (caps, poll delays, the worst case against the run limits).
 */
import { rule as approvalNotGating } from "../../src/lint/rules/approval-not-gating.js";
import { rule as excessiveBound } from "../../src/lint/rules/excessive-bound.js";
import { rule as externalWithoutApproval } from "../../src/lint/rules/external-without-approval.js";
import { rule as highImpactWithoutApproval } from "../../src/lint/rules/high-impact-without-approval.js";
import { rule as pollWithoutDelay } from "../../src/lint/rules/poll-without-delay.js";
import { rule as retryWithoutIdempotency } from "../../src/lint/rules/retry-without-idempotency.js";
import { rule as riskUnderLabelled } from "../../src/lint/rules/risk-under-labelled.js";
import { rule as sideEffectWithoutIdempotencyKey } from "../../src/lint/rules/side-effect-without-idempotency-key.js";
import { rule as toolCallBudget } from "../../src/lint/rules/tool-call-budget.js";
import { rule as writeWithoutEvidence } from "../../src/lint/rules/write-without-evidence.js";
import { dedent, testRule } from "./rules-tester.js";

/** A plan with its own catalogue; the first step key is on line 3. */
function planWith(tools: string, steps: string, limits = "{ run_timeout: 30m, max_tool_calls: 100 }"): string {
  const body = dedent(steps)
    .split("\n")
    .map((l) => (l ? `  ${l}` : l))
    .join("\n");
  return ["planspec: 1", "steps:", body, "name: rule-case", "goal: Keep the orders warehouse tidy.", `tools: ${tools}`, `limits: ${limits}`, "defaults: { timeout: 1m }", ""].join("\n");
}

const DB = "{ db.query: { risk: read, description: Run a SQL statement against the warehouse }, db.schema: { risk: read } }";
const SHELL = "{ shell.exec: { risk: write, description: Run a command in the operator workspace }, kube.pods: { risk: read } }";
const PAY = "{ orders.find: { risk: read }, payments.refund: { risk: external }, mail.send: { risk: external } }";

testRule(riskUnderLabelled, {
  valid: [
    planWith(DB, `
      count:
        kind: read
        goal: Count the live orders
        tool: db.query
        with: { sql: "SELECT count(*) FROM orders WHERE deleted = false" }
    `),
    {
      name: "a declared write label covers the DROP",
      code: planWith(DB, `
        drop:
          kind: write
          goal: Drop the archived orders table
          tool: db.query
          risk: write
          with: { sql: "DROP TABLE orders_2019" }
      `),
    },
  ],
  invalid: [
    {
      name: "DROP TABLE through a read tool points at the argument",
      code: planWith(DB, `
        drop:
          kind: analyze
          goal: Free the space of the archived orders
          tool: db.query
          with: { sql: "DROP TABLE orders CASCADE" }
      `),
      errors: [{ messageId: "belowEffect", line: 7, column: 18 }],
    },
    {
      name: "a catalogue annotation outranks the catalogue risk",
      code: planWith("{ db.admin: { risk: read, annotations: { destructiveHint: true } } }", `
        tidy:
          kind: analyze
          goal: Tidy the warehouse tables
          tool: db.admin
      `),
      errors: [{ messageId: "belowEffect", line: 6, column: 11 }],
    },
  ],
});

testRule(writeWithoutEvidence, {
  valid: [],
  invalid: [
    {
      name: "a destructive command with nothing read first",
      code: planWith(SHELL, `
        wipe:
          kind: write
          goal: Clear the application log directory
          tool: shell.exec
          with: { command: "rm -rf /var/log/app/*" }
      `),
      errors: [{ messageId: "noEvidence", line: 3, column: 3 }],
    },
  ],
});

testRule(retryWithoutIdempotency, {
  valid: [
    planWith(DB, `
      count:
        kind: read
        goal: Count the unpaid orders
        tool: db.query
        retry: { max_attempts: 3 }
        with: { sql: "SELECT count(*) FROM orders WHERE paid = false" }
    `),
  ],
  invalid: [
    {
      name: "an UPDATE through a read tool, retried without a key",
      code: planWith(DB, `
        mark:
          kind: analyze
          goal: Mark the stale orders as void
          tool: db.query
          retry: { max_attempts: 3 }
          with: { sql: "UPDATE orders SET status = 'void' WHERE updated_at < now() - interval '90 days'" }
      `),
      errors: [{ messageId: "retried", line: 3, column: 3 }],
    },
  ],
});

testRule(sideEffectWithoutIdempotencyKey, {
  valid: [
    planWith(SHELL, `
      delete:
        kind: write
        goal: Delete the stuck pods
        tool: shell.exec
        with: { command: "kubectl --dry-run=server delete pods -l app=worker" }
    `),
  ],
  invalid: [
    {
      name: "kubectl delete through a write tool is external",
      code: planWith(SHELL, `
        delete:
          kind: write
          goal: Delete the stuck pods
          tool: shell.exec
          with: { command: "kubectl delete pods -l app=worker" }
      `),
      errors: [{ messageId: "missingKeyInferred", line: 3, column: 3 }],
    },
  ],
});

const refunds = (gate: string, needs = "[find]") =>
  planWith(PAY, `
    find: { kind: search, goal: Find the orders charged twice, tool: orders.find, output: orders }
    ${gate}
    refund:
      kind: external
      needs: ${needs}
      goal: Refund the second charge of each order
      tool: payments.refund
      for_each: { items: "\${{ steps.find.output.orders }}", max_items: 500 }
      with: { charge: "\${{ item.charge_id }}" }
      idempotency_key: "\${{ item.charge_id }}"
  `);

// Three keyed mails in a for_each: below the default bulk threshold.
const THREE_MAILS = planWith(PAY, `
  notify:
    kind: external
    goal: Mail the on-call engineers about the outage
    tool: mail.send
    for_each: { items: "\${{ ['a', 'b', 'c'] }}", max_items: 3 }
    with: { to: "\${{ item }}" }
    idempotency_key: "\${{ item }}"
`);

testRule(highImpactWithoutApproval, {
  valid: [
    refunds("sign_off: { kind: approval, needs: [find], goal: Finance approves the refunds, approval: { required: true, approvers: [finance] } }", "[sign_off]"),
    {
      name: "a small fan-out of an ordinary external effect is not bulk",
      code: THREE_MAILS,
    },
  ],
  invalid: [
    { name: "500 refunds with no gate", code: refunds(""), errors: [{ messageId: "noApproval", line: 5, column: 3 }] },
    {
      name: "bulk: a for_each over many recipients",
      code: planWith(PAY, `
        customers: { kind: read, goal: List the affected customers, tool: orders.find, output: customers }
        notify:
          kind: external
          needs: [customers]
          goal: Mail every customer about the outage
          tool: mail.send
          for_each: { items: "\${{ steps.customers.output }}", max_items: 5000 }
          with: { to: "\${{ item }}" }
          idempotency_key: "\${{ item }}"
      `),
      errors: [{ messageId: "noApproval", line: 4, column: 3 }],
    },
    {
      name: "the bulk threshold is an option",
      options: { bulkItems: 3 },
      code: THREE_MAILS,
      errors: [{ messageId: "noApproval", line: 3, column: 3 }],
    },
    {
      // docs/rules.md: "... and a destructive write on production".
      name: "a destructive write on a production database through a read-labelled shell",
      code: planWith(SHELL, `
        purge:
          kind: analyze
          goal: Remove the customer's rows
          tool: shell.exec
          with: { command: "psql -h pg-main.prod.acme.internal -d app -c 'DELETE FROM customers WHERE id = 42'" }
      `),
      errors: [{ messageId: "noApproval", line: 3, column: 3 }],
    },
    {
      name: "a destructive command run over ssh on a production host",
      code: planWith(SHELL, `
        remove_runs:
          kind: analyze
          goal: Remove the raw folders of the archived runs
          tool: shell.exec
          with: { command: "ssh lims-seq01.prod.biolab.internal 'sudo rm -rf /seq/raw/2026*'" }
      `),
      errors: [{ messageId: "noApproval", line: 3, column: 3 }],
    },
    {
      name: "a description whose later clause sends mail, repeated for a cohort",
      code: planWith(
        "{ hr.hires: { risk: read }, directory.provision_user: { risk: write, description: 'Creates the account of the person, assigns the app groups and sends the welcome email with the activation link' } }",
        `
        hires: { kind: read, goal: List the new hires, tool: hr.hires, output: hires }
        provision:
          kind: write
          needs: [hires]
          goal: Provision an account for each new hire
          tool: directory.provision_user
          for_each: { items: "\${{ steps.hires.output }}", max_items: 60 }
          with: { login: "\${{ item.email }}" }
      `,
      ),
      errors: [{ messageId: "noApproval", line: 4, column: 3 }],
    },
    {
      name: "a description whose second sentence publishes to the public",
      code: planWith(
        "{ buffer.add_update: { risk: write, description: 'Adds an update to a Buffer profile queue; Buffer publishes it to the connected social account at scheduled_at' } }",
        `
        queue:
          kind: write
          goal: Queue the launch post
          tool: buffer.add_update
          with: { text: Orbit 2 is out, visibility: public }
          idempotency_key: orbit-2-launch
      `,
      ),
      errors: [{ messageId: "noApproval", line: 3, column: 3 }],
    },
    {
      name: "a production context on a cluster change",
      code: planWith(SHELL, `
        scale:
          kind: external
          goal: Scale the API down for the maintenance window
          tool: shell.exec
          risk: external
          with: { command: "kubectl --context production scale deploy/api --replicas=0" }
          idempotency_key: scale-api
      `),
      errors: [{ messageId: "noApproval", line: 3, column: 3 }],
    },
  ],
});

testRule(riskUnderLabelled, {
  valid: [
    planWith(SHELL, `
      lanes:
        kind: read
        goal: List the fastlane lanes of the app
        tool: shell.exec
        with: { command: "bundle exec fastlane lanes" }
    `),
    {
      name: "a later clause that only reads or drafts",
      code: planWith("{ mail.compose: { risk: read, description: 'Creates a draft of the reply, checks the spelling and returns the draft; it does not send it' } }", `
        draft:
          kind: read
          goal: Draft the reply to the customer
          tool: mail.compose
          with: { ticket: T-1 }
      `),
    },
    ...[
      // Nouns in tool ids: the description opens with a look-up, or a preposition comes first.
      ["ap.payment_run", "Return the approved invoices of a payment run with payee, IBAN and amount"],
      ["orders.tomorrow", "List the delivery orders due at a depot on a date"],
      ["bss.order_lines", "List the lines of an enterprise order with their tariff plan"],
      ["stops.from_orders", "Geocode delivery orders into route stops with service times"],
    ].map(([tool, description]) => ({
      name: `a noun in the id: ${tool}`,
      code: planWith(`{ ${tool}: { risk: read, description: '${description}' } }`, `
        look:
          kind: read
          goal: Look up the records for the morning
          tool: ${tool}
          with: { day: tomorrow }
      `),
    })),
    {
      name: "a clause that only checks what someone else does",
      code: planWith("{ billing.check: { risk: read, description: 'Checks that the customer pays the invoice on time and returns the result' } }", `
        check:
          kind: read
          goal: Check the invoice was paid
          tool: billing.check
          with: { invoice: I-1 }
      `),
    },
    {
      name: "a later clause that names an action as a noun",
      code: planWith("{ orders.history: { risk: read, description: 'Lists the orders, returns and refunds of the customer for the last year' } }", `
        history:
          kind: read
          goal: Show the customer's order history
          tool: orders.history
          with: { customer: C-1 }
      `),
    },
  ],
  invalid: [
    {
      name: "a verb in the id outranks a description that opens with a look-up",
      code: planWith("{ payments.refund: { risk: read, description: 'Returns the refund confirmation after refunding the charge' } }", `
        refund:
          kind: read
          goal: Refund the duplicate charge
          tool: payments.refund
          with: { charge: ch_1 }
      `),
      errors: [{ messageId: "belowEffect", line: 6, column: 11 }],
    },
    {
      name: "fastlane supply uploads to a store track",
      code: planWith(SHELL, `
        upload:
          kind: write
          goal: Upload the bundle to the production track
          tool: shell.exec
          with: { command: "bundle exec fastlane supply --aab app.aab --track production --rollout 1.0" }
      `),
      errors: [{ messageId: "belowEffect", line: 7, column: 22 }],
    },
  ],
});

testRule(externalWithoutApproval, {
  valid: [{ name: "high-impact effects are the error rule's", code: refunds("") }],
  invalid: [],
});

const campaign = (sendNeeds: string, approveNeeds = "[load]") =>
  planWith(PAY, `
    load: { kind: read, goal: Load the subscribers, tool: orders.find, output: subscribers }
    approve: { kind: approval, needs: ${approveNeeds}, goal: Marketing approves the mail, approval: { required: true, approvers: [marketing] } }
    send:
      kind: external
      needs: ${sendNeeds}
      goal: Mail the announcement to the subscribers
      tool: mail.send
      idempotency_key: announce
  `);

testRule(approvalNotGating, {
  valid: [
    campaign("[approve]"),
    { name: "a plan with no effect has nothing to gate", code: planWith(PAY, "approve: { kind: approval, goal: Lead reads the plan, approval: { required: true } }") },
  ],
  invalid: [
    { name: "on a parallel branch", code: campaign("[load]"), errors: [{ messageId: "parallel", line: 4, column: 3 }] },
    { name: "after the effect", code: campaign("[load]", "[send]"), errors: [{ messageId: "before", line: 4, column: 3 }] },
  ],
});

const READS = "{ jobs.status: { risk: read }, items.list: { risk: read }, items.touch: { risk: write } }";

testRule(excessiveBound, {
  valid: [
    planWith(READS, 'wait: { kind: read, goal: Poll the export job, tool: jobs.status, repeat: { until: "${{ output.done }}", max_attempts: 100, delay: 10s } }'),
    {
      name: "caps are options",
      options: { maxRepeatAttempts: 20000 },
      code: planWith(READS, 'wait: { kind: read, goal: Poll the export job, tool: jobs.status, repeat: { until: "${{ output.done }}", max_attempts: 10000, delay: 1s } }'),
    },
  ],
  invalid: [
    {
      code: planWith(READS, `
        wait:
          kind: read
          goal: Poll the export job
          tool: jobs.status
          retry: { max_attempts: 11 }
          repeat: { until: "\${{ output.done }}", max_attempts: 10000, delay: 10s }
          for_each: { items: "\${{ ['a', 'b'] }}", max_items: 1001 }
      `),
      errors: [
        { messageId: "retry", line: 7, column: 28 },
        { messageId: "repeat", line: 8, column: 58 },
        { messageId: "forEach", line: 9, column: 56 },
      ],
    },
  ],
});

testRule(pollWithoutDelay, {
  valid: [
    planWith(READS, 'wait: { kind: read, goal: Poll the export job, tool: jobs.status, repeat: { until: "${{ output.done }}", max_attempts: 30, delay: 30s } }'),
    { name: "one attempt is not a poll", code: planWith(READS, 'wait: { kind: read, goal: Check the export job once, tool: jobs.status, repeat: { until: "${{ output.done }}", max_attempts: 1 } }') },
  ],
  invalid: [
    {
      code: planWith(READS, 'wait: { kind: read, goal: Poll the export job, tool: jobs.status, repeat: { until: "${{ output.done }}", max_attempts: 30 } }'),
      errors: [{ messageId: "noDelay", line: 3, column: 77 }],
    },
  ],
});

testRule(toolCallBudget, {
  valid: [
    planWith(READS, `
      list: { kind: read, goal: List the items, tool: items.list, output: items }
      touch:
        kind: write
        needs: [list]
        goal: Touch every item
        tool: items.touch
        retry: { max_attempts: 2 }
        for_each: { items: "\${{ steps.list.output }}", max_items: 49 }
    `),
    {
      name: "a poll capped by its timeout fits the run timeout",
      code: planWith(READS, 'wait: { kind: read, goal: Poll the export job, tool: jobs.status, timeout: 20m, repeat: { until: "${{ output.done }}", max_attempts: 90, delay: 1m } }'),
    },
  ],
  invalid: [
    {
      name: "retry × for_each above max_tool_calls",
      code: planWith(READS, `
        list: { kind: read, goal: List the items, tool: items.list, output: items }
        touch:
          kind: write
          needs: [list]
          goal: Touch every item
          tool: items.touch
          retry: { max_attempts: 2 }
          for_each: { items: "\${{ steps.list.output }}", max_items: 50 }
      `),
      errors: [{ messageId: "calls", line: 14, column: 45 }],
    },
    {
      name: "poll delays above run_timeout",
      code: planWith(READS, 'wait: { kind: read, goal: Poll the export job, tool: jobs.status, timeout: 2h, repeat: { until: "${{ output.done }}", max_attempts: 90, delay: 1m } }'),
      errors: [{ messageId: "time", line: 7, column: 24 }],
    },
  ],
});
