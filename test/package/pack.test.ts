/**
 * The packed-install test: `npm pack` this repository, install the tarball into a fresh
 * project as a user would, and use it there — the CLI through `npx planspec`, the library
 * from JavaScript, and its type declarations from TypeScript. One pack per file.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../helpers.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const tsc = join(repoRoot, "node_modules/.bin/tsc");
let dir: string;
let project: string;
let files: string[];

function run(cmd: string, args: string[], cwd = project) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false" }, timeout: 180_000 });
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "planspec-pack-"));
  // dist/ is fresh (npm test's pretest builds it); --ignore-scripts keeps this test from
  // rebuilding dist/ under the feet of test files running beside it.
  const out = execFileSync(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], { cwd: repoRoot, encoding: "utf8" });
  const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  files = info!.files.map((f) => f.path);
  project = join(dir, "app");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  const r = run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", join(dir, info!.filename)]);
  if (r.status !== 0) throw new Error(`npm install of the tarball failed:\n${r.stderr}`);
}, 240_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("ships what runs and nothing of the repository's own tests", () => {
    for (const f of ["bin/planspec", "dist/cli/main.js", "dist/index.js", "dist/index.d.ts", "dist/tools.js", "dist/tools.d.ts", "schemas/planspec.schema.json", "schemas/plan-ir.schema.json", "schemas/state.schema.json", "specs/examples/csv-anomalies.plan.yaml", "README.md", "package.json"]) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => f.startsWith("test/") || f.startsWith("src/") || f.startsWith("bench/"))).toEqual([]);
  });

  it("npx planspec --version prints the package version", () => {
    const r = run("npx", ["--no-install", "planspec", "--version"]);
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version);
    expect(r.status).toBe(0);
  });

  it("npx planspec lint passes the shipped example and fails a bad plan with a position", () => {
    const example = join(project, "node_modules/planspec/specs/examples/csv-anomalies.plan.yaml");
    const ok = run("npx", ["--no-install", "planspec", "lint", example]);
    expect(ok.stdout).toContain("0 problems in 1 file");
    expect(ok.status).toBe(0);
    writeFileSync(
      join(project, "bad.plan.yaml"),
      "planspec: 1\nname: bad\ngoal: Write a report\ntools:\n  fs.write: { risk: write }\nsteps:\n  write:\n    kind: write\n    goal: Write the report file\n    tool: fs.write\n    risk: read\n",
    );
    const bad = run("npx", ["--no-install", "planspec", "lint", "bad.plan.yaml"]);
    expect(bad.stdout).toMatch(/bad\.plan\.yaml:\d+:\d+: .*\[risk-under-labelled\]/);
    expect(bad.status).toBe(1);
  });

  it("the library runs in-process from JavaScript", () => {
    writeFileSync(
      join(project, "use.mjs"),
      `import { compile, lint } from "planspec";\nimport { defineTool } from "planspec/tools";\n` +
        `const r = compile("bad.plan.yaml");\nconsole.log(r.ir.name, lint(r).filter((d) => d.code === "risk-under-labelled").map((d) => d.line).join(","));\n` +
        `console.log(defineTool({ risk: "read", run: () => 1 }).risk);\n`,
    );
    const r = run(process.execPath, ["use.mjs"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("bad 11\nread\n");
  });

  it("type-checks TypeScript that imports the API, and rejects misuse", () => {
    const tsconfig = {
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: false, types: ["node"], typeRoots: [join(repoRoot, "node_modules/@types")] },
    };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
    writeFileSync(
      join(project, "good.ts"),
      [
        `import { compile, lint, lintFiles, gate, GateError, LintFilesError, openStore, StoreError, run, resume, approve, plan, evaluate, type PlanIR, type Diagnostic, type CompileResult, type GateResult, type LintFilesResult, type OpenedRun } from "planspec";`,
        `import { defineTool, ToolError, type ToolContext, type Risk } from "planspec/tools";`,
        `const result: CompileResult = compile("bad.plan.yaml");`,
        `const ir: PlanIR | undefined = result.ir;`,
        `const found: Diagnostic[] = ir ? lint(ir) : [];`,
        `const risk: Risk = "write";`,
        `export const tool = defineTool<{ text: string }>({ risk, run(args, ctx: ToolContext) { if (!args.text) throw new ToolError("empty"); return { n: args.text.length, step: ctx.stepId }; } });`,
        `const linted: LintFilesResult = lintFiles(["."], { rules: { "unused-output": "off" }, minConfidence: "high", errorsOnly: true });`,
        `const verdict: GateResult = gate("bad.plan.yaml", { inlineConfig: false });`,
        `const refused: PlanIR | undefined = verdict.refused === "lint" ? undefined : verdict.ir;`,
        `export async function gated(): Promise<string> { const opened: OpenedRun = await openStore("r1", { store: "postgres://localhost/x" }); try { return (await resume(opened.store, { lintGate: false })).outcome.status; } finally { await opened.close(); } }`,
        `export const run1 = () => run({ plan: "bad.plan.yaml", lintGate: true, inlineConfig: false }).catch((e: unknown) => (e instanceof GateError ? e.result.errors.length : e instanceof LintFilesError || e instanceof StoreError ? -1 : 0));`,
        `export const fns = [run, resume, approve, plan, evaluate, found.length, linted.errors, refused] as const;`,
        "",
      ].join("\n"),
    );
    const good = run(tsc, ["-p", "."]);
    expect(good.stdout + good.stderr).toBe("");
    expect(good.status).toBe(0);
    writeFileSync(
      join(project, "misuse.ts"),
      `import { compile, lintFiles } from "planspec";\nimport { defineTool } from "planspec/tools";\ncompile(42);\ndefineTool({ risk: "dangerous", run: () => 1 });\nlintFiles(["."], { rules: { "unused-output": "warn" } });\n`,
    );
    const bad = run(tsc, ["-p", "."]);
    expect(bad.stdout).toMatch(/misuse\.ts\(3,9\): error TS2345/);
    expect(bad.stdout).toMatch(/misuse\.ts\(4,14\): error TS2322/);
    expect(bad.stdout).toMatch(/misuse\.ts\(5,29\): error TS2322/);
    expect(bad.status).not.toBe(0);
  });
});
