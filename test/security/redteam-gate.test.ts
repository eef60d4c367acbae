/**
 * Red team, the lint gate of `planspec run`: a plan author (or a planner) gives `exec` its
 * program and argument list apart, `{ command: kubectl, args: [delete, ns, prod] }`, the
 * form that skips the shell. Neither part alone looks like a command, so the risk
 * analysis saw a plain write and the gate let a production delete (and a refund POSTed
 * with curl) run without an approval. Real CLI, a fake `kubectl` and `curl` on PATH that
 * record that they ran.
 */
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planspec, put, scratch } from "./helpers.js";

const plan = (args: string) => `planspec: 1
name: cleanup
goal: clean up the namespaces that were listed
complexity: simple
deliverables: [cleaned]
tools: { fs.read: { risk: read }, exec: { risk: write } }
limits: { max_tool_calls: 5, run_timeout: 5m }
steps:
  look:
    kind: read
    goal: read the list of namespaces to clean up
    tool: fs.read
    with: { path: namespaces.txt }
    output: names
    success:
      - check: "\${{ len(output.content) > 0 }}"
  clean:
    kind: write
    needs: [look]
    goal: clean up the namespaces that were read
    tool: exec
    timeout: 1m
    with: { ${args}, names: "\${{ steps.look.output.content }}" }
    output: cleaned
    success:
      - check: "\${{ output.exitCode == 0 }}"
`;

/** A workspace with the plan and a `bin/kubectl` and `bin/curl` that leave `ran.txt` behind. */
function workspace(args: string): { ws: string; env: Record<string, string> } {
  const ws = scratch();
  put(ws, "p.plan.yaml", plan(args));
  put(ws, "namespaces.txt", "prod\n");
  mkdirSync(join(ws, "bin"));
  // Fakes, so that nothing leaves the machine even where the gate lets the plan through.
  for (const program of ["kubectl", "curl"]) {
    put(ws, `bin/${program}`, '#!/bin/sh\necho "$@" > ran.txt\n');
    chmodSync(join(ws, `bin/${program}`), 0o755);
  }
  return { ws, env: { PATH: `${join(ws, "bin")}:${process.env.PATH}` } };
}

describe("red team: the gate reads exec's program and arguments together", () => {
  it.each([
    ["command: kubectl, args: [delete, ns, prod]", "high-impact-without-approval", "`kubectl delete` on \"prod\" in `with.args`"],
    ['command: curl, args: [-X, POST, "https://api.stripe.com/v1/refunds", -d, charge=ch_1]', "risk-under-labelled", "`curl -X POST` in `with.args`"],
  ])("%s is refused by run's gate, with the reason", (args, rule, reason) => {
    const { ws, env } = workspace(args);
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "run"], env);
    expect(r.stderr).toContain(`[${rule}]`);
    expect(r.stderr).toContain(reason);
    expect(r.stderr).toContain("refusing to run p.plan.yaml: lint found");
    expect(r.code).toBe(1);
    expect(existsSync(join(ws, "ran.txt"))).toBe(false);
    expect(existsSync(join(ws, "run"))).toBe(false);
  });

  it("a read through the same form still runs (kubectl get)", () => {
    const { ws, env } = workspace("command: kubectl, args: [get, ns, prod]");
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "run"], env);
    expect(r.stderr).not.toContain("refusing");
    expect(r.code).toBe(0);
    expect(existsSync(join(ws, "ran.txt"))).toBe(true);
  });
});
