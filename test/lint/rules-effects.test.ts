/** Rules about side effects: approvals, idempotency, timeouts, races, secrets and grants. */
import { rule as approvalWithoutApprovers } from "../../src/lint/rules/approval-without-approvers.js";
import { rule as approvalWithoutTimeout } from "../../src/lint/rules/approval-without-timeout.js";
import { rule as broadToolGrant } from "../../src/lint/rules/broad-tool-grant.js";
import { rule as concurrentWrites } from "../../src/lint/rules/concurrent-writes.js";
import { rule as externalWithoutApproval } from "../../src/lint/rules/external-without-approval.js";
import { rule as retryWithoutIdempotency } from "../../src/lint/rules/retry-without-idempotency.js";
import { rule as riskyStepWithoutTimeout } from "../../src/lint/rules/risky-step-without-timeout.js";
import { rule as secretInArguments } from "../../src/lint/rules/secret-in-arguments.js";
import { rule as sideEffectWithoutIdempotencyKey } from "../../src/lint/rules/side-effect-without-idempotency-key.js";
import { plan, testRule } from "./rules-tester.js";

testRule(sideEffectWithoutIdempotencyKey, {
  valid: [
    plan(`
      notify:
        kind: external
        goal: Mail the change summary to the team
        tool: mail.send
        idempotency_key: "\${{ run.id }}:notify"
    `),
  ],
  invalid: [
    {
      code: plan(`
        notify:
          kind: external
          goal: Mail the change summary to the team
          tool: mail.send
      `),
      errors: [{ messageId: "missingKey", line: 3, column: 3 }],
    },
    {
      name: "an analyze step calling an external tool",
      code: plan(`
        ask:
          kind: analyze
          goal: Ask the vendor support desk about the lockout
          tool: mail.send
      `),
      errors: [{ messageId: "missingKey", line: 3, column: 3 }],
    },
  ],
});

testRule(externalWithoutApproval, {
  valid: [
    plan(`
      notify:
        kind: external
        goal: Mail the change summary to the team
        tool: mail.send
        approval: { required: true, approvers: [lead] }
    `),
    {
      name: "a gate on an ancestor",
      code: plan(`
        sign_off: { kind: approval, goal: Lead signs off the announcement, approval: { required: true, approvers: [lead] } }
        notify: { kind: external, needs: [sign_off], goal: Mail the change summary to the team, tool: mail.send }
      `),
    },
  ],
  invalid: [
    {
      code: plan(`
        notify:
          kind: external
          goal: Mail the change summary to the team
          tool: mail.send
          approval: { required: false }
      `),
      errors: [{ messageId: "noApproval", line: 3, column: 3 }],
    },
  ],
});

const gate = (approval: string) =>
  plan(`
    notify:
      kind: external
      goal: Mail the change summary to the team
      tool: mail.send
      approval: ${approval}
  `);

testRule(approvalWithoutTimeout, {
  valid: [gate("{ required: true, approvers: [lead], timeout: 24h }"), gate("{ required: false }")],
  invalid: [{ code: gate("{ required: true, approvers: [lead] }"), errors: [{ messageId: "noTimeout", line: 7, column: 15 }] }],
});

testRule(approvalWithoutApprovers, {
  valid: [gate("{ required: true, approvers: [lead], timeout: 24h }")],
  invalid: [
    { code: gate("{ required: true, timeout: 24h }"), errors: [{ messageId: "noApprovers", line: 7, column: 15 }] },
    { code: gate("{ required: true, approvers: [], timeout: 1h }"), errors: [{ messageId: "noApprovers", line: 7, column: 15 }] },
  ],
});

testRule(retryWithoutIdempotency, {
  valid: [
    plan(`
      patch: { kind: write, goal: Patch the retry loop of the client, tool: fs.write, retry: { max_attempts: 1 } }
    `),
    plan(`
      patch: { kind: write, goal: Patch the retry loop of the client, tool: fs.write, retry: { max_attempts: 3 }, idempotency_key: "\${{ run.id }}:patch" }
    `),
  ],
  invalid: [
    {
      code: plan(`
        patch: { kind: write, goal: Patch the retry loop of the client, tool: fs.write, retry: { max_attempts: 3 } }
      `),
      errors: [{ messageId: "retried", line: 3, column: 3 }],
    },
  ],
});

