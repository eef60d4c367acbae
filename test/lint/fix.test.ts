/**
 * `planspec lint --fix` round trips: the fixed file no longer has the finding, keeps every
 * comment, and compiles; `--fix-dry-run` prints the golden diff and writes nothing; SARIF
 * carries the same fixes.
 */
import { lstatSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findingsOf, fixSource } from "../../src/lint/fix.js";
import { cli, repoRoot } from "../helpers.js";

const FIXABLE = new Set(["PS127", "side-effect-without-idempotency-key", "unbounded-loop", "redundant-dependency", "risk-under-labelled"]);

const comments = (text: string) => text.split("\n").filter((l) => l.includes("#")).map((l) => l.slice(l.indexOf("#")));
const codes = (file: string, text: string) => findingsOf(file, text, { cwd: repoRoot }).findings.map((f) => f.diagnostic.code);

function copyToTemp(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "planspec-fix-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("lint --fix on specs/fix", () => {
  const cases = readdirSync(join(repoRoot, "specs/fix")).filter((f) => f.endsWith(".plan.yaml")).sort();

  for (const name of cases) {
    it(`${name}: --fix-dry-run prints the golden diff; --fix leaves no fixable finding and keeps comments`, () => {
      const original = readFileSync(join(repoRoot, "specs/fix", name), "utf8");
      expect(codes(`specs/fix/${name}`, original).some((c) => FIXABLE.has(c))).toBe(true);
      const dir = copyToTemp({ [name]: original });

      const dry = cli(["lint", name, "--fix-dry-run"], { cwd: dir });
      expect(dry.status).toBe(0);
      expect(dry.stdout).toBe(readFileSync(join(repoRoot, "specs/fix", name.replace(/\.plan\.yaml$/, ".diff")), "utf8"));
      expect(readFileSync(join(dir, name), "utf8")).toBe(original);

      const fixed = cli(["lint", name, "--fix"], { cwd: dir });
      const after = readFileSync(join(dir, name), "utf8");
      expect(after).not.toBe(original);
      expect(fixed.stderr).toMatch(new RegExp(`^fixed ${name.replace(/\./g, "\\.")}: \\d+ fix`));
      expect(fixed.stdout).toBe("0 problems in 1 file\n");
      expect(fixed.status).toBe(0);
      expect(comments(after)).toEqual(comments(original));
      // A second --fix has nothing left to do.
      expect(cli(["lint", name, "--fix"], { cwd: dir }).stderr).toBe("");
    });
  }
});

describe("fixes on the lint golden cases (flow style)", () => {
  const cases: Array<[string, string]> = [
    ["specs/lint/err/unbounded-loop.plan.yaml", "unbounded-loop"],
    ["specs/lint/err/redundant-dependency.plan.yaml", "redundant-dependency"],
    ["specs/lint/err/risk-under-labelled.plan.yaml", "risk-under-labelled"],
    ["specs/lint/err/side-effect-without-idempotency-key.plan.yaml", "side-effect-without-idempotency-key"],
  ];
  for (const [file, rule] of cases) {
    it(`${rule}: the finding is gone, the file still compiles and keeps its comments`, () => {
      const text = readFileSync(join(repoRoot, file), "utf8");
      expect(codes(file, text)).toContain(rule);
      const fixed = fixSource(file, text, { cwd: repoRoot });
      expect(fixed.applied.map((f) => f.code)).toContain(rule);
      const left = codes(file, fixed.text);
      expect(left).not.toContain(rule);
      expect(left.filter((c) => c.startsWith("PS"))).toEqual([]);
      expect(comments(fixed.text)).toEqual(comments(text));
    });
  }
});

describe("lint --fix in the file system and in SARIF", () => {
  it("writes through a symlinked plan, leaving the link in place", () => {
    const text = readFileSync(join(repoRoot, "specs/fix/missing-needs.plan.yaml"), "utf8");
    const dir = copyToTemp({ "real.yaml": text });
    symlinkSync(join(dir, "real.yaml"), join(dir, "link.plan.yaml"));
    expect(cli(["lint", "link.plan.yaml", "--fix"], { cwd: dir }).status).toBe(0);
    expect(lstatSync(join(dir, "link.plan.yaml")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "real.yaml"), "utf8")).toContain("    needs: [read_notes]\n");
  });

  it("SARIF results carry the fix as artifact changes", () => {
    const r = cli(["lint", "specs/lint/err/side-effect-without-idempotency-key.plan.yaml", "--format", "sarif"]);
    const log = JSON.parse(r.stdout) as { runs: Array<{ results: Array<{ ruleId: string; fixes?: unknown[] }> }> };
    const result = log.runs[0]!.results.find((x) => x.ruleId === "side-effect-without-idempotency-key")!;
    expect(result.fixes).toEqual([
      {
        description: { text: 'add idempotency_key to step "page"' },
        artifactChanges: [
          {
            artifactLocation: { uri: "specs/lint/err/side-effect-without-idempotency-key.plan.yaml" },
            replacements: [{ deletedRegion: { startLine: 24, startColumn: 21, endLine: 24, endColumn: 21 }, insertedContent: { text: '\n    idempotency_key: "${{ run.id }}:page"' } }],
          },
        ],
      },
    ]);
  });
});

