/** The provider contract the repair loop talks to, and the factory that picks one. */
import { PlannerError } from "./errors.js";
import { DEFAULT_POLICY, type HttpPolicy } from "./http.js";
import type { TraceSink } from "./trace.js";

export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  system: string;
  messages: ChatMessage[];
  /** The JSON Schema the answer must satisfy. */
  schema: unknown;
  /** Trace tag: which candidate and round this call belongs to. */
  candidate: number;
  round: number;
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
}

/** A model behind a wire protocol. */
export interface Provider {
  readonly name: string;
  readonly model: string;
  complete(req: ChatRequest, trace: TraceSink): Promise<Completion>;
}

export type ProviderName = "openai" | "anthropic";

export interface ProviderOptions {
  provider: ProviderName;
  model?: string;
  baseUrl?: string;
  env: NodeJS.ProcessEnv;
  policy?: Partial<HttpPolicy>;
  maxTokens?: number;
}

export const DEFAULT_MODELS: Record<ProviderName, string> = { openai: "gpt-4.1-mini", anthropic: "claude-sonnet-4-5" };
export const KEY_VARS: Record<ProviderName, string> = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" };

/** Builds the client for `opts.provider`; a missing API key is a PlannerError before any request. */
export async function makeProvider(opts: ProviderOptions): Promise<{ provider: Provider; secret: string }> {
  const keyVar = KEY_VARS[opts.provider];
  const key = opts.env[keyVar];
  if (!key) throw new PlannerError("missing-key", `${keyVar} is not set: export it (for a local server that needs no key, any value will do)`);
  const policy = { ...DEFAULT_POLICY, ...opts.policy };
  const model = opts.model ?? DEFAULT_MODELS[opts.provider];
  const maxTokens = opts.maxTokens ?? 8192;
  if (opts.provider === "openai") {
    const { OpenAIProvider } = await import("./openai.js");
    return { provider: new OpenAIProvider({ key, model, baseUrl: opts.baseUrl ?? "https://api.openai.com/v1", policy, maxTokens }), secret: key };
  }
  const { AnthropicProvider } = await import("./anthropic.js");
  return { provider: new AnthropicProvider({ key, model, baseUrl: opts.baseUrl ?? "https://api.anthropic.com/v1", policy, maxTokens }), secret: key };
}

/** Joins a base URL and a path without doubling or dropping the slash. */
export function endpoint(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, "") + "/" + path.replace(/^\/+/, "");
}
