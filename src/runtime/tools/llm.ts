/**
 * `llm.complete` (SPEC §5): one completion from a model, over the planner's provider
 * settings and wire clients' shared HTTP policy (timeouts, retries on 429/5xx). Which
 * server and which key are the operator's choice, from the environment:
 * `PLANSPEC_LLM_PROVIDER` (openai | anthropic, default openai), `PLANSPEC_LLM_BASE_URL`,
 * `PLANSPEC_LLM_MODEL`, and the planner's key variables (`OPENAI_API_KEY`,
 * `ANTHROPIC_API_KEY`). A step chooses only the prompt and the model: it cannot send
 * the key to another endpoint. Risk `read`: it changes nothing in the world.
 */
import { DEFAULT_POLICY, errorText, httpFailure, postJson, type HttpReply } from "../../llm/http.js";
import { DEFAULT_MODELS, endpoint, KEY_VARS, type ProviderName } from "../../llm/provider.js";
import { ToolError, type ToolImpl } from "./types.js";

const ARGS = new Set(["prompt", "system", "model", "max_tokens", "temperature"]);
type WireName = Exclude<ProviderName, "azure">;
const DEFAULT_BASE: Record<WireName, string> = { openai: "https://api.openai.com/v1", anthropic: "https://api.anthropic.com/v1" };
const ANTHROPIC_VERSION = "2023-06-01";
const NO_TRACE = { record: () => {} };

export interface LlmAnswer {
  text: string;
  provider: WireName;
  model: string;
  usage: { input_tokens: number; output_tokens: number };
  /** True when the answer hit max_tokens. */
  truncated: boolean;
}

interface Request {
  prompt: string;
  system?: string;
  model: string;
  maxTokens: number;
  temperature?: number;
}

function fail(message: string): never {
  throw new ToolError(`llm.complete: ${message}`);
}

function readArgs(args: Record<string, unknown>, defaultModel: string): Request {
  for (const k of Object.keys(args)) if (!ARGS.has(k)) fail(`unknown argument "${k}" (arguments: ${[...ARGS].join(", ")})`);
  if (typeof args.prompt !== "string" || args.prompt === "") fail('argument "prompt" must be a non-empty string');
  if (args.system !== undefined && typeof args.system !== "string") fail('argument "system" must be a string');
  if (args.model !== undefined && (typeof args.model !== "string" || args.model === "")) fail('argument "model" must be a non-empty string');
  const maxTokens = args.max_tokens ?? 1024;
  if (!Number.isInteger(maxTokens) || (maxTokens as number) < 1) fail('argument "max_tokens" must be a positive integer');
  if (args.temperature !== undefined && typeof args.temperature !== "number") fail('argument "temperature" must be a number');
  return {
    prompt: args.prompt,
    ...(typeof args.system === "string" ? { system: args.system } : {}),
    model: (args.model as string | undefined) ?? defaultModel,
    maxTokens: maxTokens as number,
    ...(typeof args.temperature === "number" ? { temperature: args.temperature } : {}),
  };
}

function wire(provider: WireName, key: string, r: Request): { path: string; headers: Record<string, string>; body: Record<string, unknown> } {
  const sampling = { model: r.model, max_tokens: r.maxTokens, ...(r.temperature !== undefined ? { temperature: r.temperature } : {}) };
  if (provider === "openai") {
    const messages = [...(r.system !== undefined ? [{ role: "system", content: r.system }] : []), { role: "user", content: r.prompt }];
    return { path: "chat/completions", headers: { authorization: `Bearer ${key}` }, body: { ...sampling, messages } };
  }
  return {
    path: "messages",
    headers: { "x-api-key": key, "anthropic-version": ANTHROPIC_VERSION },
    body: { ...sampling, ...(r.system !== undefined ? { system: r.system } : {}), messages: [{ role: "user", content: r.prompt }] },
  };
}

function answer(provider: WireName, model: string, reply: HttpReply, url: string): LlmAnswer {
  if (provider === "openai") {
    const b = reply.body as { choices?: Array<{ message?: { content?: unknown }; finish_reason?: string }>; usage?: { prompt_tokens?: number; completion_tokens?: number } } | undefined;
    const choice = b?.choices?.[0];
    if (typeof choice?.message?.content !== "string") fail(`${url} answered without choices[0].message.content${reply.text ? `: ${errorText(reply)}` : ""}`);
    return { text: choice.message.content, provider, model, usage: { input_tokens: b?.usage?.prompt_tokens ?? 0, output_tokens: b?.usage?.completion_tokens ?? 0 }, truncated: choice.finish_reason === "length" };
  }
  const b = reply.body as { content?: Array<{ type?: string; text?: string }>; stop_reason?: string; usage?: { input_tokens?: number; output_tokens?: number } } | undefined;
  if (!Array.isArray(b?.content)) fail(`${url} answered without a content list`);
  const text = b.content.map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("");
  return { text, provider, model, usage: { input_tokens: b.usage?.input_tokens ?? 0, output_tokens: b.usage?.output_tokens ?? 0 }, truncated: b.stop_reason === "max_tokens" };
}

export const llmComplete: ToolImpl = {
  risk: "read",
  description:
    "One completion from the model the environment names (PLANSPEC_LLM_PROVIDER, PLANSPEC_LLM_BASE_URL, PLANSPEC_LLM_MODEL, OPENAI_API_KEY / ANTHROPIC_API_KEY): { prompt, system?, model?, max_tokens?, temperature? } -> { text, provider, model, usage, truncated }",
  async run(args, ctx) {
    const env = process.env;
    const provider = (env.PLANSPEC_LLM_PROVIDER?.trim() || "openai") as WireName;
    if (!(provider in DEFAULT_BASE)) fail(`PLANSPEC_LLM_PROVIDER must be openai or anthropic, got "${provider}"`);
    const r = readArgs(args, env.PLANSPEC_LLM_MODEL?.trim() || DEFAULT_MODELS[provider]);
    const keyVar = KEY_VARS[provider];
    const key = env[keyVar];
    if (!key) fail(`${keyVar} is not set: export it for the run (for a local server that needs no key, any value will do)`);
    const w = wire(provider, key, r);
    const url = endpoint(env.PLANSPEC_LLM_BASE_URL?.trim() || DEFAULT_BASE[provider], w.path);
    let reply: HttpReply;
    try {
      reply = await postJson(url, w.headers, w.body, DEFAULT_POLICY, { secrets: [key] }, NO_TRACE, {}, undefined, ctx.signal);
    } catch (err) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      fail((err as Error).message);
    }
    if (reply.status < 200 || reply.status >= 300) fail(httpFailure(reply, { url, model: r.model, keyVar, notFoundHint: "check PLANSPEC_LLM_BASE_URL (the API root, e.g. http://localhost:11434/v1)" }).message);
    return answer(provider, r.model, reply, url);
  },
};
