/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) that answers with scripted replies
 * in order and records every request, so tests assert on what a provider client sent.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface ScriptServer {
  url: string;
  requests: Received[];
  close(): Promise<void>;
}

/** Starts the server; each request takes the next scripted reply (a 599 once the script runs out). */
export async function startServer(script: Scripted[]): Promise<ScriptServer> {
  const requests: Received[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the raw text
      }
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const reply = script[next++] ?? { status: 599, body: { error: { message: "script exhausted" } } };
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An OpenAI chat-completions reply whose message content is `content`. */
export function openaiReply(content: string, finish = "stop"): Scripted {
  return {
    status: 200,
    body: {
      id: "chatcmpl-test",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finish }],
      usage: { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500 },
    },
  };
}

/** An Anthropic Messages reply calling the plan tool with `input`. */
export function anthropicReply(input: unknown): Scripted {
  return {
    status: 200,
    body: {
      id: "msg_test",
      type: "message",
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_1", name: "submit_plan", input }],
      stop_reason: "tool_use",
      usage: { input_tokens: 900, output_tokens: 250 },
    },
  };
}

/** An error reply in the shape both APIs use. */
export function errorReply(status: number, message: string, headers?: Record<string, string>): Scripted {
  return headers ? { status, headers, body: { error: { message, type: "error" } } } : { status, body: { error: { message, type: "error" } } };
}
