/**
 * The golden walker, end to end through `planspec lint` (in-process, JSON output):
 * every `specs/lint/ok/*.{yaml,json}` lints with no diagnostic at all, and every
 * `specs/lint/err/<case>.yaml` (not `*.original.yaml`) gives exactly the lines of
 * `<case>.out`, `file:line:col: message [rule-id]` with paths from the repo root; a
 * `<case>.original.yaml` beside it is passed as `--against`. Adding a case needs no code;
 * `UPDATE_GOLDEN=1` rewrites the .out files.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Diagnostic } from "../../src/diagnostic.js";
import { repoRoot } from "../helpers.js";

const okDir = "specs/lint/ok";
const errDir = "specs/lint/err";

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

async function lint(args: string[]): Promise<{ status: number; diagnostics: Diagnostic[]; stderr: string }> {
  const out = sink();
  const err = sink();
  const status = await main(["lint", ...args, "--format", "json"], { stdout: out.stream, stderr: err.stream, cwd: repoRoot, env: { NO_COLOR: "1" } });
  return { status, diagnostics: JSON.parse(out.text() || "[]") as Diagnostic[], stderr: err.text() };
}

const line = (d: Diagnostic) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]\n`;
const list = (dir: string, re: RegExp) => (existsSync(join(repoRoot, dir)) ? readdirSync(join(repoRoot, dir)).filter((f) => re.test(f)).sort() : []);

describe("specs/lint/ok: plans that lint clean", () => {
  const cases = list(okDir, /\.(ya?ml|json)$/);
  it("has cases", () => expect(cases.length).toBeGreaterThan(0));
  for (const f of cases) {
    it(f, async () => {
      const r = await lint([join(okDir, f)]);
      expect(r.diagnostics.map(line)).toEqual([]);
      expect(r).toEqual({ status: 0, diagnostics: [], stderr: "" });
    });
  }
});

describe("specs/lint/err: golden findings", () => {
  const cases = list(errDir, /\.ya?ml$/).filter((f) => !/\.original\.ya?ml$/.test(f));
  it("has cases", () => expect(cases.length).toBeGreaterThan(0));
  for (const f of cases) {
    it(f, async () => {
      const base = f.replace(/(\.plan)?\.ya?ml$/, "");
      const original = list(errDir, /\.original\.ya?ml$/).find((o) => o.replace(/\.original\.ya?ml$/, "") === base);
      const r = await lint([join(errDir, f), ...(original ? ["--against", join(errDir, original)] : [])]);
      expect(r.stderr).toBe("");
      const actual = r.diagnostics.map(line).join("");
      const out = join(repoRoot, errDir, `${base}.out`);
      if (process.env.UPDATE_GOLDEN) writeFileSync(out, actual);
      expect(actual, "a golden case must produce at least one finding").not.toBe("");
      expect(actual).toBe(readFileSync(out, "utf8"));
      expect(r.status).toBe(r.diagnostics.some((d) => d.severity === "error") ? 1 : 0);
    });
  }
});
