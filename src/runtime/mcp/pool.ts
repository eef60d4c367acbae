/**
 * MCP client connections of a run: a server starts (or is dialled) on first use, is
 * shared by every step of the run, restarted on the next use after it died, and closed
 * when the run session ends. Uses the official SDK's stdio and Streamable HTTP transports.
 */
import { isAbsolute, resolve } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerSpec } from "../../ir.js";
import { ENV_REF } from "../../compiler/mcp.js";
import { pushAll } from "../../util/arrays.js";
import { cutClean } from "../redact.js";

export type LiveTool = Tool;

/** A server that cannot be started, reached or listed. */
export class McpConnectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpConnectError";
  }
}

const CLIENT_INFO = { name: "planspec", version: "1" };
const CONNECT_TIMEOUT_MS = 30_000;
/** The longest stderr line a server's error message quotes. */
const STDERR_LINE_MAX = 64 * 1024;
/** The SDK's own 60 s request timeout would cut long tools short: the step's timeout (its AbortSignal) governs. */
export const NO_SDK_TIMEOUT = 2_147_483_647;

export interface Connection {
  client: Client;
  /** Tools by name, from tools/list when the connection opened. */
  tools: Map<string, LiveTool>;
  /** Set when the server said its tool list changed: `tools` is listed again before the next call. */
  listChanged: boolean;
  /** True once the transport closed (the server exited or the session ended). */
  closed: boolean;
  /** The last lines the server wrote to stderr (stdio), for error messages. */
  stderrTail: () => string;
  /** The last transport error (a message too large for the SDK's 10 MiB read buffer, a broken pipe). */
  lastError?: string;
}

/** How a server is named in messages: its command line or its URL. */
export function describeServer(spec: McpServerSpec): string {
  return spec.transport === "http" ? spec.url : [spec.command, ...spec.args].join(" ");
}

/**
 * `${NAME}` in header and env values is taken from `env` when the server starts, so a
 * plan (and the run directory's copy of it) names a secret without holding it. A run's
 * pool passes only the plan's `secrets:` as `env` (see McpPool).
 */
export function expandEnv(values: Readonly<Record<string, string>> | undefined, env: NodeJS.ProcessEnv, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values ?? {})) {
    out[k] = v.replace(ENV_REF, (_, name: string) => {
      const value = env[name];
      if (value === undefined) throw new McpConnectError(`environment variable ${name} (used in ${where}.${k}) is not set`);
      return value;
    });
  }
  return out;
}

function transportFor(name: string, spec: McpServerSpec, baseDir: string, env: NodeJS.ProcessEnv): { transport: Transport; tail: () => string } {
  if (spec.transport === "http") {
    const url = new URL(spec.url);
    const headers = expandEnv(spec.headers, env, `mcp.${name}.headers`);
    return { transport: new StreamableHTTPClientTransport(url, { requestInit: { headers } }), tail: () => "" };
  }
  const cwd = resolve(baseDir, spec.cwd ?? ".");
  // `./bin/server` is relative to the server's directory; a bare name is looked up on PATH.
  const command = spec.command.includes("/") && !isAbsolute(spec.command) ? resolve(cwd, spec.command) : spec.command;
  const vars = { ...getDefaultEnvironment(), ...expandEnv(spec.env, env, `mcp.${name}.env`) };
  const transport = new StdioClientTransport({ command, args: spec.args, cwd, env: vars, stderr: "pipe" });
  const lines: string[] = [];
  // A line the pipe delivered in pieces is put back together before it is kept: its pieces apart
  // (joined by " | ") would hide a secret it quotes from the scrubber. The decoder does the same
  // for a character cut between two chunks.
  let partial = "";
  // Inside a line longer than STDERR_LINE_MAX: left out whole (a piece of it could be a piece of a secret).
  let long = false;
  const decoder = new StringDecoder("utf8");
  transport.stderr?.on("data", (chunk: Buffer) => {
    const split = (partial + decoder.write(chunk)).split("\n");
    partial = split.pop()!;
    if (long && split.length > 0) {
      split.shift();
      long = false;
    }
    if (long) partial = "";
    else if (partial.length > STDERR_LINE_MAX) {
      partial = "";
      long = true;
      split.push(`[a line of more than ${STDERR_LINE_MAX / 1024} KiB, left out]`);
    }
    pushAll(lines, split.filter((l) => l.trim() !== ""));
    if (lines.length > 5) lines.splice(0, lines.length - 5);
  });
  // A line not ended yet (the server died or the call failed mid-line) may end inside a secret: that piece is left out.
  return { transport, tail: () => [...lines, ...(partial.trim() !== "" ? [cutClean(partial, partial.length, true)] : [])].slice(-5).join(" | ") };
}

