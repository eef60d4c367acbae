/** The two-step plan and the step-reporting rule the engine tests share. */
import { defineRule, type Rule } from "../../src/lint/rule.js";

/** The plan up to `steps:`, so a test can put a suppression comment between the two halves. */
export const TINY_HEADER = `planspec: 1
name: tiny
goal: Read a file and write a summary of it.
tools:
  reader: { risk: read }
  writer: { risk: write }
limits: { run_timeout: 1m }
`;

/** The `steps:` block: `read`, then `write` fed by it. */
export const TINY_STEPS = `steps:
  read:
    kind: read
    goal: Read the file
    tool: reader
    output: text
  write:
    kind: write
    needs: [read]
    goal: Write the summary
    tool: writer
    risk: write
    with: { body: "\${{ steps.read.output }}" }
`;

/** A plan that compiles with no diagnostics. */
export const TINY_PLAN = TINY_HEADER + TINY_STEPS;

/** Reports every step, at the step (no path) or at a path below it. */
export function stepRule(id: string, opts: { path?: string[]; severity?: "error" | "warning" | "info" } = {}): Rule {
  return defineRule({
    id,
    meta: { description: "test rule", defaultSeverity: opts.severity ?? "warning", messages: { seen: 'step "{{step}}" seen' } },
    check(ctx) {
      for (const n of ctx.ir.nodes) ctx.report({ messageId: "seen", node: n.id, data: { step: n.id }, ...(opts.path ? { path: opts.path } : {}) });
    },
  });
}
