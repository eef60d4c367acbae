/** Queuing a run in a store for workers: checked like `run` (inputs, tools), created but not started. */
import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { PlanIR } from "../../ir.js";
import { InputError, resolveInputs } from "../inputs.js";
import { newRunId, newRunState, setupTools } from "../run.js";
import type { RunConfig } from "../store.js";
import type { PgDatabase } from "./db.js";
import { PgStore } from "./pg-store.js";
import { redactingStore } from "../redacting-store.js";
import { newSecretSalt } from "../fingerprint.js";
import { secretInputNames, sessionScrubber, withEnvInputs } from "../secrets.js";

export interface SubmitOptions {
  db: PgDatabase;
  plan: PlanIR;
  cwd: string;
  inputs: Record<string, unknown>;
  toolModules: string[];
  runId?: string;
  workspace?: string;
  concurrency?: number;
  planFile?: string;
  env?: NodeJS.ProcessEnv;
}

/** Creates a queued run and returns its id; a worker claims it. */
export async function submitRun(opts: SubmitOptions): Promise<string> {
  const runId = opts.runId ?? newRunId(opts.plan.name);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(runId)) throw new InputError(`invalid run id "${runId}": use letters, digits, ".", "_" and "-"`);
  const workspace = resolve(opts.cwd, opts.workspace ?? ".");
  if (!existsSync(workspace)) throw new InputError(`workspace ${workspace} does not exist`);
  const inputs = resolveInputs(opts.plan, withEnvInputs(opts.plan, opts.inputs, opts.env ?? process.env));
  // A worker resumes the run: it can take a secret input again only from the environment.
  for (const name of secretInputNames(opts.plan)) {
    if (!opts.plan.inputs[name]!.env) throw new InputError(`secret input "${name}" has no env: in the plan, so a worker cannot be given it; add env: NAME to the input`);
  }
  const modules = opts.toolModules.map((m) => resolve(opts.cwd, m));
  // Fail here, not in a worker: a plan whose tools do not load would never run.
  await (await setupTools(opts.plan, modules)).close();
  const secretSalt = newSecretSalt();
  const config: RunConfig = {
    toolModules: modules,
    workspace: realpathSync(workspace),
    concurrency: opts.concurrency ?? 4,
    ...(opts.planFile ? { planFile: resolve(opts.cwd, opts.planFile) } : {}),
    secretSalt,
  };
  const store = redactingStore(new PgStore(opts.db, runId), opts.plan, sessionScrubber(opts.plan, inputs, {}, opts.env ?? process.env, secretSalt));
  store.appendEvent("run.submitted", { runId, plan: opts.plan.name, planHash: opts.plan.planHash, workspace: config.workspace, toolModules: modules });
  await store.create(opts.plan, config, newRunState(opts.plan, runId, inputs));
  return runId;
}
