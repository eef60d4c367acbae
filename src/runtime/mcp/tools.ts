/**
 * MCP tools as planspec tools: `<server>.<tool>` names of a plan whose server is in its
 * `mcp:` map become tool implementations that call the server through the pool. Before
 * a call, the live tool (tools/list) must match the plan's catalogue — input schema,
 * output schema and annotations — or the call is refused as drift.
 */
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { JsonValue, PlanIR, ToolAnnotations, ToolSpec } from "../../ir.js";
import { riskFromAnnotations } from "../../annotations.js";
import { PermanentStepError } from "../step.js";
import { ToolError, type ToolImpl } from "../tools/types.js";
import { currentTools, McpPool, NO_SDK_TIMEOUT, type LiveTool } from "./pool.js";
import { cutClean } from "../redact.js";

/** The live tool differs from the reviewed catalogue: never called, never retried. */
export class McpDriftError extends PermanentStepError {
  constructor(message: string) {
    super(message);
    this.name = "McpDriftError";
  }
}

/** Where a request's idempotency key travels (MCP has no field of its own for it). */
export const IDEMPOTENCY_META_KEY = "io.planspec/idempotency-key";

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** The four behaviour hints of an MCP tool, without `title` or unknown keys; undefined when none is set. */
export function hintsOf(a: Record<string, unknown> | undefined): ToolAnnotations | undefined {
  if (!a) return undefined;
  const out: ToolAnnotations = {};
  for (const k of HINTS) if (typeof a[k] === "boolean") out[k] = a[k];
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The server and tool of a `<server>.<tool>` name, when the server is declared. */
export function splitMcpName(plan: PlanIR, name: string): { server: string; tool: string } | undefined {
  const dot = name.indexOf(".");
  if (dot <= 0 || !plan.mcp) return undefined;
  const server = name.slice(0, dot);
  return Object.hasOwn(plan.mcp, server) ? { server, tool: name.slice(dot + 1) } : undefined;
}

function show(v: unknown): string {
  const s = v === undefined ? "nothing" : JSON.stringify(v);
  return s.length > 80 ? `${cutClean(s, 77)}...` : s;
}

/** The first place two JSON values differ, as `path: catalogue X, server Y`; undefined when equal. */
export function firstDifference(path: string, a: unknown, b: unknown): string | undefined {
  if (a === b) return undefined;
  const obj = (v: unknown) => typeof v === "object" && v !== null;
  if (obj(a) && obj(b) && Array.isArray(a) === Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort();
    for (const k of keys) {
      const d = firstDifference(Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`, ra[k], rb[k]);
      if (d) return d;
    }
    return undefined;
  }
  return `${path}: catalogue ${show(a)}, server ${show(b)}`;
}

/** Why the live tool does not match the catalogue entry, or undefined. */
export function driftOf(spec: ToolSpec, live: LiveTool | undefined): string | undefined {
  if (!live) return "the server no longer lists it";
  return (
    firstDifference("input_schema", spec.inputSchema, live.inputSchema) ??
    firstDifference("output_schema", spec.outputSchema, live.outputSchema) ??
    firstDifference("annotations", spec.annotations ?? {}, hintsOf(live.annotations as Record<string, unknown> | undefined) ?? {})
  );
}

function textOf(result: CallToolResult): string {
  return result.content
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}

/** A tool result as a step output: the structured content when the tool gives one, else `{ text, content }`. */
function outputOf(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent as JsonValue;
  return { text: textOf(result), content: result.content as unknown as JsonValue };
}

/**
 * The implementations of a plan's MCP tools. The risk of each is what its catalogued
 * annotations imply (the catalogue's own risk when it records none): drift checking
 * keeps the live annotations equal to those.
 */
export function mcpTools(plan: PlanIR, names: Iterable<string>, pool: McpPool): { tools: Map<string, ToolImpl>; problems: string[] } {
  const tools = new Map<string, ToolImpl>();
  const problems: string[] = [];
  for (const name of names) {
    const where = splitMcpName(plan, name);
    if (!where) continue;
    const spec = plan.tools[name];
    if (!spec) {
      problems.push(`MCP tool "${name}" is not in the plan's catalogue: write one with \`planspec import mcp ${where.server} -- COMMAND ... -o ${where.server}.catalog.yaml\`, review it, and import it under tools:`);
      continue;
    }
    const risk = riskFromAnnotations(spec.annotations) ?? spec.risk;
    tools.set(name, {
      risk,
      ...(spec.description ? { description: spec.description } : {}),
      async run(args, ctx) {
        const conn = await pool.get(where.server);
        const drift = driftOf(spec, (await currentTools(conn)).get(where.tool));
        if (drift) throw new McpDriftError(`MCP tool "${name}" drifted from the catalogue: ${drift}; refusing to call it (re-run planspec import mcp, review the change, and commit the new catalogue)`);
        let result: CallToolResult;
        try {
          result = (await conn.client.callTool(
            { name: where.tool, arguments: args, ...(ctx.idempotencyKey !== undefined ? { _meta: { [IDEMPOTENCY_META_KEY]: ctx.idempotencyKey } } : {}) },
            undefined,
            { signal: ctx.signal, timeout: NO_SDK_TIMEOUT },
          )) as CallToolResult;
        } catch (err) {
          if (ctx.signal.aborted) throw ctx.signal.reason;
          // Not an answer from the server (it exited, the connection broke): start afresh next time.
          if (!(err instanceof McpError) || err.code === ErrorCode.ConnectionClosed) {
            conn.closed = true;
            void conn.client.close().catch(() => undefined);
          }
          if (conn.closed) {
            const tail = conn.stderrTail();
            const cause = conn.lastError ? ` (${conn.lastError})` : "";
            throw new ToolError(`MCP server "${where.server}" failed during the call to "${name}": ${(err as Error).message}${cause}${tail ? ` (stderr: ${tail})` : ""}; it is restarted on the next call`);
          }
          throw new ToolError(`${name}: ${(err as Error).message}`);
        }
        if (result.isError) throw new ToolError(`${name}: ${textOf(result) || "the tool reported an error"}`);
        return outputOf(result);
      },
    });
  }
  return { tools, problems };
}
