/**
 * Fuzzing: random mutations of every example (deleted lines, shifted indentation,
 * truncation, random bytes, swapped lines) never crash the compiler: the result is an
 * IR or diagnostics with positions. A sample also goes through the real CLI, which must
 * exit 0, 1 or 2 and never print a stack trace.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSource } from "../../src/compiler/index.js";
import { cli, repoRoot } from "../helpers.js";

const dirs = ["specs/examples", "specs/compile/ok"];
const examples = dirs.flatMap((d) =>
  readdirSync(join(repoRoot, d))
    .filter((f) => /\.plan\.(yaml|json)$/.test(f))
    .map((f) => ({ file: join(d, f), text: readFileSync(join(repoRoot, d, f), "utf8") })),
);

type Mutation = (text: string) => string;

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.nat().map((n) => (t: string) => {
    const lines = t.split("\n");
    lines.splice(n % lines.length, 1);
    return lines.join("\n");
  }),
  fc.tuple(fc.nat(), fc.constantFrom(-2, -1, 1, 2, 4)).map(([n, d]) => (t: string) => {
    const lines = t.split("\n");
    const i = n % lines.length;
    lines[i] = d > 0 ? " ".repeat(d) + lines[i] : lines[i]!.slice(-d);
    return lines.join("\n");
  }),
  fc.nat().map((n) => (t: string) => t.slice(0, n % (t.length + 1))),
  fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([n, bytes]) => (t: string) => {
    const i = n % (t.length + 1);
    return t.slice(0, i) + Buffer.from(bytes).toString("latin1") + t.slice(i);
  }),
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => (t: string) => {
    const lines = t.split("\n");
    const i = a % lines.length;
    const j = b % lines.length;
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    return lines.join("\n");
  }),
  fc.tuple(fc.nat(), fc.constantFrom("${{", "}}", ":", "- ", "[", "{", '"', "&a", "*a", "\t")).map(([n, s]) => (t: string) => {
    const i = n % (t.length + 1);
    return t.slice(0, i) + s + t.slice(i);
  }),
);

describe("compiler fuzzing", () => {
  for (const ex of examples) {
    it(`never crashes on mutations of ${ex.file}`, () => {
      fc.assert(
        fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 3 }), (muts) => {
          const text = muts.reduce((t, m) => m(t), ex.text);
          const r = compileSource(ex.file, text, { cwd: repoRoot });
          if (r.ir) {
            expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
          } else if (r.kind === "plan") {
            expect(r.diagnostics.length).toBeGreaterThan(0);
          }
          for (const d of r.diagnostics) {
            expect(d.line).toBeGreaterThanOrEqual(1);
            expect(d.col).toBeGreaterThanOrEqual(1);
            expect(d.code).toMatch(/^PS1\d\d$/);
            expect(d.range[0]).toBeLessThanOrEqual(d.range[1]);
          }
        }),
        { numRuns: 150 },
      );
    });
  }

  it("the CLI exits 0, 1 or 2 without a stack trace on mutated files", () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-fuzz-"));
    const samples = fc.sample(fc.tuple(fc.constantFrom(...examples), fc.array(mutationArb, { minLength: 1, maxLength: 3 })), { numRuns: 12, seed: 42 });
    samples.forEach(([ex, muts], i) => {
      const file = join(dir, `m${i}.plan.${ex.file.endsWith(".json") ? "json" : "yaml"}`);
      writeFileSync(file, muts.reduce((t, m) => m(t), ex.text));
      const r = cli(["compile", file, "-o", join(dir, `m${i}.ir.json`)]);
      expect([0, 1, 2]).toContain(r.status);
      expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
    });
  });
});
