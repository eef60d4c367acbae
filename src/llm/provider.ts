/**
 * The provider contract the repair loop talks to, and the factory that builds a client
 * from settings (flags or any other caller, such as a runtime built-in): which wire
 * protocol, where, with which key, headers and limits, and through which proxy.
 */
import { PlannerError } from "./errors.js";
import { DEFAULT_POLICY, type HttpPolicy, type Transport } from "./http.js";
import { proxyDispatcher, proxySecrets, urlSecrets } from "./proxy.js";
import { secretValues, type TraceSink } from "./trace.js";

export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  system: string;
  messages: ChatMessage[];
  /** The JSON Schema the answer must satisfy; without one the answer is free text. */
  schema?: unknown;
  /** Sampling temperature, when the caller sets one (the planner does not). */
  temperature?: number;
  /** Aborts the call and its retries (a runtime step's signal: timeout, lease lost, run over). */
  signal?: AbortSignal;
  /** Trace tag: which candidate and round this call belongs to. */
  candidate?: number;
  round?: number;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface Completion {
  /** The answer as text: JSON, possibly fenced or cut short; the loop parses it. */
  text: string;
  usage: Usage;
  /** True when the provider says the answer hit the token limit. */
  truncated: boolean;
  /** How structure was asked for (json_schema, json_object, plain, tool, replay). */
  mode: string;
  /** The model (or the provider's filter) declined to answer: its words. */
  refusal?: string;
  /** The output went to reasoning (thinking) and no answer text came. */
  reasoningOnly?: boolean;
}

/** A model behind a wire protocol. */
export interface Provider {
  readonly name: string;
  readonly model: string;
  complete(req: ChatRequest, trace: TraceSink): Promise<Completion>;
}

export type ProviderName = "openai" | "anthropic" | "azure";
export const PROVIDERS: readonly ProviderName[] = ["openai", "anthropic", "azure"];

export interface ProviderOptions {
  provider: ProviderName;
  /** The model; on Azure the deployment name. */
  model?: string;
  /** Overrides OPENAI_BASE_URL / ANTHROPIC_BASE_URL / AZURE_OPENAI_ENDPOINT. */
  baseUrl?: string;
  /** Sent with every request (after the provider's own, so they can override them). */
  headers?: Record<string, string>;
  /** The output token limit; unset, OpenAI-compatible servers get none and Anthropic 8192. */
  maxTokens?: number;
  /** Azure's api-version (default OPENAI_API_VERSION, else 2024-10-21). */
  apiVersion?: string;
  /** Keys, base URLs, org/project ids and proxies are read from here. */
  env: NodeJS.ProcessEnv;
  policy?: Partial<HttpPolicy>;
}

export const DEFAULT_MODELS: Record<ProviderName, string> = { openai: "gpt-4.1-mini", anthropic: "claude-sonnet-4-5", azure: "" };
export const KEY_VARS: Record<ProviderName, string> = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY", azure: "AZURE_OPENAI_API_KEY" };
const ANTHROPIC_MAX_TOKENS = 8192;
const AZURE_API_VERSION = "2024-10-21";

/** Settings both HTTP clients share, resolved by the factory. */
export interface ClientConfig {
  name: string;
  model: string;
  /** The full endpoint URL. */
  url: string;
  /** What a 404 that is not about the model should make the user check. */
  notFoundHint: string;
  /** Auth, org/project and custom headers. */
  headers: Record<string, string>;
  keyVar: string;
  policy: HttpPolicy;
  transport: Transport;
  maxTokens?: number;
}

/**
 * Builds the client for `opts.provider`; a missing key or setting is a PlannerError
 * before any request. `secrets` are what a trace of its calls must mask (`secret` is the key).
 */
