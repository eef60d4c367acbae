/**
 * The secrets of a session: declared secret inputs (`secret: true`, given with --input or
 * from the environment variable the input names) and the plan's `secrets:` (environment
 * variables read as `secrets.NAME`). A secret input is persisted only as a mark holding
 * its fingerprint under the run's salt (fingerprint.ts); a resume must be given it again
 * and is refused without it.
 */
import type { PlanIR } from "../ir.js";
import { InputError } from "./inputs.js";
import { fingerprint, type SecretSalt } from "./fingerprint.js";
import { hasUrlPassword, isSecretName, Scrubber, secretValues } from "./redact.js";
import type { RunConfig } from "./store.js";
import { pushAll } from "../util/arrays.js";

/** What state.json holds in place of a secret input's value. */
export function secretMark(value: unknown, salt: SecretSalt): string {
  return `[secret ${fingerprint(typeof value === "string" ? value : JSON.stringify(value), salt)}]`;
}

/** Whether a stored input value is a secret's mark (`scrypt:`, or `sha256:` from a run without a salt). */
export function isMark(v: unknown): boolean {
  return typeof v === "string" && /^\[secret (?:scrypt|sha256):[0-9a-f]{16}\]$/.test(v);
}

/** The salt of a run's fingerprints; none in a run created by an older planspec. */
export function runSalt(config: RunConfig): SecretSalt {
  return config.secretSalt ?? null;
}

/** Names of the plan's secret inputs. */
export function secretInputNames(plan: PlanIR): string[] {
  return Object.entries(plan.inputs)
    .filter(([, s]) => s.secret)
    .map(([n]) => n);
}

/**
 * `given` plus inputs read from the environment variables the plan names (`env:`), where
 * --input gave none; `only` limits it to some inputs (on resume: the secrets to give again).
 */
export function withEnvInputs(plan: PlanIR, given: Record<string, unknown>, env: NodeJS.ProcessEnv, only?: (name: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, given);
  for (const [name, spec] of Object.entries(plan.inputs)) {
    if (only && !only(name)) continue;
    const v = spec.env !== undefined ? env[spec.env] : undefined;
    if (!Object.hasOwn(out, name) && v !== undefined && v !== "") out[name] = v;
  }
  return out;
}

/** The values of the plan's `secrets:` from the environment; a missing one is an input error. */
export function planSecrets(plan: PlanIR, env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of plan.secrets ?? []) {
    const v = env[name];
    if (v === undefined || v === "") throw new InputError(`the plan reads the secret ${name}: set the environment variable ${name}`);
    out[name] = v;
  }
  return out;
}

/**
 * The environment a program started by a tool (`exec`) inherits: the session's, without
 * the operator's credentials (variables named like secrets, those secret inputs are read
 * from, and URLs with a password in them: `DATABASE_URL`, `PLANSPEC_STORE`), which are not the plan's to hand on, except the names the plan lists in
 * `secrets:` (declared in the plan, so reviewed, and scrubbed from the run). The same
 * rule as an MCP server's `${NAME}` (PS146).
 */
export function programEnv(plan: PlanIR | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  const listed = new Set(plan?.secrets ?? []);
  const inputVars = new Set(plan ? secretInputNames(plan).map((n) => plan.inputs[n]!.env) : []);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || (!listed.has(k) && (isSecretName(k) || inputVars.has(k) || hasUrlPassword(v)))) continue;
    out[k] = v;
  }
  return out;
}

/** The strings and numbers inside a JSON value, as text (iteratively: inputs may be 100 levels deep). */
function leaves(value: unknown): string[] {
  const out: string[] = [];
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string" || typeof v === "number") out.push(String(v));
    else if (v !== null && typeof v === "object") pushAll(stack, Object.values(v));
  }
  return out;
}

/** The scrubber of a session: every secret value it knows of, in text form. */
export function sessionScrubber(plan: PlanIR, inputs: Record<string, unknown>, secrets: Record<string, string>, env: NodeJS.ProcessEnv, salt: SecretSalt): Scrubber {
  // What `${NAME}` hands an MCP server is among `secrets`: a plan may send only those (PS146).
  const values = [...Object.values(secrets), ...secretValues(env)];
  for (const name of secretInputNames(plan)) {
    const v = inputs[name];
    if (v === undefined || v === null || isMark(v)) continue;
    const text = typeof v === "string" ? v : JSON.stringify(v);
    // A secret number or boolean shorter than 4 characters would scrub ordinary text; its mark still hides it in state.
    if (typeof v === "string" || text.length >= 4) values.push(text);
    // A secret object or list: a tool that uses one field (creds.password) prints that field alone.
    if (typeof v === "object") pushAll(values, leaves(v).filter((l) => l.length >= 4));
  }
  return new Scrubber(values, { salt });
}

/**
 * On resume: every secret input the state holds as a mark must be given again (after
 * `withEnvInputs`); a mark of the input's default takes the default back.
 */
export function requireSecretInputs(plan: PlanIR, stored: Record<string, unknown>, given: Record<string, unknown>, salt: SecretSalt): void {
  for (const name of secretInputNames(plan)) {
    if (!isMark(stored[name]) || Object.hasOwn(given, name)) continue;
    const fallback = plan.inputs[name]!.default;
    if (fallback !== undefined && secretMark(fallback, salt) === stored[name]) {
      given[name] = fallback;
      continue;
    }
    const env = plan.inputs[name]!.env;
    throw new InputError(`resume needs the secret input "${name}" again: pass --input ${name}=...${env ? ` or set ${env}` : ""}`);
  }
}

/** How an input compares across sessions: a secret by its mark, anything else by its JSON. */
export function comparable(plan: PlanIR, name: string, value: unknown, salt: SecretSalt): string {
  if (plan.inputs[name]?.secret) return isMark(value) ? (value as string) : secretMark(value, salt);
  return JSON.stringify(value) ?? "";
}
