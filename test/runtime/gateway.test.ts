import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startRun } from "../../src/runtime/run.js";
import { plan, readEvents, readState, tempDir, TEST_TOOLS, writeFile } from "./helpers.js";

function setup() {
  const ws = tempDir();
  return { ws, tools: writeFile(ws, "tools.mjs", TEST_TOOLS) };
}

const doc = (tools: string, steps: string) => `planspec: 1
name: g
goal: test the gateway
tools: { ${tools} }
limits: { max_tool_calls: 20 }
steps:
${steps}`;

describe("tool gateway", () => {
  it("refuses a tool above the step's risk: a violation event, the tool never runs, the step fails", async () => {
    const { ws, tools } = setup();
    const ir = plan(doc("ledger: { risk: external }", "  s: { kind: analyze, goal: sneak a payment, tool: ledger, risk: read, with: { entry: 1 } }\n"));
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    expect(r.outcome.status).toBe("failed");
    const v = readEvents(r.dir).filter((e) => e.type === "violation");
    expect(v).toHaveLength(1);
    expect(v[0]!.data).toMatchObject({ node: "s", tool: "ledger", reason: expect.stringMatching(/risk external is above the step's risk read/) });
    expect(readEvents(r.dir).some((e) => e.type === "tool.call")).toBe(false);
    expect(readState(r.dir).nodes.s!.attempts).toBe(1);
  });

  it("refuses a nested call to a tool outside the step's allowed tools", async () => {
    const { ws, tools } = setup();
    const ir = plan(doc("sneaky: { risk: read }, add: { risk: read }", "  s: { kind: analyze, goal: call another tool, tool: sneaky, with: { tool: add, args: { a: 1, b: 2 } } }\n"));
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    expect(r.outcome.status).toBe("failed");
    expect(readEvents(r.dir).find((e) => e.type === "violation")!.data.reason).toMatch(/not in its allowed tools \[sneaky\]/);
  });

  it("confines fs tools to the workspace: ../ and symlinks out are refused", async () => {
    const { ws, tools } = setup();
    const outside = tempDir();
    writeFile(outside, "secret.txt", "top secret");
    symlinkSync(outside, join(ws, "link"));
    for (const [i, path] of ["../../etc/passwd", "/etc/passwd", "link/secret.txt"].entries()) {
      const ir = plan(doc("fs.read: { risk: read }", `  s: { kind: read, goal: read a file, tool: fs.read, with: { path: "${path}" } }\n`));
      const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: `run-${i}` });
      expect(r.outcome.status).toBe("failed");
      expect(readEvents(r.dir).find((e) => e.type === "violation")!.data.reason).toMatch(/outside the workspace/);
    }
  });

  it("never writes secrets to events", async () => {
    const { ws, tools } = setup();
    const ir = plan(doc("echo: { risk: read }", `  s: { kind: analyze, goal: echo, tool: echo, with: { api_token: "tok-123456", url: "https://x/?k=hunter2-secret-value" } }\n`));
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run", env: { MY_API_KEY: "hunter2-secret-value" } });
    expect(r.outcome.status).toBe("done");
    const text = JSON.stringify(readEvents(r.dir));
    expect(text).not.toContain("tok-123456");
    expect(text).not.toContain("hunter2-secret-value");
    expect(text).toContain("[redacted]");
  });

  it("refuses to start a plan whose tool has no implementation or whose catalogue under-labels the implementation", async () => {
    const { ws, tools } = setup();
    const missing = plan(doc("nope: { risk: read }", "  s: { kind: analyze, goal: nothing, tool: nope }\n"));
    await expect(startRun({ plan: missing, cwd: ws, inputs: {}, toolModules: [tools], runDir: "r1" })).rejects.toThrow(/tool "nope" has no implementation/);
    const under = plan(doc("fs.write: { risk: read }", "  s: { kind: analyze, goal: write, tool: fs.write, with: { path: a, content: b } }\n"));
    await expect(startRun({ plan: under, cwd: ws, inputs: {}, toolModules: [tools], runDir: "r2" })).rejects.toThrow(/declared risk read .* implementation has risk write/);
  });

  it("runs the built-in fs, csv and template tools", async () => {
    const { ws, tools } = setup();
    writeFile(ws, "in.csv", 'id,name\n1,"Smith, J"\n2,"say ""hi"""\n');
    const ir = plan(doc("csv.read: { risk: read }, template.render: { risk: read }, fs.write: { risk: write }, fs.read: { risk: read }", `  c: { kind: read, goal: read csv, tool: csv.read, with: { path: in.csv }, output: rows }
  t: { kind: analyze, goal: render, needs: [c], tool: template.render, with: { template: "{{n}} rows, first {{first.name}}", values: { n: "\${{ steps.c.output.rows }}", first: "\${{ steps.c.output.records[0] }}" } }, output: text }
  w: { kind: write, goal: write, needs: [t], tool: fs.write, risk: write, with: { path: out/r.txt, content: "\${{ steps.t.output }}" }, output: written }
  r: { kind: read, goal: read back, needs: [w], tool: fs.read, with: { path: out/r.txt }, output: back }
`));
    const r = await startRun({ plan: ir, cwd: ws, inputs: {}, toolModules: [tools], runDir: "run" });
    expect(r.outcome.status).toBe("done");
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(join(ws, "out/r.txt"), "utf8")).toBe("2 rows, first Smith, J");
  });
});
