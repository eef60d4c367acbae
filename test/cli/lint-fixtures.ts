/** Plan texts for the lint CLI tests, written into temp dirs. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * What both plans share: a plan with two tools (`fs.read` and `tool2`) up to the end of
 * its first step, `read_input`, which reads the input file and has no success criteria.
 */
function readInputPlan(name: string, goal: string, deliverable: string, tool2: string): string {
  return `planspec: 1
name: ${name}
goal: ${goal}
deliverables: [${deliverable}]
complexity: simple
inputs:
  path: { type: string, description: The file to summarise }
tools:
  fs.read: { risk: read }
  ${tool2}
limits:
  run_timeout: 10m
  max_tool_calls: 10
defaults:
  timeout: 1m
steps:
  read_input:
    kind: read
    goal: Read the input file from the workspace
    tool: fs.read
    with: { path: "\${{ inputs.path }}" }
    output: text
`;
}

/** Lints clean with the default rules. */
export const CLEAN = `${readInputPlan("clean-plan", "Read the input file and write a short summary report of it.", "report", "fs.write: { risk: write }")}    success:
      - check: "\${{ len(output) > 0 }}"
  write_report:
    kind: write
    needs: [read_input]
    goal: Write the summary report of the input text
    tool: fs.write
    risk: write
    idempotency_key: "report:\${{ inputs.path }}"
    with: { content: "\${{ steps.read_input.output }}" }
    output: report
    success:
      - check: "\${{ exists(output.path) }}"
  verify_report:
    kind: verify
    needs: [write_report]
    goal: Read the written report back and check it is not empty
    tool: fs.read
    with: { path: "\${{ steps.write_report.output.path }}" }
    success:
      - check: "\${{ len(output) > 0 }}"
`;

/**
 * One error and one warning:
 *   17:3 missing-success-criteria (warning) on read_input,
 *   23:3 side-effect-without-idempotency-key (error) on send_mail.
 */
export const BAD = `${readInputPlan("bad-plan", "Read the input file and send a short summary of it by email.", "sent", "mail.send: { risk: external }")}  send_mail:
    kind: external
    needs: [read_input]
    goal: Send the summary of the input text by email
    tool: mail.send
    risk: external
    approval: { required: true, approvers: [ops], timeout: 1h }
    with: { body: "\${{ steps.read_input.output }}" }
    output: sent
    success:
      - check: "\${{ exists(output.id) }}"
`;

/**
 * A JSON plan whose external step has no idempotency key (and, as the step has no
 * evidence, writes without it too); `disable` becomes its `x-planspec-disable`.
 */
export function badJsonPlan(disable?: unknown): string {
  return JSON.stringify(
    {
      planspec: 1,
      name: "bad-json",
      goal: "Send the input text by email.",
      ...(disable ? { "x-planspec-disable": disable } : {}),
      tools: { "mail.send": { risk: "external" } },
      limits: { run_timeout: "1m" },
      defaults: { timeout: "1m" },
      steps: {
        send: {
          kind: "external",
          goal: "Send the input text by email",
          tool: "mail.send",
          risk: "external",
          approval: { required: true, approvers: ["ops"], timeout: "1h" },
          success: [{ check: "${{ exists(output.id) }}" }],
        },
      },
    },
    null,
    2,
  );
}

export const IDEMPOTENCY = "side-effect-without-idempotency-key";
export const NO_CRITERIA = "missing-success-criteria";

/** A temp dir holding `files` (path -> text). */
export function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "planspec-lint-cli-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
