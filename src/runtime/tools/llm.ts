/**
 * `llm.complete` (SPEC §5): one completion from a model, through the same clients the
 * planner uses (src/llm: token-limit fields, retries, deadlines, proxies, key masking).
 * Which server and which key are the operator's choice, from the environment:
 * `PLANSPEC_LLM_PROVIDER` (openai | anthropic | azure, default openai), `PLANSPEC_LLM_BASE_URL`
 * (else the provider's own base-URL variable), `PLANSPEC_LLM_MODEL`, and the provider's key
 * variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `AZURE_OPENAI_API_KEY`). A step chooses only
 * the prompt, the system text, the model and the token limit: it cannot send the key to
 * another endpoint. Risk `read`: it changes nothing in the world.
 */
import type { ProviderName } from "../../llm/provider.js";
import { ToolError, type ToolImpl } from "./types.js";

const ARGS = new Set(["prompt", "system", "model", "max_tokens", "temperature"]);
const NO_TRACE = { record: () => {} };

export interface LlmAnswer {
  text: string;
  provider: ProviderName;
  model: string;
  usage: { input_tokens: number; output_tokens: number };
  /** True when the answer hit max_tokens. */
  truncated: boolean;
}

interface Request {
  prompt: string;
  system: string;
  model?: string;
  maxTokens: number;
  temperature?: number;
}

function fail(message: string): never {
  throw new ToolError(`llm.complete: ${message}`);
}

function readArgs(args: Record<string, unknown>): Request {
  for (const k of Object.keys(args)) if (!ARGS.has(k)) fail(`unknown argument "${k}" (arguments: ${[...ARGS].join(", ")})`);
  if (typeof args.prompt !== "string" || args.prompt === "") fail('argument "prompt" must be a non-empty string');
  if (args.system !== undefined && typeof args.system !== "string") fail('argument "system" must be a string');
  if (args.model !== undefined && (typeof args.model !== "string" || args.model === "")) fail('argument "model" must be a non-empty string');
  const maxTokens = args.max_tokens ?? 1024;
  if (!Number.isInteger(maxTokens) || (maxTokens as number) < 1) fail('argument "max_tokens" must be a positive integer');
  if (args.temperature !== undefined && typeof args.temperature !== "number") fail('argument "temperature" must be a number');
  return {
    prompt: args.prompt,
    system: typeof args.system === "string" ? args.system : "",
    ...(typeof args.model === "string" ? { model: args.model } : {}),
    maxTokens: maxTokens as number,
    ...(typeof args.temperature === "number" ? { temperature: args.temperature } : {}),
  };
}

export const llmComplete: ToolImpl = {
  risk: "read",
  description:
    "One completion from the model the environment names (PLANSPEC_LLM_PROVIDER, PLANSPEC_LLM_BASE_URL, PLANSPEC_LLM_MODEL, OPENAI_API_KEY / ANTHROPIC_API_KEY): { prompt, system?, model?, max_tokens?, temperature? } -> { text, provider, model, usage, truncated }",
  async run(args, ctx) {
    // The HTTP client loads at the first call: a run of other tools never reads it.
    const { makeProvider, PROVIDERS } = await import("../../llm/provider.js");
    const env = process.env;
    const name = (env.PLANSPEC_LLM_PROVIDER?.trim() || "openai") as ProviderName;
    if (!PROVIDERS.includes(name)) fail(`PLANSPEC_LLM_PROVIDER must be one of ${PROVIDERS.join(", ")}, got "${name}"`);
    const r = readArgs(args);
    const model = r.model ?? (env.PLANSPEC_LLM_MODEL?.trim() || undefined);
    const baseUrl = env.PLANSPEC_LLM_BASE_URL?.trim() || undefined;
    try {
      const { provider } = await makeProvider({ provider: name, env, maxTokens: r.maxTokens, ...(model ? { model } : {}), ...(baseUrl ? { baseUrl } : {}) });
      const c = await provider.complete({ system: r.system, messages: [{ role: "user", content: r.prompt }], ...(r.temperature !== undefined ? { temperature: r.temperature } : {}), signal: ctx.signal }, NO_TRACE);
      if (c.refusal !== undefined) fail(`the model refused: ${c.refusal}`);
      return { text: c.text, provider: name, model: provider.model, usage: { input_tokens: c.usage.inputTokens, output_tokens: c.usage.outputTokens }, truncated: c.truncated } satisfies LlmAnswer;
    } catch (err) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (err instanceof ToolError) throw err;
      fail((err as Error).message);
    }
  },
};
