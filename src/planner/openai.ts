/**
 * The OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM, llama.cpp
 * server, LM Studio, OpenRouter). It asks for `response_format: json_schema`; a server
 * that rejects that (a 400 naming response_format) is asked again in JSON mode, then in
 * plain text, and the mode that worked is kept for the rest of the session.
 */
import { PlannerError } from "./errors.js";
import { type HttpPolicy, type HttpReply, httpFailure, postJson } from "./http.js";
import { type ChatRequest, type Completion, type Provider, endpoint } from "./provider.js";
import type { TraceSink } from "./trace.js";

type Mode = "json_schema" | "json_object" | "plain";
const MODES: Mode[] = ["json_schema", "json_object", "plain"];

export interface OpenAIConfig {
  key: string;
  model: string;
  baseUrl: string;
  policy: HttpPolicy;
  maxTokens: number;
}

interface ChatReply {
  choices?: Array<{ message?: { content?: unknown }; finish_reason?: string }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** The chat-completions client. */
export class OpenAIProvider implements Provider {
  readonly name = "openai";
  readonly model: string;
  private mode: Mode = "json_schema";

  constructor(private readonly cfg: OpenAIConfig) {
    this.model = cfg.model;
  }

  async complete(req: ChatRequest, trace: TraceSink): Promise<Completion> {
    const url = endpoint(this.cfg.baseUrl, "chat/completions");
    for (;;) {
      const body = this.body(req);
      const reply = await postJson(url, { authorization: `Bearer ${this.cfg.key}` }, body, this.cfg.policy, trace, {
        candidate: req.candidate,
        round: req.round,
        provider: this.name,
        mode: this.mode,
      });
      if (reply.status === 400 && this.mode !== "plain" && rejectsFormat(reply)) {
        this.mode = MODES[MODES.indexOf(this.mode) + 1]!;
        trace.record({ type: "diagnostics", candidate: req.candidate, round: req.round, note: `server rejected response_format; falling back to ${this.mode}` });
        continue;
      }
      if (reply.status < 200 || reply.status >= 300) throw httpFailure(reply, url, this.model, "OPENAI_API_KEY");
      return this.read(reply, url);
    }
  }

  private body(req: ChatRequest): Record<string, unknown> {
    const instruction =
      this.mode === "json_schema" ? "" : `\n\nAnswer with one JSON object only, no prose. It must satisfy this JSON Schema:\n${JSON.stringify(req.schema)}`;
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: this.cfg.maxTokens,
      messages: [{ role: "system", content: req.system + instruction }, ...req.messages],
    };
    // strict: false — the DSL schema uses keywords (patternProperties, open maps) that strict mode refuses.
    if (this.mode === "json_schema") body.response_format = { type: "json_schema", json_schema: { name: "planspec_plan", schema: req.schema, strict: false } };
    else if (this.mode === "json_object") body.response_format = { type: "json_object" };
    return body;
  }

  private read(reply: HttpReply, url: string): Completion {
    const b = reply.body as ChatReply | undefined;
    const choice = b?.choices?.[0];
    const content = choice?.message?.content;
    if (typeof content !== "string") throw new PlannerError("bad-response", `${url} answered without choices[0].message.content`);
    return {
      text: content,
      usage: { inputTokens: b?.usage?.prompt_tokens ?? 0, outputTokens: b?.usage?.completion_tokens ?? 0 },
      truncated: choice?.finish_reason === "length",
      mode: this.mode,
    };
  }
}

/** True when a 400 is about the structured-output request rather than the prompt. */
function rejectsFormat(reply: HttpReply): boolean {
  return /response_format|json_schema|json_object|structured output/i.test(reply.text);
}
