/**
 * A plan on the real filesystem MCP server: it reads a file and writes a report in the
 * server's allowed root. Killed with SIGKILL at every state boundary and resumed, the
 * report is written exactly once and nothing lands outside the root.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../runtime/helpers.js";
import { planspec, ROOT } from "../cli/run-helpers.js";
import { filesBelow, FS_SERVER, importCatalogue, onlyRunDir, toolCalls } from "./helpers.js";

const PLAN = (reportPath: string) => `planspec: 1
name: fs-report
goal: Read the orders file and write a report about it
deliverables: [report]
mcp:
  files:
    command: ${FS_SERVER}
    args: [./root]
tools:
  import: ./files.catalog.yaml
limits: { max_tool_calls: 20, run_timeout: 2m }
steps:
  read:
    kind: read
    goal: Read the orders file
    tool: files.read_text_file
    with: { path: orders.csv }
    output: orders
    success:
      - check: \${{ output.content != "" }}
  write:
    kind: write
    needs: read
    goal: Write the report about the orders
    tool: files.write_file
    with:
      path: ${reportPath}
      content: "# Orders\\n\\n\${{ steps.read.output.content }}"
    idempotency_key: report-\${{ run.id }}
    timeout: 30s
    output: report
    success:
      - evidence: [steps.read.output.content]
  verify:
    kind: verify
    needs: write
    goal: Check the report is listed in the root
    tool: files.list_directory
    with: { path: . }
    success:
      - check: \${{ output.content != "" }}
`;

function project(reportPath = "report.md"): string {
  const dir = tempDir("planspec-mcp-fs-");
  mkdirSync(join(dir, "root"));
  writeFileSync(join(dir, "root/orders.csv"), "id,amount\n1,10\n2,32\n");
  importCatalogue(dir, "files", [FS_SERVER, "./root"]);
  writeFileSync(join(dir, "report.plan.yaml"), PLAN(reportPath));
  return dir;
}

const EXPECTED_REPORT = "# Orders\n\nid,amount\n1,10\n2,32\n";
const FILES = ["files.catalog.yaml", "report.plan.yaml", "root/orders.csv", "root/report.md"];

describe("a plan on @modelcontextprotocol/server-filesystem", () => {
  it("runs: reads, writes the report in the root, verifies", () => {
    const dir = project();
    const r = planspec(dir, ["run", "report.plan.yaml"]);
    expect(r.stdout).toMatch(/: done\n/);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "root/report.md"), "utf8")).toBe(EXPECTED_REPORT);
    expect(filesBelow(dir)).toEqual(FILES);
    expect(toolCalls(onlyRunDir(dir), "files.write_file")).toBe(1);
  });

  it("SIGKILLed at every state boundary and resumed: the report is written once, nothing lands outside the root", () => {
    let killedSomewhere = false;
    let heldForAPerson = false;
    for (let version = 1; version <= 10; version++) {
      const dir = project();
      const first = planspec(dir, ["run", "report.plan.yaml"], { PLANSPEC_FAULT_KILL_AT_STATE_VERSION: String(version) });
      if (first.signal !== "SIGKILL") {
        // The run ended before state version `version`: every boundary has been tried.
        expect(first.code).toBe(0);
        break;
      }
      killedSomewhere = true;
      const runDir = onlyRunDir(dir);
      let resumed = planspec(dir, ["resume", runDir]);
      if (resumed.code === 3) {
        // Killed with the write marked running: the runtime cannot know whether it ran, so a person decides.
        expect(resumed.stdout).toContain('interrupted during "write" (write)');
        expect(toolCalls(runDir, "files.write_file")).toBe(0);
        heldForAPerson = true;
        resumed = planspec(dir, ["resume", runDir, "--rerun-interrupted"]);
      }
      expect(resumed.stdout, `killed at state version ${version}: ${resumed.stderr}`).toMatch(/: done\n/);
      expect(resumed.code).toBe(0);
      expect(toolCalls(runDir, "files.write_file"), `killed at state version ${version}`).toBe(1);
      expect(readFileSync(join(dir, "root/report.md"), "utf8")).toBe(EXPECTED_REPORT);
      expect(filesBelow(dir)).toEqual(FILES);
    }
    expect(killedSomewhere).toBe(true);
    expect(heldForAPerson).toBe(true);
  });

  it("a write outside the allowed root is refused by the server and fails the step; nothing is written", () => {
    const dir = project("../escaped.md");
    const r = planspec(dir, ["run", "report.plan.yaml"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/step "write" failed: files\.write_file: .*(outside|denied|not allowed)/i);
    expect(existsSync(join(dir, "escaped.md"))).toBe(false);
    expect(filesBelow(dir)).toEqual(["files.catalog.yaml", "report.plan.yaml", "root/orders.csv"]);
  });

  it("the shipped example runs in a clone: its committed catalogue still matches the installed server", () => {
    const ws = tempDir("planspec-mcp-example-");
    const r = planspec(ROOT, ["run", "specs/examples/mcp/orders-summary.plan.yaml", "--workspace", ws, "--run-dir", join(ws, ".planspec/run")]);
    expect(r.stdout, r.stderr).toMatch(/: done\n/);
    const summary = readFileSync(join(ws, "orders-summary.md"), "utf8");
    expect(summary).toMatch(/^# Orders\n\nsize: \d+\n/);
    expect(summary).toContain("First lines:\n\norder_id,customer,region,");
    expect(filesBelow(ws)).toEqual(["orders-summary.md"]);
  });
});
