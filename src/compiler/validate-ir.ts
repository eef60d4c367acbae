/**
 * Checks an IR produced elsewhere (a planner, another tool): the IR schema, then every
 * invariant of SPEC §2 that the compiler guarantees.
 */
import { readFileSync } from "node:fs";
import type { ValidateFunction } from "ajv";
import { loadAjv } from "./lazy.js";
import type { PlanIR } from "../ir.js";
import { planHash } from "./canonical.js";
import type { Collector } from "./diagnostics.js";
import { orderSteps } from "./graph.js";
import type { DocPath, SourceDoc } from "./source.js";
import { parseSource } from "./load.js";

let irValidator: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (!irValidator) {
    const schema = JSON.parse(readFileSync(new URL("../../schemas/plan-ir.schema.json", import.meta.url), "utf8"));
    irValidator = new (loadAjv().Ajv)({ allErrors: true, strict: false }).compile(schema);
  }
  return irValidator;
}

function pointer(p: string): DocPath {
  return p === "" ? [] : p.slice(1).split("/").map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, "/").replace(/~0/g, "~")));
}

/** Validates the IR in `doc`; reports PS150 (schema) and PS151 (invariants). Returns the IR when valid. */
export function validateIR(doc: SourceDoc, out: Collector): PlanIR | undefined {
  const validate = validator();
  if (!validate(doc.data)) {
    for (const e of validate.errors ?? []) {
      const path = pointer(e.instancePath);
      const extra = e.keyword === "additionalProperties" ? ` "${String((e.params as { additionalProperty: string }).additionalProperty)}"` : "";
      out.report("PS150", doc.file, doc.rangeOf(path), { reason: `${e.instancePath || "/"} ${e.message ?? "is invalid"}${extra}` });
    }
    return undefined;
  }
  const ir = doc.data as PlanIR;
  const bad = (path: DocPath, reason: string) => out.report("PS151", doc.file, doc.rangeOf(path), { reason });
  const index = new Map<string, number>();
  ir.nodes.forEach((n, i) => {
    if (index.has(n.id)) bad(["nodes", i, "id"], `node id "${n.id}" is not unique`);
    index.set(n.id, i);
  });
  ir.nodes.forEach((n, i) => {
    n.dependsOn.forEach((d, j) => {
      if (!index.has(d)) bad(["nodes", i, "dependsOn", j], `node "${n.id}" depends on unknown node "${d}"`);
    });
    n.allowedTools.forEach((t, j) => {
      if (!(t in ir.tools)) bad(["nodes", i, "allowedTools", j], `node "${n.id}" uses tool "${t}" that is not in tools`);
    });
    if (n.tool !== undefined && !n.allowedTools.includes(n.tool)) bad(["nodes", i, "tool"], `node "${n.id}": tool "${n.tool}" is missing from allowedTools`);
    n.assumes.forEach((h, j) => {
      if (!(h in ir.hypotheses)) bad(["nodes", i, "assumes", j], `node "${n.id}" assumes unknown hypothesis "${h}"`);
    });
    n.consumes.forEach((c, j) => {
      if (!index.has(c)) bad(["nodes", i, "consumes", j], `node "${n.id}" consumes unknown node "${c}"`);
    });
  });
  for (const [h, spec] of Object.entries(ir.hypotheses)) {
    spec.verifyBy.forEach((s, j) => {
      if (!index.has(s)) bad(["hypotheses", h, "verifyBy", j], `hypothesis "${h}" is verified by unknown node "${s}"`);
    });
  }
  const { cycles } = orderSteps({ ids: ir.nodes.map((n) => n.id), deps: new Map(ir.nodes.map((n) => [n.id, n.dependsOn.filter((d) => index.has(d))])) });
  for (const c of cycles) bad(["nodes", index.get(c[0]!)!, "dependsOn"], `dependency cycle: ${c.join(" -> ")}`);
  const pos = new Map(ir.order.map((id, i) => [id, i]));
  if (ir.order.length !== ir.nodes.length || pos.size !== ir.nodes.length || ir.nodes.some((n) => !pos.has(n.id))) {
    bad(["order"], "order must list every node id exactly once");
  } else if (!cycles.length) {
    ir.nodes.forEach((n, i) => {
      for (const d of n.dependsOn) {
        if (index.has(d) && pos.get(d)! > pos.get(n.id)!) bad(["nodes", i, "id"], `order is not topological: "${n.id}" comes before its dependency "${d}"`);
      }
    });
  }
  const expected = planHash(ir);
  if (expected !== ir.planHash) bad(["planHash"], `planHash does not match the IR (expected ${expected})`);
  return out.hasErrors ? undefined : ir;
}

/** Parses and validates IR text; the result has the same shape as a compile result. */
export function validateIRSource(file: string, text: string, out: Collector): { ir?: PlanIR; doc?: SourceDoc } {
  const doc = parseSource(file, text, out);
  if (!doc) return {};
  const ir = validateIR(doc, out);
  return ir ? { ir, doc } : { doc };
}
