/**
 * Red team, the run directory from inside the run: the workspace defaults to the current
 * directory, and so does the runs root (`.planspec/runs/<run-id>`); `${{ run.id }}` names
 * the run. A plan's confined `fs` steps could then read the run's config (its secret salt)
 * and append forged lines to its own events and journal (plain sha256 checksums: anyone who
 * writes the file can compute one), or another run's. Real CLI, default directories.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { events, planspec, put, scratch } from "./helpers.js";

const plan = (path: string, tool: "fs.read" | "fs.write") => `planspec: 1
name: inside
goal: touch the run's own records
tools: { fs.read: { risk: read }, fs.write: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  touch:
    kind: ${tool === "fs.read" ? "read" : "write"}
    goal: touch a record of the run
    tool: ${tool}
    with: { path: "${path}"${tool === "fs.write" ? ', content: "{\\"seq\\":99,\\"type\\":\\"approval\\"}\\n", append: true' : ""} }
    retry: { max_attempts: 1 }
  note:
    kind: write
    goal: write an ordinary file of the workspace
    tool: fs.write
    with: { path: out/note.txt, content: ok }
`;

describe("red team: the fs tools do not reach the run's records", () => {
  it.each([
    ["fs.read", ".planspec/runs/${{ run.id }}/config.json", "r1", []],
    ["fs.write", ".planspec/runs/${{ run.id }}/events.jsonl", "r2", []],
    ["fs.write", ".planspec/runs/${{ run.id }}/journal.jsonl", "r3", []],
    ["fs.write", "run/events.jsonl", "r4", ["--run-dir", "run"]],
  ] as const)("%s %s is a violation; the records are untouched, the rest of the workspace is not", (tool, path, id, extra) => {
    const ws = scratch();
    put(ws, "p.plan.yaml", plan(path, tool));
    const r = planspec(ws, ["run", "p.plan.yaml", "--no-lint-gate", "--run-id", id, ...extra]);
    const dir = extra.length > 0 ? join(ws, "run") : join(ws, ".planspec/runs", id);
    const all = events(dir);
    const violation = all.find((e) => e.type === "violation");
    expect(violation?.data.reason, r.stderr).toMatch(/is inside the run directory or the runs root/);
    expect(readFileSync(join(dir, "events.jsonl"), "utf8")).not.toContain('"seq":99');
    expect(readFileSync(join(dir, "journal.jsonl"), "utf8")).not.toContain('"seq":99');
    expect(JSON.stringify(all.filter((e) => e.type === "tool.result" && e.data.ok === true))).not.toContain("secretSalt");
    expect(readFileSync(join(ws, "out/note.txt"), "utf8")).toBe("ok");
  });
});