async function listAll(client: Client): Promise<LiveTool[]> {
  const tools: LiveTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout: CONNECT_TIMEOUT_MS });
    pushAll(tools, page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** Starts or dials one server, initialises the session and lists its tools. */
export async function connect(name: string, spec: McpServerSpec, baseDir: string, env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  const { transport, tail } = transportFor(name, spec, baseDir, env);
  const client = new Client(CLIENT_INFO);
  const conn: Connection = { client, tools: new Map(), listChanged: false, closed: false, stderrTail: tail };
  client.onclose = () => {
    conn.closed = true;
  };
  client.onerror = (err) => {
    conn.lastError = err.message;
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    conn.listChanged = true;
  });
  try {
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    for (const t of await listAll(client)) conn.tools.set(t.name, t);
  } catch (err) {
    await client.close().catch(() => undefined);
    const status = (err as { code?: unknown }).code;
    const why = `${(err as Error).message}${spec.transport === "http" && typeof status === "number" && status >= 400 ? ` (HTTP ${status})` : ""}`;
    const extra = tail();
    throw new McpConnectError(`cannot start MCP server "${name}" (${describeServer(spec)}): ${why}${extra ? ` (stderr: ${extra})` : ""}`);
  }
  return conn;
}

/** The server's tools as they are now: listed again when it announced a change (drift is judged on these). */
export async function currentTools(conn: Connection): Promise<Map<string, LiveTool>> {
  if (conn.listChanged) {
    conn.listChanged = false;
    conn.tools = new Map((await listAll(conn.client)).map((t) => [t.name, t]));
  }
  return conn.tools;
}

/** The servers of one run session. */
export class McpPool {
  private readonly live = new Map<string, Promise<Connection>>();
  private ended = false;

  /** The variables `${NAME}` may take: only the plan's `secrets:`, whatever else the process holds. */
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    private readonly servers: Readonly<Record<string, McpServerSpec>>,
    /** Relative stdio `cwd`s resolve against this (the plan file's directory). */
    private readonly baseDir: string,
    env: NodeJS.ProcessEnv,
    secrets: readonly string[],
  ) {
    this.env = Object.fromEntries(secrets.filter((n) => env[n] !== undefined).map((n) => [n, env[n]]));
  }

  /** The open connection to `server`, started on first use and again after it died. */
  async get(server: string): Promise<Connection> {
    if (this.ended) throw new McpConnectError(`the run session ended; MCP server "${server}" is closed`);
    const spec = this.servers[server];
    if (!spec) throw new McpConnectError(`no MCP server "${server}" in the plan's mcp: map`);
    const current = this.live.get(server);
    if (current) {
      const conn = await current.catch(() => undefined);
      if (conn && !conn.closed) return conn;
      // Dead (it exited) or never came up: whoever gets here first starts it again.
      if (this.live.get(server) !== current) return this.get(server);
      this.live.delete(server);
    }
    // Not tied to one step's signal: the connection is shared by the whole run.
    const pending = connect(server, spec, this.baseDir, this.env);
    this.live.set(server, pending);
    return pending;
  }

  /** Closes every connection (stdio servers are stopped). */
  async close(): Promise<void> {
    this.ended = true;
    const all = [...this.live.values()];
    this.live.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.client.close().catch(() => undefined)));
  }
}
