/**
 * The fast YAML path (js-yaml events) must agree with the careful path (`yaml`'s
 * Document API) on every value and on the positions diagnostics use, and must step
 * aside for everything it does not handle.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { parseYamlFast } from "../../src/compiler/yaml-fast.js";
import { parseYamlSource } from "../../src/compiler/yaml-source.js";
import type { DocPath } from "../../src/compiler/source.js";
import { repoRoot } from "../helpers.js";

function yamlFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { recursive: true, withFileTypes: false } as never)
    .map(String)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f));
}

/** Every path to a value in a plain JS value. */
function paths(v: unknown, prefix: DocPath = []): DocPath[] {
  const out: DocPath[] = [prefix];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...prefix, i])));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...prefix, k]));
  return out;
}

describe("fast YAML path", () => {
  const files = [...yamlFiles("specs/examples"), ...yamlFiles("specs/compile"), ...yamlFiles("specs/lint")];

  it("agrees with the careful path on values and key/value ranges for every spec file", () => {
    let compared = 0;
    for (const f of files) {
      const text = readFileSync(join(repoRoot, f), "utf8");
      const careful = parseYamlSource(f, text);
      const fast = parseYamlFast(f, text);
      if (careful.errors.length) {
        expect(fast, `${f} has errors; the fast path must step aside`).toBeUndefined();
        continue;
      }
      expect(fast, f).toBeDefined();
      expect(fast!.data, f).toEqual(careful.doc!.data);
      for (const p of paths(fast!.data)) {
        if (p.length === 0) continue;
        const v = p.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k as string], fast!.data);
        if (typeof p[p.length - 1] === "string") expect(fast!.rangeOf(p, "key"), `${f} key ${p.join(".")}`).toEqual(careful.doc!.rangeOf(p, "key"));
        expect(fast!.rangeOf(p), `${f} value ${p.join(".")}`).toEqual(careful.doc!.rangeOf(p));
        void v;
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(40);
  });

  it("agrees on generated documents", () => {
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, scalar, fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tie("node"), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tree), fc.boolean(), (doc, flow) => {
        const text = stringify(doc, flow ? { collectionStyle: "flow" } : {});
        const careful = parseYamlSource("g.yaml", text);
        const fast = parseYamlFast("g.yaml", text);
        if (!fast) return; // stepping aside is always allowed
        expect(fast.data).toEqual(careful.doc!.data);
      }),
      { numRuns: 300 },
    );
  });

  it("steps aside for duplicate keys, __proto__ keys, anchors, aliases, tags, several documents and syntax errors", () => {
    for (const text of ["a: 1\na: 2\n", "a: { __proto__: { b: 1 } }\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: 1\n---\nb: 2\n", "a: [1\n", "? [a]\n: 1\n"]) {
      expect(parseYamlFast("x.yaml", text), JSON.stringify(text)).toBeUndefined();
    }
  });
});
