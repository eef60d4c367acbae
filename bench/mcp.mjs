#!/usr/bin/env node
/**
 * What an MCP tool costs at run time: whole-process `planspec run` of a chain of N steps
 * calling a built-in (`template.render`), the SDK fixture server over stdio
 * (`fx.whoami`), and the real filesystem server (`files.read_text_file`). The slope
 * between N=20 and N=200 is the per-call cost; the rest is start-up (the server's spawn,
 * initialize and tools/list, once per run).
 *
 *   npm run build && node bench/mcp.mjs [--runs 5]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { interleave, machine, ms, processTask, table } from "./lib/measure.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "planspec");
const at = process.argv.indexOf("--runs");
const runs = at > 0 ? Number(process.argv[at + 1]) : 5;
const dir = mkdtempSync(join(tmpdir(), "planspec-bench-mcp-"));

const kinds = {
  builtin: { tool: "template.render", with: '{ template: "hi" }', mcp: "", tools: "  template.render: { risk: read }\n" },
  fixture: { tool: "fx.whoami", with: "{}", mcp: `mcp:\n  fx: { command: ${process.execPath}, args: [${join(root, "test/mcp/fixtures/stdio-server.mjs")}] }\n`, tools: "  import: ./fx.catalog.yaml\n" },
  filesystem: { tool: "files.read_text_file", with: "{ path: a.txt }", mcp: `mcp:\n  files: { command: ${join(root, "node_modules/.bin/mcp-server-filesystem")}, args: [./root] }\n`, tools: "  import: ./files.catalog.yaml\n" },
};

function planFile(kind, n) {
  const k = kinds[kind];
  let steps = "";
  for (let i = 0; i < n; i++) steps += `  s${i}:\n    kind: read\n    goal: Call the tool once more\n    tool: ${k.tool}\n    with: ${k.with}\n${i ? `    needs: s${i - 1}\n` : ""}`;
  const file = join(dir, `${kind}-${n}.plan.yaml`);
  writeFileSync(file, `planspec: 1\nname: bench-${kind}\ngoal: Call a tool many times\nlimits: { max_tool_calls: 1000 }\n${k.mcp}tools:\n${k.tools}steps:\n${steps}`);
  return file;
}

try {
  mkdirSync(join(dir, "root"));
  writeFileSync(join(dir, "root/a.txt"), "hello\n");
  execFileSync(process.execPath, [bin, "import", "mcp", "fx", "-o", "fx.catalog.yaml", "--", process.execPath, join(root, "test/mcp/fixtures/stdio-server.mjs")], { cwd: dir, stdio: "ignore" });
  execFileSync(process.execPath, [bin, "import", "mcp", "files", "-o", "files.catalog.yaml", "--", join(root, "node_modules/.bin/mcp-server-filesystem"), "./root"], { cwd: dir, stdio: "ignore" });
  const tasks = {};
  for (const kind of Object.keys(kinds)) for (const n of [20, 200]) tasks[`${kind} ${n}`] = processTask(process.execPath, [bin, "run", planFile(kind, n), "--no-lint-gate", "--concurrency", "1"], { cwd: dir });
  console.log(`# MCP tools at run time\n\n${machine().describe()}\n`);
  const r = interleave(tasks, { warmup: 1, runs });
  console.log(`Whole process \`planspec run\`, a chain of N read steps, median of ${runs} interleaved rounds.\n`);
  const rows = Object.keys(kinds).map((kind) => {
    const a = r[`${kind} 20`];
    const b = r[`${kind} 200`];
    const perStep = (b.wallMs - a.wallMs) / 180;
    return [kind, ms(a.wallMs), ms(b.wallMs), ms(perStep), ms(a.wallMs - 20 * perStep)];
  });
  console.log(table(["tool", "N=20 wall ms", "N=200 wall ms", "per step ms", "fixed ms"], rows));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
