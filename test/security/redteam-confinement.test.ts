/**
 * Red team, confinement: what a workspace can hold that the path checks do not see — a
 * hard link to a file outside it, a FIFO where a file is expected. Real links, a real
 * FIFO, the real CLI.
 */
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { events, json, planspec, put, scratch } from "./helpers.js";

const plan = (path: string, extra = "") => `planspec: 1
name: links
goal: append a line to a log in the workspace
tools: { fs.write: { risk: write } }
steps:
  log:
    kind: write
    goal: append to the log
    tool: fs.write${extra}
    with: { path: ${path}, content: "APPENDED\\n", append: true }
`;

describe("red team: appends stay inside the workspace", () => {
  it("appending to a hard link of a file outside the workspace is refused; the outside file is unchanged", () => {
    const dir = scratch();
    mkdirSync(join(dir, "ws"));
    mkdirSync(join(dir, "outside"));
    writeFileSync(join(dir, "outside/authorized_keys"), "ssh-ed25519 AAAA owner\n");
    linkSync(join(dir, "outside/authorized_keys"), join(dir, "ws/log.txt"));
    put(dir, "p.plan.yaml", plan("log.txt"));
    const r = planspec(dir, ["run", "p.plan.yaml", "--workspace", "ws", "--run-dir", "run", "--no-lint-gate"]);
    expect(readFileSync(join(dir, "outside/authorized_keys"), "utf8")).toBe("ssh-ed25519 AAAA owner\n");
    expect(r.code).toBe(1);
    const state = json<{ nodes: Record<string, { status: string; lastError?: string }> }>(join(dir, "run/state.json"));
    expect(state.nodes.log!.status).toBe("failed");
    expect(state.nodes.log!.lastError).toMatch(/hard link/);
    expect(events(join(dir, "run")).some((e) => e.type === "violation")).toBe(true);
  });

  it("appending to a FIFO planted in the workspace fails at once instead of blocking the run", () => {
    const dir = scratch();
    mkdirSync(join(dir, "ws"));
    execFileSync("mkfifo", [join(dir, "ws/log.txt")]);
    put(dir, "p.plan.yaml", plan("log.txt", "\n    timeout: 20s"));
    const r = planspec(dir, ["run", "p.plan.yaml", "--workspace", "ws", "--run-dir", "run", "--no-lint-gate"]);
    expect(r.code).toBe(1);
    const state = json<{ nodes: Record<string, { lastError?: string }> }>(join(dir, "run/state.json"));
    expect(state.nodes.log!.lastError).toMatch(/not a regular file/);
  });

  it("a path longer than PATH_MAX is refused before anything is created (it left 2,042 nested directories)", () => {
    const dir = scratch();
    mkdirSync(join(dir, "ws"));
    const deep = `${"a/".repeat(3000)}x.txt`;
    put(dir, "p.plan.yaml", `planspec: 1
name: deep
goal: write a deep file
tools: { fs.write: { risk: write } }
steps:
  w:
    kind: write
    goal: write it
    tool: fs.write
    with: { path: "${deep}", content: x }
`);
    const r = planspec(dir, ["run", "p.plan.yaml", "--workspace", "ws", "--run-dir", "run", "--no-lint-gate"]);
    expect(r.code).toBe(1);
    const state = json<{ nodes: Record<string, { lastError?: string }> }>(join(dir, "run/state.json"));
    expect(state.nodes.w!.lastError).toMatch(/is longer than 4096 bytes/);
    expect(readdirSync(join(dir, "ws"))).toEqual([]);
  });
});
