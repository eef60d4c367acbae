import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ImportWriteError, importTaskBench } from "../../src/eval/taskbench/importer.js";
import { parseToolDesc } from "../../src/eval/taskbench/tool-desc.js";

const desc = parseToolDesc({ nodes: [{ id: "Text Search", desc: "Searches.", "input-type": ["text"], "output-type": ["text"] }] });
if (!desc.ok) throw new Error(desc.reason);
const toolDesc = desc.tools;
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "planspec-tbimport-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const line = (id: string) => JSON.stringify({ id, user_request: "find", result: { task_steps: [], task_nodes: [{ task: "Text Search", arguments: ["q"] }] } });

describe("importTaskBench", () => {
  it("creates nested output directories and reads CRLF files with blank lines", () => {
    const out = join(tempDir(), "a", "b");
    const summary = importTaskBench(`${line("1")}\r\n\r\n${line("2")}\r\n`, { outDir: out, toolDesc });
    expect(summary).toMatchObject({ imported: 2, rejected: [], notes: [] });
    expect(readdirSync(out).sort()).toEqual(["1.plan.json", "2.plan.json"]);
    expect(JSON.parse(readFileSync(join(out, "1.plan.json"), "utf8")).name).toBe("taskbench-1");
  });

  it("reports progress over the non-blank lines, ending with the total", () => {
    const calls: Array<[number, number]> = [];
    const text = ["1", "2", "3", "4", "5"].map(line).join("\n\n");
    importTaskBench(text, { outDir: tempDir(), toolDesc, progressEvery: 2, onProgress: (d, t) => calls.push([d, t]) });
    expect(calls).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
  });

  it("rejects a repeated id instead of overwriting the first plan", () => {
    const out = tempDir();
    const second = JSON.stringify({ id: "1", user_request: "other", result: { task_nodes: [{ task: "Text Search", arguments: [] }] } });
    const summary = importTaskBench(`${line("1")}\n${second}\n`, { outDir: out, toolDesc });
    expect(summary.rejected).toEqual([{ line: 2, id: "1", reason: "duplicate id (first on line 1)" }]);
    expect(JSON.parse(readFileSync(join(out, "1.plan.json"), "utf8")).goal).toBe("find");
  });

  it.skipIf(!existsSync("/proc/self"))("fails with a message, not a hang, for a directory that cannot exist", () => {
    expect(() => importTaskBench(line("1"), { outDir: "/proc/planspec-nope/x", toolDesc })).toThrow(ImportWriteError);
  });
});
