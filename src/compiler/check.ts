/**
 * Stage 4b: type-check every expression's references now that the graph is known:
 * `steps.X` must be an ancestor, `inputs.x` declared, output paths present in schemas.
 */
import type { IRNode, JsonValue } from "../ir.js";
import { PlanGraph } from "../graph.js";
import type { BuiltNode } from "./build.js";
import type { Collector } from "./diagnostics.js";
import { parseSite, type ExprSite } from "./expressions.js";
import type { Reference } from "./expr/index.js";
import { didYouMean } from "./suggest.js";

const ROOTS = "inputs, secrets, steps, run, output (in success and repeat) and item (in for_each)";

/** The first segment of `path` that `schema` says cannot exist, or undefined. */
export function missingInSchema(schema: JsonValue | undefined, path: ReadonlyArray<string | number>): number | undefined {
  let s = schema as Record<string, unknown> | undefined;
  for (let i = 0; i < path.length; i++) {
    if (!s || typeof s !== "object") return undefined;
    const seg = path[i]!;
    if (s.items && typeof s.items === "object" && (typeof seg === "number" || s.type === "array")) {
      s = s.items as Record<string, unknown>;
      continue;
    }
    const props = s.properties as Record<string, unknown> | undefined;
    const required = Array.isArray(s.required) ? (s.required as unknown[]) : [];
    if (props && String(seg) in props) {
      s = props[String(seg)] as Record<string, unknown>;
      continue;
    }
    if (required.includes(String(seg))) return undefined;
    if (s.additionalProperties && typeof s.additionalProperties === "object") {
      s = s.additionalProperties as Record<string, unknown>;
      continue;
    }
    if (props || s.additionalProperties === false) return i;
    return undefined;
  }
  return undefined;
}

/** Checks references of every node; fills `consumes`. */
export function checkReferences(built: BuiltNode[], graph: PlanGraph, inputs: Set<string>, out: Collector, secrets: Set<string> = new Set()): void {
  const byId = new Map(built.map((b) => [b.node.id, b.node]));
  for (const b of built) {
    const consumed: string[] = [];
    for (const site of b.exprs) {
      const { ast, refs } = parseSite(site, out);
      if (!ast) continue;
      if (site.role === "evidence") {
        const r = refs[0];
        if (refs.length !== 1 || r!.root !== "steps" || r!.start !== ast.start || r!.end !== ast.end) {
          out.report("PS135", site.doc.file, [site.base + ast.start, site.base + ast.end], { ref: site.src.trim() });
          continue;
        }
      }
      for (const ref of refs) checkRef(ref, site, b.node, byId, graph, { inputs, secrets }, consumed, out);
    }
    b.node.consumes = consumed.length ? consumed : [...b.node.dependsOn];
  }
}

/** Where a reference is in its file: references are positioned within their expression. */
function inFile(site: ExprSite, ref: Reference): [number, number] {
  return [site.base + ref.start, site.base + ref.end];
}

function checkRef(
  ref: Reference,
  site: ExprSite,
  node: IRNode,
  byId: Map<string, IRNode>,
  graph: PlanGraph,
  names: { inputs: Set<string>; secrets: Set<string> },
  consumed: string[],
  out: Collector,
): void {
  const { inputs, secrets } = names;
  const file = site.doc.file;
  const [first, second, ...rest] = ref.path;
  switch (ref.root) {
    case "inputs": {
      if (first === undefined) return;
      const name = String(first);
      if (!inputs.has(name)) {
        const hint = didYouMean(name, inputs) ?? (inputs.size ? undefined : "declare it under inputs:");
        out.report("PS129", file, inFile(site, ref), { name }, hint ? { hint } : {});
      }
      return;
    }
    case "steps": {
      if (first === undefined) return;
      const id = String(first);
      const target = byId.get(id);
      if (!target) {
        const dotted = ref.path.map(String);
        let hint = didYouMean(id, byId.keys());
        for (let k = dotted.length; k > 1; k--) {
          const joined = dotted.slice(0, k).join(".");
          if (byId.has(joined)) hint = `template steps are read as steps["${joined}"]`;
        }
        out.report("PS128", file, inFile(site, ref), { ref: id }, hint ? { hint } : {});
        return;
      }
      if (id === node.id) {
        out.report("PS145", file, inFile(site, ref), { step: node.id }, { hint: "a step's own result is `output`, in success checks and repeat.until" });
        return;
      }
      if (!graph.isAncestor(id, node.id)) {
        out.report("PS127", file, inFile(site, ref), { step: node.id, ref: id }, { hint: `add "${id}" to the needs of "${node.id}"` });
        return;
      }
      if (!consumed.includes(id)) consumed.push(id);
      if (second === undefined || second === "status") return;
      if (second !== "output") {
        out.report("PS133", file, inFile(site, ref), { name: `steps.${id}.${String(second)}`, allowed: "steps.<id>.output and steps.<id>.status" });
        return;
      }
      if (target.output === undefined) {
        out.report("PS134", file, inFile(site, ref), { ref: id }, { hint: `give step "${id}" an \`output:\` name` });
        return;
      }
      const miss = missingInSchema(target.outputSchema, rest);
      if (miss !== undefined) out.report("PS130", file, inFile(site, ref), { step: id, path: rest.slice(0, miss + 1).join(".") });
      return;
    }
    case "output": {
      if (site.role !== "check" && site.role !== "until") {
        out.report("PS131", file, inFile(site, ref));
        return;
      }
      const miss = missingInSchema(node.outputSchema, ref.path);
      if (miss !== undefined) out.report("PS130", file, inFile(site, ref), { step: node.id, path: ref.path.slice(0, miss + 1).join(".") });
      return;
    }
    case "item":
      if (!node.forEach || site.role === "items") out.report("PS132", file, inFile(site, ref));
      return;
    case "secrets": {
      const name = first === undefined ? undefined : String(first);
      if (name !== undefined && secrets.has(name)) return;
      const listed = secrets.size ? `the secrets listed under secrets: (${[...secrets].join(", ")})` : "no secrets: list the variable under secrets: first";
      const hint = name !== undefined ? didYouMean(name, secrets) : undefined;
      out.report("PS133", file, inFile(site, ref), { name: name === undefined ? "secrets" : `secrets.${name}`, allowed: listed }, hint ? { hint } : {});
      return;
    }
    case "run":
      if (first !== undefined && first !== "id") out.report("PS133", file, inFile(site, ref), { name: `run.${String(first)}`, allowed: "run.id" });
      return;
    default: {
      const hint = didYouMean(ref.root, ["inputs", "secrets", "steps", "run", "output", "item"]);
      out.report("PS133", file, inFile(site, ref), { name: ref.root, allowed: ROOTS }, hint ? { hint } : {});
    }
  }
}
