/** `planspec import taskbench` as a user runs it: a real child process on real files. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = resolve(import.meta.dirname, "../..");
const bin = join(repoRoot, "bin/planspec");

function planspec(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const toolDesc = {
  nodes: [
    { id: "Image Downloader", desc: "Downloads an image from a given URL.", "input-type": ["url"], "output-type": ["image"] },
    { id: "Image-to-Text", desc: "Extracts text from an input image.", "input-type": ["image"], "output-type": ["text"] },
  ],
};

const plan = (id: string, nodes: unknown) => JSON.stringify({ id, user_request: `request ${id}`, result: { task_steps: [], task_nodes: nodes } });

const lines = [
  plan("101", [
    { task: "Image Downloader", arguments: ["https://x/a.png"] },
    { task: "Image-to-Text", arguments: ["<node-0>"] },
  ]),
  plan("102", [{ task: "Image-to-Text", arguments: ["<node-0>"] }]),
  "",
  '{"id": "103", "user_request": "broken',
  JSON.stringify({ id: "104", user_request: "no result" }),
  plan("105", []),
  plan("101", [{ task: "Image-to-Text", arguments: ["a.png"] }]),
  plan("106", [{ task: "Photo Magic", arguments: ["a.png"] }]),
];

let dir: string;

beforeAll(() => {
  if (!existsSync(join(repoRoot, "dist/cli/import.js"))) throw new Error("dist/ is missing: run `npm run build` before the CLI tests");
  dir = mkdtempSync(join(tmpdir(), "planspec-import-"));
  writeFileSync(join(dir, "tool_desc.json"), JSON.stringify(toolDesc));
  writeFileSync(join(dir, "pred.jsonl"), `${lines.join("\n")}\n`);
  writeFileSync(join(dir, "good.jsonl"), `${lines[0]}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("planspec import taskbench", () => {
  it("writes one plan file per convertible line and lists the rejected lines", () => {
    const r = planspec(["import", "taskbench", "pred.jsonl", "--tools", "tool_desc.json", "--out", "plans"], dir);
    expect(r.stdout).toBe(
      "imported 3 plans to plans (4 rejected)\n" +
        "written with notes (the compiler reports most): self-reference 1, unknown-tool 1\n",
    );
    expect(r.stderr.split("\n")).toEqual([
      expect.stringMatching(/^line 4: not valid JSON \(.+\)$/),
      'line 5 (id 104): missing "result"',
      'line 6 (id 105): "task_nodes" is empty',
      "line 7 (id 101): duplicate id (first on line 1)",
      "",
    ]);
    expect(r.status).toBe(1);
    expect(readdirSync(join(dir, "plans")).sort()).toEqual(["101.plan.json", "102.plan.json", "106.plan.json"]);

    const doc = JSON.parse(readFileSync(join(dir, "plans/101.plan.json"), "utf8"));
    expect(doc).toMatchObject({
      planspec: 1,
      name: "taskbench-101",
      goal: "request 101",
      "x-planspec-import": { format: "taskbench", cannot_express: ["success", "deliverables"] },
      tools: { "Image Downloader": { risk: "read" }, "Image-to-Text": { risk: "read" } },
      steps: { node_1: { tool: "Image-to-Text", needs: ["node_0"], with: { args: ["${{ steps.node_0.output }}"] } } },
    });
    // The self-reference and the unknown tool are kept for the compiler to report.
    const selfRef = JSON.parse(readFileSync(join(dir, "plans/102.plan.json"), "utf8"));
    expect(selfRef.steps.node_0.needs).toEqual(["node_0"]);
    const unknown = JSON.parse(readFileSync(join(dir, "plans/106.plan.json"), "utf8"));
    expect(unknown.steps.node_0.tool).toBe("Photo Magic");
    expect(unknown.tools).toEqual({});
  });

  it("prints a machine summary with --json", () => {
    const r = planspec(["import", "taskbench", "pred.jsonl", "--tools", "tool_desc.json", "--out", "plans-json", "--json"], dir);
    expect(r.status).toBe(1);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({
      out: join(dir, "plans-json"),
      imported: 3,
      rejected: 4,
      noteCounts: { "self-reference": 1, "unknown-tool": 1 },
    });
    expect(summary.rejections.map((x: { line: number }) => x.line)).toEqual([4, 5, 6, 7]);
    expect(summary.notes).toContainEqual({ line: 8, id: "106", kind: "unknown-tool", node: 0, message: 'node 0 calls "Photo Magic", which is not in tool_desc' });
  });

  it("lists malformed plans that were written with --verbose", () => {
    const r = planspec(["import", "taskbench", "pred.jsonl", "--tools", "tool_desc.json", "--out", "plans-v", "--verbose"], dir);
    expect(r.stderr).toContain("line 2 (id 102): self-reference: node 0 uses its own output <node-0>\n");
  });

  it("exits 0 when every line converts", () => {
    const r = planspec(["import", "taskbench", "good.jsonl", "--tools", "tool_desc.json", "--out", "good"], dir);
    expect(r).toEqual({ status: 0, stdout: "imported 1 plan to good (0 rejected)\n", stderr: "" });
  });

  it.each([
    [["missing.jsonl", "--tools", "tool_desc.json", "--out", "o"], /^planspec: cannot read predictions .*missing\.jsonl: no such file\n$/],
    [["pred.jsonl", "--tools", "pred.jsonl", "--out", "o"], /^planspec: pred\.jsonl is not valid JSON: .+\n$/],
    [["pred.jsonl", "--tools", "good.jsonl", "--out", "o"], /^planspec: good\.jsonl is not a TaskBench tool_desc\.json: expected .+\n$/],
    [["pred.jsonl", "--tools", "tool_desc.json", "--out", "tool_desc.json"], /^planspec: cannot write .*tool_desc\.json: it is a file, not a directory\n$/],
    [["pred.jsonl", "--out", "o"], /required option '--tools <tool_desc\.json>' not specified/],
  ])("reports a usage error in one line with exit 2: %j", (args, message) => {
    const r = planspec(["import", "taskbench", ...args], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("documents itself in --help with examples", () => {
    const r = planspec(["import", "taskbench", "--help"], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Usage: planspec import taskbench [options] <predictions>");
    expect(r.stdout).toContain("$ planspec import taskbench predictions.jsonl --tools tool_desc.json --out plans/");
  });
});
