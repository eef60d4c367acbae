/**
 * Provider behaviour for the script server: requests the real APIs refuse are refused
 * here with the providers' own status, error codes and wording (from their documented
 * errors), so a client that sends them fails its test exactly as it would in production.
 */
import type { Received, Scripted } from "./server.js";

/** OpenAI's error body. */
export function openaiError(status: number, message: string, code: string | null = null, param: string | null = null, type = "invalid_request_error"): Scripted {
  return { status, headers: { "x-request-id": "req_err_1" }, body: { error: { message, type, param, code } } };
}

/** Reasoning models (o-series, GPT-5) refuse `max_tokens`. */
export function isReasoningModel(model: unknown): boolean {
  return typeof model === "string" && /^(o\d|gpt-5)/.test(model);
}

/** api.openai.com: the URL, the bearer key, `max_tokens` on reasoning models. */
export function openaiRules(key: string): (req: Received) => Scripted | undefined {
  return (req) => {
    if (req.method !== "POST" || req.path !== "/v1/chat/completions") return openaiError(404, `Invalid URL (${req.method} ${req.path})`);
    if (req.headers.authorization !== `Bearer ${key}`) {
      const given = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
      // The real API masks the middle; a misconfigured gateway echoes it whole, which is the case tested here.
      return openaiError(401, `Incorrect API key provided: ${given}. You can find your API key at https://platform.openai.com/account/api-keys.`, "invalid_api_key");
    }
    return chatBodyRules(req);
  };
}

/** What any chat-completions server refuses in the body. */
function chatBodyRules(req: Received): Scripted | undefined {
  const body = req.body as Record<string, unknown>;
  if (isReasoningModel(body.model) && "max_tokens" in body)
    return openaiError(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "unsupported_parameter", "max_tokens");
  return undefined;
}

/** An older OpenAI-compatible server that knows only `max_tokens`. */
export function legacyServerRules(req: Received): Scripted | undefined {
  const body = req.body as Record<string, unknown>;
  if ("max_completion_tokens" in body)
    return openaiError(400, "Unsupported parameter: 'max_completion_tokens' is not supported with this model. Use 'max_tokens' instead.", "unsupported_parameter", "max_completion_tokens");
  return undefined;
}

/** Azure OpenAI: /openai/deployments/<d>/chat/completions?api-version=..., the `api-key` header. */
export function azureRules(key: string, deployment: string): (req: Received) => Scripted | undefined {
  return (req) => {
    const url = new URL(req.path, "http://x");
    if (!url.searchParams.get("api-version")) return openaiError(404, "Resource not found", "404");
    if (url.pathname !== `/openai/deployments/${deployment}/chat/completions`)
      return openaiError(404, "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.", "DeploymentNotFound");
    if (req.headers["api-key"] !== key)
      return openaiError(401, "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.", "401");
    return chatBodyRules(req);
  };
}

function anthropicError(status: number, type: string, message: string): Scripted {
  return { status, headers: { "request-id": "req_ant_err" }, body: { type: "error", error: { type, message } } };
}

/** api.anthropic.com: the URL, the headers, required max_tokens, non-empty content except a final assistant turn. */
export function anthropicRules(key: string): (req: Received) => Scripted | undefined {
  return (req) => {
    if (req.method !== "POST" || req.path !== "/v1/messages") return anthropicError(404, "not_found_error", "Not Found");
    if (req.headers["x-api-key"] !== key) return anthropicError(401, "authentication_error", "invalid x-api-key");
    if (!req.headers["anthropic-version"]) return anthropicError(400, "invalid_request_error", "anthropic-version: header is required");
    const body = req.body as { max_tokens?: unknown; messages?: Array<{ role: string; content: unknown }> };
    if (typeof body.max_tokens !== "number") return anthropicError(400, "invalid_request_error", "max_tokens: Field required");
    const messages = body.messages ?? [];
    for (let i = 0; i < messages.length; i++) {
      const c = messages[i]!.content;
      const empty = typeof c === "string" ? c.trim() === "" : Array.isArray(c) && c.length === 0;
      if (empty && !(i === messages.length - 1 && messages[i]!.role === "assistant"))
        return anthropicError(400, "invalid_request_error", `messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    }
    return undefined;
  };
}
