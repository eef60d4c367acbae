/**
 * A tool catalogue from an MCP server's tools/list: the lock file `planspec import mcp`
 * writes, which compile and lint read instead of starting the server, and against which
 * the runtime checks the live server (drift).
 */
import { Document, isMap, isScalar, type Pair, type YAMLMap } from "yaml";
import { riskFromAnnotations } from "../../annotations.js";
import type { McpServerSpec, Risk } from "../../ir.js";
import { describeServer, type LiveTool } from "./pool.js";
import { hintsOf } from "./tools.js";

/** The catalogue entry of one live tool, and whether its risk had to be assumed. */
export function catalogueEntry(tool: LiveTool): { entry: Record<string, unknown>; assumed: boolean } {
  const annotations = hintsOf(tool.annotations as Record<string, unknown> | undefined);
  const mapped = riskFromAnnotations(annotations);
  const risk: Risk = mapped ?? "write";
  const entry: Record<string, unknown> = { risk };
  const description = tool.description ?? tool.title ?? tool.annotations?.title;
  if (description) entry.description = description;
  entry.input_schema = tool.inputSchema;
  if (tool.outputSchema !== undefined) entry.output_schema = tool.outputSchema;
  if (annotations) entry.annotations = annotations;
  return { entry, assumed: mapped === undefined };
}

/** The YAML of the catalogue, with a header saying where it came from and how to use it. */
export function catalogueYaml(server: string, spec: McpServerSpec, tools: readonly LiveTool[], info?: { name: string; version: string }, file = `${server}.catalog.yaml`): string {
  const entries: Record<string, unknown> = {};
  const assumed = new Set<string>();
  for (const t of [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const { entry, assumed: a } = catalogueEntry(t);
    entries[`${server}.${t.name}`] = entry;
    if (a) assumed.add(`${server}.${t.name}`);
  }
  const doc = new Document({ planspec: 1, description: `Tools of MCP server "${server}"${info ? ` (${info.name} ${info.version})` : ""}`, tools: entries });
  const use = spec.transport === "http" ? `{ url: ${JSON.stringify(spec.url)} }` : `{ command: ${JSON.stringify(spec.command)}, args: ${JSON.stringify(spec.args)} }`;
  doc.commentBefore = [
    ` Written by planspec import mcp from ${describeServer(spec)}.`,
    " A lock file: review it (the risks above all), commit it, and import it from the plan:",
    `   mcp:`,
    `     ${server}: ${use}`,
    `   tools:`,
    `     import: ./${file}`,
    " Risk from annotations: readOnlyHint -> read, openWorldHint -> external, other hints -> write.",
    " At run time a tool whose live schema or annotations differ from this file is refused.",
  ].join("\n");
  const toolsNode = (doc.contents as YAMLMap).get("tools") as YAMLMap;
  if (isMap(toolsNode)) {
    for (const pair of toolsNode.items as Pair[]) {
      if (isScalar(pair.key) && assumed.has(String(pair.key.value))) {
        pair.key.commentBefore = " no annotations: risk write assumed (conservative); lower it only if you know the tool is read-only";
      }
    }
  }
  return doc.toString({ lineWidth: 0 });
}
