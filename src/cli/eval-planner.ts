/**
 * `planspec eval <suite> --planner PROVIDER:MODEL`: plan every case's goal with the LLM
 * planner into a directory laid out as `--plans` expects, so the same directory can be
 * re-scored later with `--replay` and no network.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parse } from "yaml";
import type { Suite } from "../eval/suite.js";
import type { Catalog, ProviderName } from "../planner/index.js";
import type { CliIO } from "./io.js";
import { UsageError, write } from "./io.js";

export interface SuitePlannerOptions {
  /** `openai:gpt-4.1-mini`, `anthropic:claude-sonnet-4-5`, or a bare provider for its default model. */
  planner: string;
  baseUrl?: string;
  /** Where the plans go; a fresh temp directory when absent. */
  out?: string;
}

/** Splits `PROVIDER:MODEL` at the first colon (model names such as `qwen2.5:7b` keep theirs). */
export function parsePlannerSpec(spec: string): { provider: ProviderName; model?: string } {
  const at = spec.indexOf(":");
  const provider = at < 0 ? spec : spec.slice(0, at);
  const model = at < 0 ? "" : spec.slice(at + 1);
  if (provider !== "openai" && provider !== "anthropic" && provider !== "azure") throw new UsageError(`--planner must be openai:MODEL, anthropic:MODEL or azure:DEPLOYMENT, got "${spec}"`);
  return model ? { provider, model } : { provider };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The suite's catalogue as `planspec plan --tools` would read it: each imported catalogue
 * file through loadCatalog, with the suite's inline entries winning (as the suite loader does).
 */
async function suiteCatalog(suite: Suite, cwd: string): Promise<Catalog> {
  const { loadCatalog } = await import("../planner/index.js");
  const suiteAbs = resolve(cwd, suite.file);
  // The suite already validated; only the import paths are needed, which Suite does not keep.
  const raw = (parse(readFileSync(suiteAbs, "utf8")) as Obj).tools;
  const toolsRaw = isObj(raw) ? raw : {};
  const imports = toolsRaw.import === undefined ? [] : Array.isArray(toolsRaw.import) ? toolsRaw.import : [toolsRaw.import];
  const files = imports.filter((f): f is string => typeof f === "string").map((f) => resolve(dirname(suiteAbs), f));
  const tools: Obj = {};
  for (const f of files) Object.assign(tools, loadCatalog(f, cwd).tools);
  for (const [name, spec] of Object.entries(toolsRaw)) if (name !== "import") tools[name] = spec;
  return { file: files.length === 1 ? files[0]! : suite.file, tools };
}

function makeOutDir(io: CliIO, out: string | undefined): string {
  try {
    if (!out) return mkdtempSync(join(tmpdir(), "planspec-eval-"));
    const dir = resolve(io.cwd, out);
    mkdirSync(dir, { recursive: true });
    return dir;
  } catch (err) {
    throw new UsageError(`cannot create ${out ?? "a temp directory"}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** Plans every case of `suite` into a directory and returns it; a planner error (key, 401, network) is a usage error. */
export async function planSuite(suite: Suite, opts: SuitePlannerOptions, io: CliIO): Promise<string> {
  const planner = await import("../planner/index.js");
  const { provider: name, model } = parsePlannerSpec(opts.planner);
  let dir = "";
  try {
    // Key and catalogue first: a run that cannot start leaves no empty directory behind.
    const made = await planner.makeProvider({ provider: name, ...(model ? { model } : {}), ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}), env: io.env });
    const catalog = await suiteCatalog(suite, io.cwd);
    dir = makeOutDir(io, opts.out);
    for (const c of suite.cases) {
      const planFile = join(dir, `${c.id}.plan.yaml`);
      const trace = new planner.FileTrace(join(dir, `${c.id}.trace.jsonl`), [made.secret]);
      const { chosen } = await planner.planGoal({ goal: c.goal, provider: made.provider, catalog, templates: [], planFile, cwd: io.cwd, maxRepairs: 2, candidates: 1, trace });
      // No parsed answer means no file: the scorer counts the case as missing.
      if (chosen.checked) writeFileSync(planFile, chosen.checked.yaml);
      else rmSync(planFile, { force: true });
      const verdict = !chosen.checked ? `no plan (${chosen.problem ?? "unreadable answer"})` : chosen.ok ? "clean" : "has errors";
      await write(io.stderr, `${c.id}: ${verdict}\n`);
    }
    // Printed last so a key or network failure on the first request stays a one-line error.
    await write(io.stderr, `planned ${suite.cases.length} case${suite.cases.length === 1 ? "" : "s"} with ${name}:${made.provider.model} into ${dir}\n`);
  } catch (err) {
    if (err instanceof planner.PlannerError) throw new UsageError(err.message);
    throw err;
  }
  return dir;
}
