/**
 * Properties of the compiler over generated plans (fast-check): any DAG compiles to an
 * IR whose order is topological and that validates; planHash ignores formatting,
 * comments, key order and the YAML/JSON choice; the IR round-trips through validate.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import fc from "fast-check";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { compileSource } from "../../src/compiler/index.js";
import { Collector } from "../../src/compiler/diagnostics.js";
import { validateIRSource } from "../../src/compiler/validate-ir.js";
import { repoRoot } from "../helpers.js";

const validateSchema = new Ajv({ strict: false, allErrors: true }).compile(
  JSON.parse(readFileSync(join(repoRoot, "schemas/plan-ir.schema.json"), "utf8")),
);

const KINDS = ["read", "search", "analyze", "verify", "write", "summarize"] as const;

/** A random DAG as a plan document: step i may need any earlier step; the map is then shuffled. */
const planArb = fc
  .integer({ min: 1, max: 25 })
  .chain((n) =>
    fc.record({
      needs: fc.tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, j) => j), { maxLength: Math.min(3, i) }))),
      kinds: fc.array(fc.constantFrom(...KINDS), { minLength: n, maxLength: n }),
      perm: fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i), { minLength: n, maxLength: n }),
    }),
  )
  .map(({ needs, kinds, perm }) => {
    const steps: Record<string, unknown> = {};
    for (const i of perm) {
      const step: Record<string, unknown> = { kind: kinds[i], goal: `Step number ${i}`, tool: kinds[i] === "write" ? "writer" : "reader", output: `out_${i}` };
      if (needs[i]!.length) {
        step.needs = needs[i]!.map((j) => `s${j}`);
        step.with = { from: `\${{ steps.s${needs[i]![0]}.output }}` };
      }
      steps[`s${i}`] = step;
    }
    return {
      planspec: 1,
      name: "generated",
      goal: "A generated plan",
      tools: { reader: { risk: "read" }, writer: { risk: "write" } },
      limits: { max_tool_calls: 100, run_timeout: "10m" },
      steps,
    } as Record<string, unknown>;
  });

/** The same document with every map's keys in another order. */
function reorderKeys(v: unknown, seed: number): unknown {
  if (Array.isArray(v)) return v.map((x) => reorderKeys(x, seed));
  if (v && typeof v === "object") {
    const entries = Object.entries(v);
    const rotated = entries.length ? [...entries.slice(seed % entries.length), ...entries.slice(0, seed % entries.length)].reverse() : entries;
    return Object.fromEntries(rotated.map(([k, x]) => [k, reorderKeys(x, seed + 1)]));
  }
  return v;
}

describe("compiler properties", () => {
  it("any DAG compiles to an IR with a topological order that validates against the IR schema", () => {
    fc.assert(
      fc.property(planArb, (doc) => {
        const r = compileSource("gen.plan.yaml", stringify(doc));
        expect(r.diagnostics).toEqual([]);
        const ir = r.ir!;
        const pos = new Map(ir.order.map((id, i) => [id, i]));
        expect(pos.size).toBe(ir.nodes.length);
        for (const n of ir.nodes) for (const d of n.dependsOn) expect(pos.get(d)!).toBeLessThan(pos.get(n.id)!);
        expect(validateSchema(ir), JSON.stringify(validateSchema.errors)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("planHash is the same under key reordering, reformatting, comments and the JSON form", () => {
    fc.assert(
      fc.property(planArb, fc.nat(), (doc, seed) => {
        const base = compileSource("a.plan.yaml", stringify(doc)).ir!.planHash;
        const reordered = stringify(reorderKeys(doc, seed));
        const flow = stringify(doc, { collectionStyle: "flow" });
        const commented = "# a comment\n" + stringify(doc).replace(/\n/g, "  # note\n").replace(/: \|-?  # note\n/g, ": |\n");
        const json = JSON.stringify(reorderKeys(doc, seed + 7), null, 1);
        for (const [file, text] of [["b.plan.yaml", reordered], ["c.plan.yaml", flow], ["d.plan.yaml", commented], ["e.plan.json", json]] as const) {
          const r = compileSource(file, text);
          expect(r.diagnostics).toEqual([]);
          expect(r.ir!.planHash).toBe(base);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("planHash changes when the plan's meaning changes", () => {
    fc.assert(
      fc.property(planArb, (doc) => {
        const base = compileSource("a.plan.yaml", stringify(doc)).ir!.planHash;
        const changed = { ...doc, goal: "A different goal" };
        expect(compileSource("a.plan.yaml", stringify(changed)).ir!.planHash).not.toBe(base);
      }),
      { numRuns: 30 },
    );
  });

  it("the IR round-trips through validate unchanged", () => {
    fc.assert(
      fc.property(planArb, (doc) => {
        const ir = compileSource("a.plan.yaml", stringify(doc)).ir!;
        const out = new Collector();
        const back = validateIRSource("a.ir.json", JSON.stringify(ir, null, 2), out);
        expect(out.list).toEqual([]);
        expect(back.ir).toEqual(ir);
      }),
      { numRuns: 60 },
    );
  });
});
