/**
 * The OpenAI-compatible chat-completions client (OpenAI, Azure OpenAI, Ollama, vLLM,
 * llama.cpp server, LM Studio, OpenRouter). It asks for `response_format: json_schema`;
 * a server that rejects that (a 400 or 5xx naming response_format) is asked again in
 * JSON mode, then in plain text, and the mode that worked is kept for the session. The
 * token limit goes as `max_completion_tokens` to reasoning models and `max_tokens` to
 * the rest, switching once when a server names the other as unsupported.
 */
import { PlannerError, maskingSecrets } from "./errors.js";
import { type HttpReply, errorObject, errorText, httpFailure, notAReply, postJson } from "./http.js";
import type { ChatRequest, ClientConfig, Completion, Provider } from "./provider.js";
import { wireMessages } from "./messages.js";
import type { TraceSink } from "./trace.js";

type Mode = "json_schema" | "json_object" | "plain" | "text";
const MODES: Mode[] = ["json_schema", "json_object", "plain"];
type TokenField = "max_tokens" | "max_completion_tokens";

interface Message {
  content?: unknown;
  refusal?: unknown;
  tool_calls?: Array<{ function?: { arguments?: unknown } }>;
  reasoning_content?: unknown;
  reasoning?: unknown;
}

interface ChatReply {
  choices?: Array<{ message?: Message; finish_reason?: string }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; completion_tokens_details?: { reasoning_tokens?: number } };
}

/** OpenAI's reasoning models (o1, o3, o4-mini, GPT-5 …, also behind a "vendor/" prefix) take only max_completion_tokens. */
export function needsCompletionTokens(model: string): boolean {
  return /^(?:[\w.-]+\/)?(o\d|gpt-5)/i.test(model);
}

/** The chat-completions client. */
export class OpenAIProvider implements Provider {
  readonly name: string;
  readonly model: string;
  private mode: Mode = "json_schema";
  private tokenField: TokenField;
  private switchedField = false;

  constructor(private readonly cfg: ClientConfig) {
    this.name = cfg.name;
    this.model = cfg.model;
    this.tokenField = needsCompletionTokens(cfg.model) ? "max_completion_tokens" : "max_tokens";
  }

  complete(req: ChatRequest, trace: TraceSink): Promise<Completion> {
    return maskingSecrets(this.cfg.transport.secrets, () => this.call(req, trace));
  }

  private async call(req: ChatRequest, trace: TraceSink): Promise<Completion> {
    const url = this.cfg.url;
    for (;;) {
      const mode: Mode = req.schema === undefined ? "text" : this.mode;
      const body = this.body(req, mode);
      const tag = { candidate: req.candidate ?? 0, round: req.round ?? 0, provider: this.name, mode };
      const fallback = (r: HttpReply) => mode !== "text" && mode !== "plain" && rejectsFormat(r);
      const reply = await postJson(url, this.cfg.headers, body, this.cfg.policy, this.cfg.transport, trace, tag, (r) => fallback(r) || this.otherField(r) !== undefined, req.signal);
      if (reply.status < 200 || reply.status >= 300) {
        const field = this.otherField(reply);
        if (field) {
          this.tokenField = field;
          this.switchedField = true;
          trace.record({ type: "diagnostics", ...tag, note: `server refused the token limit field; sending ${field} from now on` });
          continue;
        }
        if (fallback(reply)) {
          this.mode = MODES[MODES.indexOf(mode) + 1]!;
          trace.record({ type: "diagnostics", ...tag, note: `server rejected response_format; falling back to ${this.mode}` });
          continue;
        }
        throw httpFailure(reply, { url, model: this.model, keyVar: this.cfg.keyVar, notFoundHint: this.cfg.notFoundHint, modelWord: this.name === "azure" ? "deployment" : "model" });
      }
      const hidden = notAReply(reply, url);
      if (hidden) throw hidden;
      return this.read(reply, url, mode);
    }
  }