testRule(riskyStepWithoutTimeout, {
  valid: [
    plan(`
      patch: { kind: write, goal: Patch the retry loop of the client, tool: fs.write }
    `),
  ],
  invalid: [
    {
      name: "no step timeout and no default",
      code: plan(`
        patch: { kind: write, goal: Patch the retry loop of the client, tool: fs.write }
      `).replace("defaults: { timeout: 1m }\n", ""),
      errors: [{ messageId: "noTimeout", line: 3, column: 3 }],
    },
  ],
});

const twoWrites = (second: string) =>
  plan(`
    read_client: { kind: read, goal: Read the login client source, tool: fs.read, output: src }
    patch_a:
      kind: write
      needs: [read_client]
      goal: Patch the retry count in the config
      tool: fs.write
      with: { path: config/retry.json }
    patch_b:
      kind: write
      needs: [${second}]
      goal: Patch the backoff delay in the config
      tool: fs.write
      with: { path: config/retry.json }
  `);

testRule(concurrentWrites, {
  valid: [
    twoWrites("patch_a"),
    plan(`
      patch_a: { kind: write, goal: Patch the retry count in the config, tool: fs.write, with: { path: config/retry.json } }
      patch_b: { kind: write, goal: Patch the login client source code, tool: fs.write, with: { path: src/login.ts } }
    `),
    {
      name: "a for_each writing one file per item",
      code: plan(
        `
        each:
          kind: write
          goal: Rewrite every login test file
          tool: fs.write
          for_each: { items: "\${{ inputs.files }}", max_items: 9, concurrency: 3 }
          with: { path: "\${{ item }}" }
      `,
        "inputs: { files: { type: array } }",
      ),
    },
  ],
  invalid: [
    {
      code: twoWrites("read_client"),
      errors: [{ messageId: "race", line: 15, column: 19 }],
    },
    {
      name: "a parallel for_each writing one file",
      code: plan(
        `
        each:
          kind: write
          goal: Append every login test name to the index
          tool: fs.write
          for_each: { items: "\${{ inputs.files }}", max_items: 9, concurrency: 3 }
          with: { path: tests/index.txt }
      `,
        "inputs: { files: { type: array } }",
      ),
      errors: [{ messageId: "parallelItems", line: 8, column: 19 }],
    },
  ],
});

testRule(secretInArguments, {
  valid: [
    plan(`
      call:
        kind: read
        goal: Fetch the status page of the login service
        tool: fs.read
        with: { url: "https://status.example.com", token: "\${{ inputs.token }}", max_tokens: 500, password: "<set in env>" }
    `, "inputs: { token: { type: string } }"),
  ],
  invalid: [
    {
      name: "a known key format and a password by name",
      code: plan(`
        call:
          kind: read
          goal: Fetch the status page of the login service
          tool: fs.read
          with:
            headers:
              Authorization: "Bearer sk-proj-abcdefghijklmnopqrstuvwx"
            db_password: hunter22
            dsn: "postgres://admin:s3cret@db.example.com/app"
      `),
      errors: [
        { messageId: "secret", line: 9, column: 24 },
        { messageId: "secret", line: 10, column: 20 },
        { messageId: "secret", line: 11, column: 12 },
      ],
    },
  ],
});

testRule(broadToolGrant, {
  valid: [
    plan(`
      explore:
        kind: analyze
        goal: Explore the login client with the read tools
        allowed_tools: [fs.read, llm.ask, tests.run]
    `),
  ],
  invalid: [
    {
      name: "an analysis step granted the mailer",
      code: plan(`
        explore:
          kind: analyze
          goal: Explore the login client with the read tools
          allowed_tools: [fs.read, llm.ask, mail.send]
      `),
      errors: [{ messageId: "needlessExternal", line: 6, column: 20 }],
    },
    {
      name: "more tools than the option allows",
      options: { maxTools: 2 },
      code: plan(`
        explore:
          kind: analyze
          goal: Explore the login client with the read tools
          allowed_tools: [fs.read, llm.ask, tests.run]
      `),
      errors: [{ messageId: "tooMany", line: 6, column: 20 }],
    },
  ],
});
