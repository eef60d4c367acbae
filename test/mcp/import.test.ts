/**
 * `planspec import mcp`: a real server's tools/list becomes a reviewed catalogue with a
 * risk from the MCP annotations, and a plan that imports it compiles with no server
 * running.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../runtime/helpers.js";
import { planspec } from "../cli/run-helpers.js";
import { FIXTURE_SERVER, FS_SERVER, importCatalogue } from "./helpers.js";

describe("planspec import mcp", () => {
  it("maps the real filesystem server's 14 tools to risks by their annotations", () => {
    const dir = tempDir("planspec-mcp-import-");
    const cat = importCatalogue(dir, "files", [FS_SERVER, dir]);
    const risks = Object.fromEntries(Object.entries(cat.tools).map(([name, t]) => [name, t.risk]));
    expect(risks).toEqual({
      "files.create_directory": "write",
      "files.directory_tree": "read",
      "files.edit_file": "write",
      "files.get_file_info": "read",
      "files.list_allowed_directories": "read",
      "files.list_directory": "read",
      "files.list_directory_with_sizes": "read",
      "files.move_file": "write",
      "files.read_file": "read",
      "files.read_media_file": "read",
      "files.read_multiple_files": "read",
      "files.read_text_file": "read",
      "files.search_files": "read",
      "files.write_file": "write",
    });
    const write = cat.tools["files.write_file"]!;
    expect(write.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
    expect((write.input_schema as { required: string[] }).required).toEqual(["path", "content"]);
    expect(write.output_schema).toBeDefined();
  });

  it("prints YAML on stdout: no annotations -> write with a review comment, open world -> external", () => {
    const dir = tempDir("planspec-mcp-import-");
    const r = planspec(dir, ["import", "mcp", "fx", "--", process.execPath, FIXTURE_SERVER]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("# no annotations: risk write assumed (conservative)");
    expect(r.stdout).toMatch(/# no annotations[^\n]*\n\s+fx\.plain:\n\s+risk: write\n/);
    expect(r.stdout).toMatch(/fx\.web:\n\s+risk: external\n/);
    expect(r.stdout).toMatch(/fx\.echo:\n\s+risk: read\n/);
    expect(r.stdout).toContain('description: Tools of MCP server "fx" (planspec-fixture 1.0.0)');
  });

  it("compile reads the catalogue without starting the server: the IR carries the mcp map and the annotations", () => {
    const dir = tempDir("planspec-mcp-import-");
    importCatalogue(dir, "fx", [process.execPath, FIXTURE_SERVER]);
    writeFileSync(
      join(dir, "p.plan.yaml"),
      `planspec: 1\nname: p\ngoal: Echo a word\ndeliverables: [word]\nlimits: { max_tool_calls: 5 }\nmcp:\n  fx: { command: /nonexistent/server, args: [a] }\ntools:\n  import: ./fx.catalog.yaml\nsteps:\n  say:\n    kind: read\n    goal: Echo the word hello\n    tool: fx.echo\n    with: { text: hello }\n    output: word\n    success:\n      - check: \${{ output.echo == "hello" }}\n`,
    );
    const r = planspec(dir, ["compile", "p.plan.yaml", "-o", "p.ir.json"]);
    expect(r.stderr).toMatch(/^wrote p\.ir\.json/);
    expect(r.code).toBe(0);
    const ir = JSON.parse(readFileSync(join(dir, "p.ir.json"), "utf8"));
    expect(ir.mcp).toEqual({ fx: { transport: "stdio", command: "/nonexistent/server", args: ["a"] } });
    expect(ir.tools["fx.echo"].annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(ir.tools["fx.plain"].annotations).toBeUndefined();
    expect(planspec(dir, ["validate", "p.ir.json"]).code).toBe(0);
    const lint = planspec(dir, ["lint", "p.plan.yaml"]);
    expect(lint.stdout).toBe("0 problems in 1 file\n");
    expect(lint.code).toBe(0);
  });

  it("rejects a malformed mcp entry at compile time with a position", () => {
    const dir = tempDir("planspec-mcp-import-");
    writeFileSync(join(dir, "p.plan.yaml"), `planspec: 1\nname: p\ngoal: Echo\nmcp:\n  fx: { command: a, url: "http://x" }\nsteps:\n  say: { kind: read, goal: Echo the word }\n`);
    const r = planspec(dir, ["compile", "p.plan.yaml"]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/p\.plan\.yaml:5:\d+: /);
  });

  it("usage errors are one line with exit code 2", () => {
    const dir = tempDir("planspec-mcp-import-");
    const none = planspec(dir, ["import", "mcp", "fx"]);
    expect(none.stderr).toBe("planspec: no server to import: planspec import mcp fx -- COMMAND ARGS... (or --url URL)\n");
    expect(none.code).toBe(2);
    const bad = planspec(dir, ["import", "mcp", "fx", "--", join(dir, "no-such-server")]);
    expect(bad.stderr).toMatch(/^planspec: cannot start MCP server "fx" \(.*no-such-server\): .*\n$/);
    expect(bad.code).toBe(2);
    const name = planspec(dir, ["import", "mcp", "my-server", "--", "x"]);
    expect(name.stderr).toMatch(/^planspec: server name "my-server" must be an identifier/);
    expect(name.code).toBe(2);
  });
});
