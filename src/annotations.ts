/**
 * MCP tool annotations mapped onto planspec risk: the lowest risk a tool with these
 * hints may honestly be catalogued at. Shared by `planspec import mcp`, the runtime's MCP
 * adapter and lint. Imports nothing of ours but the IR.
 */
import type { Risk, ToolAnnotations } from "./ir.js";

/**
 * `readOnlyHint` → read; `openWorldHint` without `readOnlyHint` → external; any other
 * hint set (`destructiveHint`, a tool that says it is not read-only) → write. No hints
 * at all → undefined: the caller decides (import assumes write, conservatively).
 */
export function riskFromAnnotations(a: ToolAnnotations | undefined): Risk | undefined {
  if (!a || (a.readOnlyHint === undefined && a.destructiveHint === undefined && a.idempotentHint === undefined && a.openWorldHint === undefined)) return undefined;
  if (a.readOnlyHint === true) return "read";
  if (a.openWorldHint === true) return "external";
  return "write";
}