  /** The token field to switch to, once, when a 400 says the one sent is unsupported. */
  private otherField(reply: HttpReply): TokenField | undefined {
    if (this.switchedField || this.cfg.maxTokens === undefined || reply.status !== 400) return undefined;
    const e = errorObject(reply.body);
    const text = typeof e === "object" ? `${String(e.code ?? "")} ${String((e as { param?: unknown }).param ?? "")} ${String(e.message ?? "")}` : reply.text;
    if (!/unsupported|not supported|unrecognized|unknown|extra/i.test(text) || !text.includes(this.tokenField)) return undefined;
    return this.tokenField === "max_tokens" ? "max_completion_tokens" : "max_tokens";
  }

  private body(req: ChatRequest, mode: Mode): Record<string, unknown> {
    const instruction =
      mode === "json_object" || mode === "plain" ? `\n\nAnswer with one JSON object only, no prose. It must satisfy this JSON Schema:\n${JSON.stringify(req.schema)}` : "";
    const body: Record<string, unknown> = { model: this.model };
    if (this.cfg.maxTokens !== undefined) body[this.tokenField] = this.cfg.maxTokens;
    if (req.temperature !== undefined) body.temperature = req.temperature;
    const system = req.system + instruction;
    // No empty system turn: a free-text call (llm.complete) may have none.
    body.messages = [...(system ? [{ role: "system", content: system }] : []), ...wireMessages(req.messages)];
    // strict: false — the DSL schema uses keywords (patternProperties, open maps) that strict mode refuses.
    if (mode === "json_schema") body.response_format = { type: "json_schema", json_schema: { name: "planspec_plan", schema: req.schema, strict: false } };
    else if (mode === "json_object") body.response_format = { type: "json_object" };
    return body;
  }

  private read(reply: HttpReply, url: string, mode: Mode): Completion {
    const b = reply.body as ChatReply;
    const choice = b.choices?.[0];
    const id = reply.requestId ? ` (request id ${reply.requestId})` : "";
    // OpenRouter reports an error met mid-generation inside the choice (finish_reason "error").
    const err = (choice as { error?: { message?: unknown; code?: unknown } } | undefined)?.error;
    if (err && typeof err === "object") {
      const code = err.code !== undefined ? ` (code ${String(err.code)})` : "";
      throw new PlannerError("http", `${url} answered ${reply.status} with an error in choices[0]: ${errorText({ ...reply, body: { error: err } })}${code}${id}`, reply.status);
    }
    if (!choice?.message || typeof choice.message !== "object") throw new PlannerError("bad-response", `${url} answered without choices[0].message${id}`);
    const m = choice.message;
    const text = messageText(m);
    const done: Completion = {
      text,
      usage: { inputTokens: b.usage?.prompt_tokens ?? 0, outputTokens: b.usage?.completion_tokens ?? 0 },
      truncated: choice.finish_reason === "length",
      mode,
    };
    if (typeof m.refusal === "string" && m.refusal.trim() !== "") done.refusal = m.refusal.trim();
    else if (choice.finish_reason === "content_filter" && text.trim() === "") done.refusal = "the provider's content filter stopped the answer";
    const reasoned = (b.usage?.completion_tokens_details?.reasoning_tokens ?? 0) > 0 || nonEmpty(m.reasoning_content) || nonEmpty(m.reasoning);
    if (text.trim() === "" && reasoned) done.reasoningOnly = true;
    return done;
  }
}

const nonEmpty = (v: unknown) => typeof v === "string" && v.trim() !== "";

/** The answer text of a message: the content string, its text parts, or else the first tool call's arguments. */
function messageText(m: Message): string {
  if (typeof m.content === "string" && m.content !== "") return m.content;
  if (Array.isArray(m.content)) {
    const parts = m.content
      .filter((p): p is { text: string } => !!p && typeof p === "object" && typeof (p as { text?: unknown }).text === "string" && /^(text|output_text)?$/.test(String((p as { type?: unknown }).type ?? "")))
      .map((p) => p.text);
    if (parts.length) return parts.join("");
  }
  const args = m.tool_calls?.find((t) => t?.function?.arguments !== undefined)?.function?.arguments;
  if (typeof args === "string") return args;
  if (args && typeof args === "object") return JSON.stringify(args);
  return typeof m.content === "string" ? m.content : "";
}

/** True when a 400 or 5xx is about the structured-output request rather than the prompt. */
function rejectsFormat(reply: HttpReply): boolean {
  return (reply.status === 400 || reply.status === 422 || reply.status >= 500) && /response_format|json_schema|json_object|structured output/i.test(reply.text);
}
