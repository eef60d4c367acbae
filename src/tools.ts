/**
 * `planspec/tools`: the surface for tool authors. A tool module's default export maps
 * tool names to tools; `defineTool` types one (its `run` gets the step's evaluated
 * `with` and a context, returns a JSON-serialisable value, and throws to fail the attempt).
 *
 * ```ts
 * import { defineTool, ToolError } from "planspec/tools";
 * export default {
 *   "notes.post": defineTool({
 *     risk: "external",
 *     description: "Post a note: { text } -> { posted }",
 *     async run(args, ctx) {
 *       if (typeof args.text !== "string") throw new ToolError("notes.post: text must be a string");
 *       ctx.signal.throwIfAborted();
 *       return { posted: true, key: ctx.idempotencyKey };
 *     },
 *   }),
 * };
 * ```
 */
import type { ToolContext, ToolImpl } from "./runtime/tools/types.js";

export type { Risk, ToolAnnotations, ToolSpec } from "./ir.js";
export { RISKS, riskRank } from "./ir.js";
export { ToolError, type ToolContext, type ToolImpl } from "./runtime/tools/types.js";
export { riskFromAnnotations } from "./annotations.js";

/** A tool whose `run` receives arguments of type `A` (the step's evaluated `with`). */
export interface ToolDefinition<A extends Record<string, unknown> = Record<string, unknown>, R = unknown> {
  /** `read` < `write` < `external`: the gateway lets a step call the tool only when the step's risk allows it. */
  risk: ToolImpl["risk"];
  description?: string;
  run(args: A, ctx: ToolContext): R | Promise<R>;
}

/**
 * Types a tool for a tool module. The runtime checks at load time that `risk` is one of
 * read, write, external and that `run` is a function; this returns the tool unchanged.
 */
export function defineTool<A extends Record<string, unknown> = Record<string, unknown>, R = unknown>(tool: ToolDefinition<A, R>): ToolImpl {
  return tool as unknown as ToolImpl;
}
