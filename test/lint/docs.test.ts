/**
 * The meta-test that holds every rule to the contract (typescript-eslint's docs test):
 * its id is its file name and it is registered; it has a docs section whose bad example
 * lints to a finding of the rule and whose good example lints without one; and it has a
 * golden error case.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Rule } from "../../src/lint/rule.js";
import { rules } from "../../src/lint/rules/index.js";
import { repoRoot } from "../helpers.js";
import { lintCase } from "./rules-tester.js";

const rulesDir = join(repoRoot, "src/lint/rules");
const errDir = join(repoRoot, "specs/lint/err");
const docs = readFileSync(join(repoRoot, "docs/rules.md"), "utf8");

interface Section {
  body: string;
  blocks: Record<string, string>;
}

function sections(): Map<string, Section> {
  const out = new Map<string, Section>();
  const parts = docs.split(/^## /m).slice(1);
  for (const part of parts) {
    const nl = part.indexOf("\n");
    const id = part.slice(0, nl).trim();
    const body = part.slice(nl + 1);
    const blocks: Record<string, string> = {};
    for (const m of body.matchAll(/^```yaml (bad|good|original)\n([\s\S]*?)^```$/gm)) blocks[m[1]!] = m[2]!;
    out.set(id, { body, blocks });
  }
  return out;
}

const bySection = sections();

describe("rule registry", () => {
  it("registers every rule file once, sorted by id, with the file name as id", async () => {
    const files = readdirSync(rulesDir)
      .filter((f) => f.endsWith(".ts") && f !== "index.ts")
      .map((f) => f.replace(/\.ts$/, ""))
      .sort();
    const ids = rules.map((r) => r.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual(files);
    for (const f of files) {
      const mod = (await import(join(rulesDir, `${f}.ts`))) as { rule: Rule };
      expect(mod.rule.id).toBe(f);
      expect(rules).toContain(mod.rule);
    }
  });

  it("has at least 26 rules", () => {
    expect(rules.length).toBeGreaterThanOrEqual(26);
  });

  it.each(rules.map((r) => [r.id, r] as const))("%s has a description, a severity and non-empty messages", (_, rule) => {
    expect(rule.meta.description.trim()).not.toBe("");
    expect(["error", "warning", "info"]).toContain(rule.meta.defaultSeverity);
    const messages = Object.entries(rule.meta.messages);
    expect(messages.length).toBeGreaterThan(0);
    for (const [id, text] of messages) {
      expect(id).toMatch(/^[a-z][A-Za-z]*$/);
      expect(text.trim().length).toBeGreaterThan(10);
    }
  });
});

describe("docs/rules.md", () => {
  it("documents exactly the registered rules, each in the summary table with its severity", () => {
    expect([...bySection.keys()].sort()).toEqual(rules.map((r) => r.id));
    for (const rule of rules) {
      expect(docs).toContain(`| [${rule.id}](#${rule.id}) | ${rule.meta.defaultSeverity} |`);
    }
  });

  for (const rule of rules) {
    describe(rule.id, () => {
      const section = bySection.get(rule.id);

      it("states its severity and every option with its default", () => {
        expect(section?.body).toContain(`**Severity:** ${rule.meta.defaultSeverity}.`);
        for (const [key, value] of Object.entries(rule.meta.defaultOptions ?? {})) {
          expect(section?.body).toContain(`\`${key}\` (${String(value)})`);
        }
      });

      it("has a bad example that the rule reports", () => {
        const bad = section?.blocks.bad;
        expect(bad, "a ```yaml bad block").toBeDefined();
        if (rule.meta.needsOriginal) expect(section?.blocks.original, "a ```yaml original block").toBeDefined();
        const c = section?.blocks.original !== undefined ? { code: bad!, original: section.blocks.original } : { code: bad! };
        expect(lintCase(rule, c).found.length).toBeGreaterThan(0);
      });

      it("has a good example that the rule accepts", () => {
        const good = section?.blocks.good;
        expect(good, "a ```yaml good block").toBeDefined();
        const c = section?.blocks.original !== undefined ? { code: good!, original: section.blocks.original } : { code: good! };
        expect(lintCase(rule, c).found).toEqual([]);
      });

      it("has a golden error case", () => {
        const cases = existsSync(errDir) ? readdirSync(errDir).filter((f) => f.startsWith(rule.id) && f.endsWith(".out")) : [];
        const outs = cases.map((f) => readFileSync(join(errDir, f), "utf8"));
        expect(outs.some((o) => o.includes(`[${rule.id}]`)), `specs/lint/err/${rule.id}*.out names the rule`).toBe(true);
      });
    });
  }
});
