/**
 * The Anthropic Messages API client. Structure comes from tool use: one tool whose
 * input schema is the DSL plan schema, and `tool_choice` forcing the model to call it,
 * so the tool input is the plan document. Empty assistant turns are never sent (the
 * API refuses them), and a default token limit above the model's maximum is lowered
 * to the maximum the API names, once.
 */
import { PlannerError, maskingSecrets } from "./errors.js";
import { type HttpReply, errorText, httpFailure, notAReply, postJson } from "./http.js";
import type { ChatRequest, ClientConfig, Completion, Provider } from "./provider.js";
import { wireMessages } from "./messages.js";
import type { TraceSink } from "./trace.js";

export const PLAN_TOOL = "submit_plan";

interface MessagesReply {
  content?: Array<{ type?: string; name?: string; input?: unknown; text?: string }>;
  stop_reason?: string;
  usage?: { input_tokens?: number; output_tokens?: number };
}

/** The Messages API client. */
export class AnthropicProvider implements Provider {
  readonly name = "anthropic";
  readonly model: string;
  private maxTokens: number;

  /** `defaultLimit`: the token limit was not chosen by the user, so it may be lowered to the model's maximum. */
  constructor(
    private readonly cfg: ClientConfig,
    private defaultLimit = false,
  ) {
    this.model = cfg.model;
    this.maxTokens = cfg.maxTokens ?? 8192;
  }

  complete(req: ChatRequest, trace: TraceSink): Promise<Completion> {
    return maskingSecrets(this.cfg.transport.secrets, () => this.call(req, trace));
  }

  private async call(req: ChatRequest, trace: TraceSink): Promise<Completion> {
    const url = this.cfg.url;
    const tool = req.schema !== undefined;
    const tag = { candidate: req.candidate ?? 0, round: req.round ?? 0, provider: this.name, mode: tool ? "tool" : "text" };
    for (;;) {
      const body: Record<string, unknown> = { model: this.model, max_tokens: this.maxTokens, ...(req.system ? { system: req.system } : {}), ...(req.temperature !== undefined ? { temperature: req.temperature } : {}), messages: wireMessages(req.messages) };
      if (tool) {
        body.tools = [{ name: PLAN_TOOL, description: "Submit the plan document (planspec DSL, JSON form).", input_schema: req.schema }];
        body.tool_choice = { type: "tool", name: PLAN_TOOL };
      }
      const reply = await postJson(url, this.cfg.headers, body, this.cfg.policy, this.cfg.transport, trace, tag, undefined, req.signal);
      if (reply.status < 200 || reply.status >= 300) {
        const max = this.modelMaximum(reply);
        if (max !== undefined) {
          trace.record({ type: "diagnostics", ...tag, note: `max_tokens ${this.maxTokens} is above the model's ${max}; sending ${max}` });
          this.maxTokens = max;
          this.defaultLimit = false;
          continue;
        }
        throw httpFailure(reply, { url, model: this.model, keyVar: this.cfg.keyVar, notFoundHint: this.cfg.notFoundHint });
      }
      const hidden = notAReply(reply, url);
      if (hidden) throw hidden;
      return this.read(reply, url);
    }
  }

  /** "max_tokens: 8192 > 4096, which is the maximum allowed …": the maximum, when the limit was a default. */
  private modelMaximum(reply: HttpReply): number | undefined {
    if (!this.defaultLimit || reply.status !== 400) return undefined;
    const m = /max_tokens: \d+ > (\d+)/.exec(errorText(reply));
    return m ? Number(m[1]) : undefined;
  }

  private read(reply: HttpReply, url: string): Completion {
    const b = reply.body as MessagesReply;
    const id = reply.requestId ? ` (request id ${reply.requestId})` : "";
    if (!Array.isArray(b.content)) throw new PlannerError("bad-response", `${url} answered without a content list${id}`);
    const use = b.content.find((c) => c.type === "tool_use" && c.name === PLAN_TOOL);
    // Without the tool call, fall back to the text blocks: the loop parses and repairs them like any answer.
    const prose = b.content.map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("");
    const text = use ? JSON.stringify(use.input ?? {}) : prose;
    const done: Completion = {
      text,
      usage: { inputTokens: b.usage?.input_tokens ?? 0, outputTokens: b.usage?.output_tokens ?? 0 },
      truncated: b.stop_reason === "max_tokens",
      mode: use ? "tool" : "text",
    };
    if (b.stop_reason === "refusal") done.refusal = prose.trim() || "the model declined to answer (stop_reason: refusal)";
    else if (!use && text.trim() === "" && b.content.some((c) => c.type === "thinking" || c.type === "redacted_thinking")) done.reasoningOnly = true;
    return done;
  }
}
