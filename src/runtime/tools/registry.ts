/**
 * The tool registry of a run: built-ins plus user modules (`--tools ./x.mjs`, whose
 * default export maps tool names to `{ risk, description?, run(args, ctx) }`), and the
 * pre-run check of a plan's catalogue against it.
 */
import { pathToFileURL } from "node:url";
import { RISKS, riskRank, type IRNode, type PlanIR, type Risk } from "../../ir.js";
import { builtinTools } from "./builtins.js";
import type { ToolImpl } from "./types.js";

/** A problem with tool modules or the catalogue: reported before the run starts. */
export class ToolSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolSetupError";
  }
}

function isToolImpl(v: unknown): v is ToolImpl {
  if (v === null || typeof v !== "object") return false;
  const t = v as Partial<ToolImpl>;
  return typeof t.run === "function" && typeof t.risk === "string" && (RISKS as readonly string[]).includes(t.risk);
}

/** Loads built-ins and the given modules (absolute paths); a name defined twice is an error. */
export async function loadTools(modules: readonly string[]): Promise<Map<string, ToolImpl>> {
  const registry = builtinTools();
  const origin = new Map<string, string>([...registry.keys()].map((k) => [k, "built-in"]));
  for (const file of modules) {
    let mod: { default?: unknown };
    try {
      mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
    } catch (err) {
      throw new ToolSetupError(`cannot load tool module ${file}: ${(err as Error).message}`);
    }
    const table = mod.default;
    if (table === null || typeof table !== "object") {
      throw new ToolSetupError(`tool module ${file} must default-export an object mapping tool names to { risk, run }`);
    }
    for (const [name, impl] of Object.entries(table)) {
      if (!isToolImpl(impl)) {
        throw new ToolSetupError(`tool "${name}" in ${file} must be { risk: read|write|external, run(args, ctx) }`);
      }
      const prev = origin.get(name);
      if (prev) throw new ToolSetupError(`tool "${name}" is defined twice: by ${prev} and by ${file}`);
      registry.set(name, impl);
      origin.set(name, file);
    }
  }
  return registry;
}

/**
 * Every tool a plan may call needs an implementation whose risk is not above the
 * catalogue's: an under-labelled catalogue would let the gateway wave through a write
 * the plan calls a read. A catalogue stricter than the implementation is allowed (the
 * gateway then uses the catalogue's risk).
 */
export function checkCatalogue(plan: PlanIR, registry: ReadonlyMap<string, ToolImpl>, used: ReadonlySet<string> = toolsInUse(plan)): string[] {
  const problems: string[] = [];
  for (const name of [...used].sort()) {
    const impl = registry.get(name);
    if (!impl) {
      problems.push(`tool "${name}" has no implementation (built-ins: ${[...builtinTools().keys()].join(", ")}; add one with --tools ./module.mjs)`);
      continue;
    }
    const declared = plan.tools[name]?.risk;
    if (declared && riskRank(impl.risk) > riskRank(declared)) {
      problems.push(`tool "${name}" is declared risk ${declared} in the plan's catalogue but its implementation has risk ${impl.risk}`);
    }
  }
  return problems;
}

/**
 * The tools a session may call: the catalogue's and those its steps allow, of `steps` when
 * not every step may run (a resume: settled steps never run again in the session, and a
 * resume of a long run need not read every such step).
 */
export function toolsInUse(plan: PlanIR, steps: Iterable<IRNode> = plan.nodes): Set<string> {
  const used = new Set<string>(Object.keys(plan.tools));
  for (const node of steps) for (const t of node.allowedTools) used.add(t);
  return used;
}

/** The risk the gateway applies to a tool: the higher of catalogue and implementation. */
export function effectiveRisk(plan: PlanIR, name: string, impl: ToolImpl): Risk {
  const declared = plan.tools[name]?.risk;
  return declared && riskRank(declared) > riskRank(impl.risk) ? declared : impl.risk;
}
