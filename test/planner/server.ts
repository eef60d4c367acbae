/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) that answers with scripted replies
 * in order and records every request, so tests assert on what a provider client sent.
 * A `check` (see providers.ts) makes it behave like a provider: it answers a request
 * the provider would refuse with the provider's own error, before the script is used.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Scripted {
  status: number;
  headers?: Record<string, string>;
  /** JSON-encoded unless a string (then sent as is). */
  body: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the client's timeout must fire). */
  hang?: boolean;
}

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** When the request arrived (Date.now()). */
  at: number;
}

export interface ScriptServer {
  url: string;
  requests: Received[];
  close(): Promise<void>;
}

export interface ServerOptions {
  /** A provider's validation: a reply for a request it would refuse, or undefined to answer from the script. */
  check?: (req: Received) => Scripted | undefined;
}

function send(res: ServerResponse, reply: Scripted): void {
  if (reply.hang) return;
  const go = () => {
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
  };
  if (reply.delayMs) setTimeout(go, reply.delayMs);
  else go();
}

/** Starts the server; each request takes the next scripted reply (a 599 once the script runs out). */
export async function startServer(script: Scripted[], opts: ServerOptions = {}): Promise<ScriptServer> {
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
      const received: Received = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, at: Date.now() };
      requests.push(received);
      const refused = opts.check?.(received);
      send(res, refused ?? script[next++] ?? { status: 599, body: { error: { message: "script exhausted" } } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An OpenAI chat-completions reply whose message content is `content`. */
export function openaiReply(content: string, finish = "stop"): Scripted {
  return openaiMessage({ role: "assistant", content }, finish);
}

/** An OpenAI chat-completions reply carrying `message` as choices[0].message. */
export function openaiMessage(message: Record<string, unknown>, finish = "stop", usage: Record<string, unknown> = {}): Scripted {
  return {
    status: 200,
    headers: { "x-request-id": "req_test_1" },
    body: {
      id: "chatcmpl-test",
      object: "chat.completion",
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500, ...usage },
    },
  };
}

/** An Anthropic Messages reply calling the plan tool with `input`. */
export function anthropicReply(input: unknown, stop = "tool_use"): Scripted {
  return anthropicContent([{ type: "tool_use", id: "toolu_1", name: "submit_plan", input }], stop);
}

/** An Anthropic Messages reply with the given content blocks. */
export function anthropicContent(content: unknown[], stop = "end_turn"): Scripted {
  return {
    status: 200,
    headers: { "request-id": "req_ant_1" },
    body: { id: "msg_test", type: "message", role: "assistant", content, stop_reason: stop, usage: { input_tokens: 900, output_tokens: 250 } },
  };
}

/** An error reply in the shape both APIs use. */
export function errorReply(status: number, message: string, headers?: Record<string, string>, extra: Record<string, unknown> = {}): Scripted {
  const body = { error: { message, type: "error", ...extra } };
  return headers ? { status, headers, body } : { status, body };
}