export async function makeProvider(opts: ProviderOptions): Promise<{ provider: Provider; secret: string; secrets: string[] }> {
  const env = opts.env;
  const keyVar = KEY_VARS[opts.provider];
  const key = env[keyVar];
  if (!key) throw new PlannerError("missing-key", `${keyVar} is not set: export it (for a local server that needs no key, any value will do)`);
  const policy = { ...DEFAULT_POLICY, ...opts.policy };
  policy.deadlineMs = opts.policy?.deadlineMs ?? Math.max(DEFAULT_POLICY.deadlineMs, policy.timeoutMs);
  const custom = opts.headers ?? {};
  let cfg: Omit<ClientConfig, "transport">;
  if (opts.provider === "anthropic") {
    const baseUrl = opts.baseUrl ?? (env.ANTHROPIC_BASE_URL || "https://api.anthropic.com");
    // The SDK convention leaves /v1 off the base URL; a base URL that has it works too.
    const url = endpoint(baseUrl, /\/v1\/?$/.test(urlPath(baseUrl)) ? "messages" : "v1/messages");
    const headers = mergeHeaders({ "x-api-key": key, "anthropic-version": "2023-06-01" }, custom);
    const notFoundHint = "check --base-url (the API root, e.g. https://api.anthropic.com)";
    cfg = { name: "anthropic", model: opts.model ?? DEFAULT_MODELS.anthropic, url, notFoundHint, headers, keyVar, policy, maxTokens: opts.maxTokens ?? ANTHROPIC_MAX_TOKENS };
  } else if (opts.provider === "azure") {
    cfg = azureConfig(opts, key, policy);
  } else {
    const baseUrl = opts.baseUrl ?? (env.OPENAI_BASE_URL || "https://api.openai.com/v1");
    const ids: Record<string, string> = {};
    if (env.OPENAI_ORG_ID) ids["OpenAI-Organization"] = env.OPENAI_ORG_ID;
    if (env.OPENAI_PROJECT_ID) ids["OpenAI-Project"] = env.OPENAI_PROJECT_ID;
    // A key given as `--header api-key=…` (an Azure deployment URL) replaces the bearer token.
    const auth: Record<string, string> = Object.keys(custom).some((k) => k.toLowerCase() === "api-key") ? {} : { authorization: `Bearer ${key}` };
    const headers = mergeHeaders({ ...auth, ...ids }, custom);
    // The OpenAI convention keeps /v1 in the base URL; leaving it off is the usual slip.
    const notFoundHint = /\/v\d+\/?$/.test(urlPath(baseUrl)) ? "check --base-url" : `the base URL probably needs /v1: --base-url ${baseUrl.replace(/\/+$/, "")}/v1`;
    cfg = { name: "openai", model: opts.model ?? DEFAULT_MODELS.openai, url: endpoint(baseUrl, "chat/completions"), notFoundHint, headers, keyVar, policy };
    if (opts.maxTokens !== undefined) cfg.maxTokens = opts.maxTokens;
  }
  const secrets = [...new Set([key, ...secretValues(cfg.headers), ...proxySecrets(env), ...urlSecrets(cfg.url)])];
  const dispatcher = await proxyDispatcher(env, cfg.url);
  const transport: Transport = dispatcher ? { dispatcher, secrets } : { secrets };
  const config: ClientConfig = { ...cfg, transport };
  if (opts.provider === "anthropic") {
    const { AnthropicProvider } = await import("./anthropic.js");
    return { provider: new AnthropicProvider(config, opts.maxTokens === undefined), secret: key, secrets };
  }
  const { OpenAIProvider } = await import("./openai.js");
  return { provider: new OpenAIProvider(config), secret: key, secrets };
}

/**
 * Azure OpenAI: `<endpoint>/openai/deployments/<deployment>/chat/completions?api-version=…`
 * with the key in `api-key`. The base URL may be the resource endpoint (the deployment is
 * `--model`), a deployment URL, or the v1 API root (`…/openai/v1`, no api-version).
 */
function azureConfig(opts: ProviderOptions, key: string, policy: HttpPolicy): Omit<ClientConfig, "transport"> {
  const base = opts.baseUrl ?? opts.env.AZURE_OPENAI_ENDPOINT;
  if (!base) throw new PlannerError("input", "--provider azure needs --base-url https://<resource>.openai.azure.com (or AZURE_OPENAI_ENDPOINT) and --model <deployment>");
  const path = urlPath(base);
  const named = /\/openai\/deployments\/([^/]+)/.exec(path)?.[1];
  const v1 = /\/openai\/v1\/?$/.test(path);
  const model = opts.model ?? (named ? decodeURIComponent(named) : undefined);
  if (!model) throw new PlannerError("input", "--provider azure needs --model <deployment> (or a deployment URL as --base-url)");
  const root = named || v1 ? base : endpoint(base, `openai/deployments/${encodeURIComponent(model)}`);
  let url = endpoint(root, "chat/completions");
  if (!v1 && !new URL(url).searchParams.has("api-version")) {
    const u = new URL(url);
    u.searchParams.set("api-version", opts.apiVersion ?? (opts.env.OPENAI_API_VERSION || AZURE_API_VERSION));
    url = u.toString();
  }
  const notFoundHint = "check --base-url (https://<resource>.openai.azure.com), --model (the deployment) and --api-version";
  const cfg: Omit<ClientConfig, "transport"> = { name: "azure", model, url, notFoundHint, headers: mergeHeaders({ "api-key": key }, opts.headers ?? {}), keyVar: KEY_VARS.azure, policy };
  if (opts.maxTokens !== undefined) cfg.maxTokens = opts.maxTokens;
  return cfg;
}

/** `base` with `custom` on top, names compared without case (fetch would join two spellings into one value). */
function mergeHeaders(base: Record<string, string>, custom: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const names = new Set(Object.keys(custom).map((k) => k.toLowerCase()));
  for (const [k, v] of Object.entries(base)) if (!names.has(k.toLowerCase())) out[k] = v;
  return { ...out, ...custom };
}

function urlPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    throw new PlannerError("input", `the base URL "${url}" is not a URL (e.g. http://localhost:11434/v1)`);
  }
}

/** Joins a base URL and a path without doubling or dropping the slash, keeping the base's query (Azure's api-version) at the end. */
export function endpoint(baseUrl: string, path: string): string {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new PlannerError("input", `the base URL "${baseUrl}" is not a URL (e.g. http://localhost:11434/v1)`);
  }
  u.pathname = u.pathname.replace(/\/+$/, "") + "/" + path.replace(/^\/+/, "");
  return u.toString();
}

export { wireMessages } from "./messages.js";
