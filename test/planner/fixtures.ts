/** Plans and a catalogue for planner tests, and an async runner of the real CLI (the test's own server must keep serving). */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin } from "../helpers.js";

export const CATALOG = `planspec: 1
tools:
  fs.read: { risk: read, description: Read a file }
  code.search: { risk: read, description: Search the code }
  code.edit: { risk: write, description: Apply a diff }
  tests.run: { risk: write, description: Run the tests }
`;

/** A workspace with the catalogue at tools.catalog.yaml. */
export function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "planspec-planner-"));
  writeFileSync(join(dir, "tools.catalog.yaml"), CATALOG);
  return dir;
}

export const GOAL = "Fix the typo in the README";

/** A plan that compiles and lints without errors against CATALOG. */
export function goodPlan(): Record<string, any> {
  return {
    planspec: 1,
    name: "fix-typo",
    goal: GOAL,
    deliverables: ["patch"],
    complexity: "simple",
    limits: { run_timeout: "10m", max_tool_calls: 20 },
    defaults: { timeout: "1m" },
    steps: {
      read_readme: {
        kind: "read",
        goal: "Read the README to find the typo",
        tool: "fs.read",
        with: { path: "README.md" },
        output: "readme",
        success: [{ check: "${{ len(output.text) > 0 }}" }],
      },
      fix_typo: {
        kind: "write",
        goal: "Fix the typo in the README",
        needs: ["read_readme"],
        tool: "code.edit",
        risk: "write",
        with: { text: "${{ steps.read_readme.output.text }}" },
        output: "patch",
        success: [{ evidence: ["steps.read_readme"] }],
      },
    },
  };
}

/** A plan that only reads: lower risk than goodPlan, and clean too. */
export function readOnlyPlan(): Record<string, any> {
  const p = goodPlan();
  p.name = "find-typo";
  p.deliverables = ["typos"];
  p.steps.fix_typo = {
    kind: "analyze",
    goal: "Find the typo in the README text",
    needs: ["read_readme"],
    tool: "code.search",
    with: { text: "${{ steps.read_readme.output.text }}", pattern: "teh" },
    output: "typos",
    success: [{ check: "${{ exists(output.matches) }}" }],
  };
  return p;
}

/** The good plan with the write step cut off from its evidence (write-without-evidence). */
export function blindWritePlan(): Record<string, any> {
  const p = goodPlan();
  delete p.steps.fix_typo.needs;
  p.steps.fix_typo.with = { text: "fixed" };
  p.steps.fix_typo.success = [{ check: "${{ exists(output.diff) }}" }];
  return p;
}

/** The good plan with a schema violation (an unknown step key). */
export function schemaBadPlan(): Record<string, any> {
  const p = goodPlan();
  p.steps.read_readme.tool_name = "fs.read";
  return p;
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Environment variables the planner reads (and their lower-case forms, for the proxy ones). */
export const PROVIDER_ENV = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "AZURE_OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "ANTHROPIC_BASE_URL",
  "AZURE_OPENAI_ENDPOINT",
  "OPENAI_API_VERSION",
  "OPENAI_ORG_ID",
  "OPENAI_PROJECT_ID",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
];

/** Runs bin/planspec in a child process without blocking this process's event loop. */
export function cliAsync(args: string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const baseEnv: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined };
    // The provider and proxy settings of the machine running the tests must not leak in.
    for (const k of PROVIDER_ENV) baseEnv[k] = baseEnv[k.toLowerCase()] = undefined;
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...baseEnv, ...env } as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