describe("fixes in other layouts", () => {
  it("CRLF files keep CRLF line ends", () => {
    const file = "specs/fix/all-fixes.plan.yaml";
    const text = readFileSync(join(repoRoot, file), "utf8").replace(/\n/g, "\r\n");
    const fixed = fixSource(file, text, { cwd: repoRoot });
    expect(fixed.applied.length).toBeGreaterThanOrEqual(6);
    expect(codes(file, fixed.text).filter((c) => FIXABLE.has(c))).toEqual([]);
    expect(fixed.text.replace(/\r\n/g, "")).not.toContain("\n");
    expect(comments(fixed.text.replace(/\r/g, ""))).toEqual(comments(text.replace(/\r/g, "")));
  });

  it("flow-style steps get their keys inside the braces", () => {
    const file = "flow.plan.yaml";
    const text = [
      "planspec: 1",
      "name: flow",
      "goal: Page the on-call engineer when the error rate is high.",
      "tools: { metrics.query: { risk: read }, pager.send: { risk: external } }",
      "limits: { run_timeout: 10m }",
      "steps:",
      '  read_rate: { kind: read, goal: Query the error rate of the service, tool: metrics.query, output: rate, success: [{ check: "${{ output.value >= 0 }}" }] }',
      '  page: { kind: external, needs: [read_rate], goal: Page the on-call engineer now, tool: pager.send, approval: { required: true, approvers: [sre], timeout: 15m }, success: [{ check: "${{ exists(output.id) }}" }] } # the pager',
      "",
    ].join("\n");
    expect(codes(file, text)).toContain("side-effect-without-idempotency-key");
    const fixed = fixSource(file, text, { cwd: repoRoot });
    expect(fixed.text).toContain('timeout: 15m }, success: [{ check: "${{ exists(output.id) }}" }], idempotency_key: "${{ run.id }}:page" } # the pager\n');
    expect(codes(file, fixed.text)).not.toContain("side-effect-without-idempotency-key");
  });
});

describe("fixes that would make things worse are not offered", () => {
  it("a step reading a step that needs it gets no `needs` fix (that would be a cycle)", () => {
    const file = "cycle.plan.yaml";
    const text = [
      "planspec: 1",
      "name: cycle",
      "goal: Read a file and check it.",
      "tools: { fs.read: { risk: read } }",
      "limits: { run_timeout: 10m }",
      "steps:",
      "  first:",
      "    kind: read",
      "    goal: Read the file the check looks at",
      "    tool: fs.read",
      '    with: { path: "${{ steps.second.output.path }}" }',
      "    output: a",
      "  second:",
      "    kind: verify",
      "    needs: [first]",
      "    goal: Check the file that was read",
      "    tool: fs.read",
      "    output: b",
      "",
    ].join("\n");
    expect(codes(file, text)).toContain("PS127");
    const fixed = fixSource(file, text, { cwd: repoRoot });
    expect(fixed.applied).toEqual([]);
    expect(fixed.text).toBe(text);
  });
});

describe("a retry bound inherited from defaults", () => {
  it("is added to defaults.retry once, for every step that inherits it", () => {
    const file = "retry.plan.yaml";
    const text = [
      "planspec: 1",
      "name: retry",
      "goal: Read two files.",
      "tools: { fs.read: { risk: read } }",
      "limits: { run_timeout: 10m }",
      "defaults:",
      "  retry: { backoff: fixed } # no bound yet",
      "steps:",
      "  a: { kind: read, goal: Read the first file now, tool: fs.read, output: x }",
      "  b: { kind: read, needs: [a], goal: Read the second file now, tool: fs.read, output: y }",
      "",
    ].join("\n");
    const before = findingsOf(file, text, { cwd: repoRoot }).findings.filter((f) => f.diagnostic.code === "unbounded-loop");
    expect(before.map((f) => f.step)).toEqual(["a", "b"]);
    const fixed = fixSource(file, text, { cwd: repoRoot });
    expect(fixed.text).toContain("  retry: { backoff: fixed, max_attempts: 3 } # no bound yet\n");
    expect(fixed.applied.map((f) => f.description)).toEqual(["add defaults.retry.max_attempts: 3"]);
    expect(codes(file, fixed.text)).not.toContain("unbounded-loop");
  });
});
