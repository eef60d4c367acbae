/** Plans generated for the rendering tests. */

const KINDS = ["read", "search", "analyze", "decide", "verify", "write", "external", "summarize", "approval", "analyze"] as const;
const RISK_OF: Record<string, string> = { write: "write", external: "external" };

/** A seeded generator, so a failing layout can be reproduced. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * A plan of `n` steps: each needs one to three earlier steps, reads some of their
 * outputs, and every kind, risk, approval gates and a phase appear.
 */
export function generatedPlan(n: number, seed = 7): string {
  const rand = rng(seed);
  const lines = [
    "planspec: 1",
    `name: generated-${n}`,
    `goal: A generated plan of ${n} steps for layout tests`,
    "limits: { max_tool_calls: 1000 }",
    "tools:",
    "  t_read: { risk: read }",
    "  t_write: { risk: write }",
    "  t_ext: { risk: external }",
    "steps:",
  ];
  for (let i = 0; i < n; i++) {
    const id = `step_${String(i).padStart(2, "0")}_${["fetch", "check", "merge", "publish", "score"][i % 5]}`;
    const kind = i === n - 1 ? "phase" : KINDS[i % KINDS.length]!;
    lines.push(`  ${id}:`, `    kind: ${kind}`, `    goal: Step ${i} does its part of the work`);
    if (kind === "phase") lines.push("    expand: planner", "    max_steps: 5");
    else lines.push(`    tool: ${kind === "write" ? "t_write" : kind === "external" ? "t_ext" : "t_read"}`);
    if (RISK_OF[kind]) lines.push(`    risk: ${RISK_OF[kind]}`);
    if (kind !== "phase") lines.push(`    output: out_${i}`);
    if (kind === "external") lines.push("    approval: { required: true, approvers: [lead] }", `    idempotency_key: "k-${i}"`);
    if (i > 0) {
      const needs = new Set<number>([i - 1 - Math.floor(rand() * Math.min(i, 6))]);
      const extra = Math.floor(rand() * 3);
      for (let k = 0; k < extra; k++) needs.add(Math.floor(rand() * i));
      const ids = [...needs].sort((a, b) => a - b).map((j) => `step_${String(j).padStart(2, "0")}_${["fetch", "check", "merge", "publish", "score"][j % 5]}`);
      lines.push(`    needs: [${ids.join(", ")}]`);
      if (kind !== "phase") lines.push(`    with: { input: "\${{ steps.${ids[0]}.output }}" }`);
    }
  }
  return lines.join("\n") + "\n";
}
