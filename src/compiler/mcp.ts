/**
 * A plan's `mcp:` servers, compiled as written, and their `${NAME}` references held to the
 * plan's `secrets:`. A reference hands the value of an environment variable of the
 * planspec process to a server the plan chose (its URL, its program), so a plan (perhaps
 * written by a model) could send AWS_SECRET_ACCESS_KEY to `https://attacker/` in a
 * header. Each name it sends must be one it declares, where a reviewer sees it, and a
 * declared secret is redacted from everything the run writes.
 */
import type { McpServerSpec, PlanIR } from "../ir.js";
import type { Collector } from "./diagnostics.js";
import type { SourceDoc } from "./source.js";

type Obj = Record<string, unknown>;

/** `${NAME}` in an `env` or `headers` value. */
export const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The map whose values may hold `${NAME}`: `headers` of a URL server, `env` of a command. */
const expanded = (spec: Obj): "headers" | "env" => (typeof spec.url === "string" ? "headers" : "env");

/** The environment variables a server's `env` and `headers` name as `${NAME}`. */
export function envReferences(spec: McpServerSpec): string[] {
  const values = Object.values((spec.transport === "http" ? spec.headers : spec.env) ?? {});
  return values.flatMap((v) => [...v.matchAll(ENV_REF)].map((m) => m[1]!));
}

/** Reports (PS146) every `${NAME}` of `mcp:` whose NAME is not in `secrets`, at the reference itself. */
export function checkMcpReferences(doc: SourceDoc, raw: Obj, secrets: ReadonlySet<string>, out: Collector): void {
  for (const [server, v] of Object.entries(raw)) {
    const field = expanded(v as Obj);
    const values = (v as Obj)[field];
    if (!values || typeof values !== "object") continue;
    for (const [key, value] of Object.entries(values as Obj)) {
      if (typeof value !== "string") continue;
      const path = ["mcp", server, field, key];
      const [start, end] = doc.rangeOf(path);
      const written = doc.text.slice(start, end);
      let from = 0;
      for (const m of value.matchAll(ENV_REF)) {
        if (secrets.has(m[1]!)) continue;
        // The reference as written in the value (quoted scalars shift it by their quote).
        const at = written.indexOf(m[0], from);
        from = at < 0 ? from : at + m[0].length;
        const range: [number, number] = at < 0 ? [start, end] : [start + at, start + at + m[0].length];
        out.report("PS146", doc.file, range, { name: m[1]!, where: `mcp.${server}.${field}.${key}` });
      }
    }
  }
}

/** `mcp:` as written (the schema checked its shape); relative paths stay relative, so the IR is portable. */
export function compileMcp(raw: Obj): NonNullable<PlanIR["mcp"]> {
  const out: NonNullable<PlanIR["mcp"]> = {};
  for (const [name, v] of Object.entries(raw)) {
    const s = v as Obj;
    if (typeof s.url === "string") {
      const headers = stringMap(s.headers);
      out[name] = { transport: "http", url: s.url, ...(headers ? { headers } : {}) };
    } else {
      const env = stringMap(s.env);
      out[name] = {
        transport: "stdio",
        command: String(s.command),
        args: Array.isArray(s.args) ? s.args.map(String) : [],
        ...(env ? { env } : {}),
        ...(typeof s.cwd === "string" ? { cwd: s.cwd } : {}),
      };
    }
  }
  return out;
}

function stringMap(v: unknown): Record<string, string> | undefined {
  if (!v || typeof v !== "object") return undefined;
  return Object.fromEntries(Object.entries(v as Obj).map(([k, x]) => [k, String(x)]));
}
