/**
 * Plans the crash sweeps and journal attacks share (test/cli/journal-attack.test.ts,
 * test/runtime/pg-crash-sweep.test.ts), run with TEST_TOOLS.
 */

/** `big`'s output (over 64 bytes) is stored as a file; `pay` waits for a person, then pays once per key. */
export const GATED_PLAN = `planspec: 1
name: gated
goal: Load a long text, wait for a person, pay, echo it back (a keyed output stored durably as a file)
tools: { echo: { risk: read }, ledger: { risk: external } }
limits: { max_tool_calls: 30 }
steps:
  big: { kind: read, goal: Load, tool: echo, with: { text: "${"x".repeat(200)}" }, output: big }
  pay: { kind: external, goal: Pay, needs: [big], tool: ledger, risk: external, idempotency_key: "\${{ run.id }}:pay", with: { entry: 9 }, output: paid, approval: { required: true, approvers: [ops] } }
  after: { kind: analyze, goal: Echo, needs: [pay], tool: echo, idempotency_key: "after", with: { t: "\${{ steps.big.output.text }}" }, output: echoed }
`;

/** Four read steps in a chain: a run killed after its fourth write has a snapshot and three records. */
export const CHAIN_PLAN = `planspec: 1
name: chain
goal: Four echoes
tools: { echo: { risk: read } }
limits: { max_tool_calls: 10 }
steps:
  a: { kind: read, goal: A, tool: echo, with: { n: 1 }, output: a }
  b: { kind: read, goal: B, needs: [a], tool: echo, with: { n: 2 }, output: b }
  c: { kind: read, goal: C, needs: [b], tool: echo, with: { n: 3 }, output: c }
  d: { kind: read, goal: D, needs: [c], tool: echo, with: { n: 4 }, output: d }
`;
