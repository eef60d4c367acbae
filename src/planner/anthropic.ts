/**
 * The Anthropic Messages API client. Structure comes from tool use: one tool whose
 * input schema is the DSL plan schema, and `tool_choice` forcing the model to call it,
 * so the tool input is the plan document.
 */
import { PlannerError } from "./errors.js";
import { type HttpPolicy, httpFailure, postJson } from "./http.js";
import { type ChatRequest, type Completion, type Provider, endpoint } from "./provider.js";
import type { TraceSink } from "./trace.js";

export const PLAN_TOOL = "submit_plan";
const API_VERSION = "2023-06-01";

export interface AnthropicConfig {
  key: string;
  model: string;
  baseUrl: string;
  policy: HttpPolicy;
  maxTokens: number;
}

interface MessagesReply {
  content?: Array<{ type?: string; name?: string; input?: unknown; text?: string }>;
  stop_reason?: string;
  usage?: { input_tokens?: number; output_tokens?: number };
}

/** The Messages API client. */
export class AnthropicProvider implements Provider {
  readonly name = "anthropic";
  readonly model: string;

  constructor(private readonly cfg: AnthropicConfig) {
    this.model = cfg.model;
  }

  async complete(req: ChatRequest, trace: TraceSink): Promise<Completion> {
    const url = endpoint(this.cfg.baseUrl, "messages");
    const body = {
      model: this.model,
      max_tokens: this.cfg.maxTokens,
      system: req.system,
      messages: req.messages,
      tools: [{ name: PLAN_TOOL, description: "Submit the plan document (planspec DSL, JSON form).", input_schema: req.schema }],
      tool_choice: { type: "tool", name: PLAN_TOOL },
    };
    const headers = { "x-api-key": this.cfg.key, "anthropic-version": API_VERSION };
    const reply = await postJson(url, headers, body, this.cfg.policy, trace, { candidate: req.candidate, round: req.round, provider: this.name, mode: "tool" });
    if (reply.status < 200 || reply.status >= 300) throw httpFailure(reply, url, this.model, "ANTHROPIC_API_KEY");
    const b = reply.body as MessagesReply | undefined;
    if (!Array.isArray(b?.content)) throw new PlannerError("bad-response", `${url} answered without a content list`);
    const use = b.content.find((c) => c.type === "tool_use" && c.name === PLAN_TOOL);
    // Without the tool call, fall back to the text blocks: the loop parses and repairs them like any answer.
    const text = use ? JSON.stringify(use.input) : b.content.map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("");
    return {
      text,
      usage: { inputTokens: b.usage?.input_tokens ?? 0, outputTokens: b.usage?.output_tokens ?? 0 },
      truncated: b.stop_reason === "max_tokens",
      mode: use ? "tool" : "text",
    };
  }
}
