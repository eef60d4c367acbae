/** `planspec import mcp NAME -- COMMAND ARGS...`: an MCP server's tools/list as a tool catalogue (a reviewed lock file). */
import type { Command } from "commander";
import { writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { McpServerSpec } from "../ir.js";
import { isSecretName, Scrubber, secretValues } from "../runtime/redact.js";
import type { ActionContext } from "./main.js";
import { UsageError, write } from "./io.js";
import { collect } from "./run.js";

interface McpOptions {
  url?: string;
  header: string[];
  env: string[];
  out?: string;
}

const HELP = `
Starts the server (stdio: the command after --) or dials it (--url, Streamable HTTP),
lists its tools and prints a catalogue: each tool as NAME.<tool> with its input_schema,
output_schema, annotations and a risk from the annotations (readOnlyHint -> read,
openWorldHint -> external, other hints -> write; no annotations -> write, marked for
review). Compile and lint read this file and never start the server; the runtime
refuses a tool whose live schema or annotations differ from it.

Examples:
  $ planspec import mcp files -- npx mcp-server-filesystem ./data -o files.catalog.yaml
  $ planspec import mcp memory --env MEMORY_FILE_PATH=/tmp/memory.jsonl -- mcp-server-memory
  $ planspec import mcp search --url http://127.0.0.1:8080/mcp --header "Authorization: Bearer $TOKEN"

Exit status: 0 written, 2 usage error or the server could not be started or listed.
`;

function pairs(list: string[], sep: string, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [n, item] of list.entries()) {
    const i = item.indexOf(sep);
    // Not quoted: the value is often a credential.
    if (i <= 0) throw new UsageError(`${what} must be NAME${sep}VALUE: ${what} number ${n + 1} has no "${sep}" (its text is not shown: it may be a secret)`);
    out[item.slice(0, i).trim()] = item.slice(i + 1).trim();
  }
  return out;
}

/** The values of --env and --header entries named like credentials (Authorization, API_TOKEN). */
function credentials(spec: McpServerSpec): string[] {
  const given = (spec.transport === "http" ? spec.headers : spec.env) ?? {};
  return Object.entries(given)
    .filter(([k]) => isSecretName(k))
    .flatMap(([, v]) => [v, v.replace(/^(bearer|basic|token)\s+/i, "")])
    .filter((v) => v.length >= 4);
}

/** Registers `import mcp` under the `import` command. */
export function registerImportMcp(cmd: Command, ctx: ActionContext): void {
  cmd
    .command("mcp")
    .description("write a tool catalogue from an MCP server's tools (stdio command after --, or --url)")
    .argument("<name>", "the server's name in the plan's mcp: map; its tools become <name>.<tool>")
    .argument("[command...]", "after --: the command that starts a stdio server, and its arguments")
    .option("--url <url>", "a Streamable HTTP server's endpoint instead of a command")
    .option("--header <name:value>", "an HTTP header for --url; repeatable", collect, [])
    .option("--env <name=value>", "an environment variable for the stdio server; repeatable", collect, [])
    .option("-o, --out <file>", "write the catalogue to FILE instead of stdout")
    .addHelpText("after", HELP)
    .action(
      ctx.action(async (name: string, command: string[], opts: McpOptions) => {
        const { io } = ctx;
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`server name "${name}" must be an identifier (letters, digits, _): tools are named ${name}.<tool>`);
        let spec: McpServerSpec;
        if (opts.url) {
          if (command.length > 0) throw new UsageError("give either --url or a command after --, not both");
          if (!/^https?:\/\//.test(opts.url)) throw new UsageError(`--url must be an http:// or https:// URL, got "${opts.url}"`);
          const headers = pairs(opts.header, ":", "--header");
          spec = { transport: "http", url: opts.url, ...(Object.keys(headers).length ? { headers } : {}) };
        } else {
          const [program, ...args] = command;
          if (!program) throw new UsageError(`no server to import: planspec import mcp ${name} -- COMMAND ARGS... (or --url URL)`);
          const env = pairs(opts.env, "=", "--env");
          spec = { transport: "stdio", command: program, args, ...(Object.keys(env).length ? { env } : {}) };
        }
        const { connect } = await import("../runtime/mcp/pool.js");
        const { catalogueYaml } = await import("../runtime/mcp/catalogue.js");
        // The catalogue is committed and its header quotes the command line (`--token $GH_TOKEN`); errors quote the server's stderr.
        const scrub = new Scrubber([...secretValues(io.env), ...credentials(spec)]);
        let conn;
        try {
          conn = await connect(name, spec, io.cwd, io.env);
        } catch (err) {
          throw new UsageError(scrub.text((err as Error).message));
        }
        try {
          const yaml = scrub.text(catalogueYaml(name, spec, [...conn.tools.values()], conn.client.getServerVersion(), opts.out ? basename(opts.out) : undefined));
          if (opts.out) {
            const file = resolve(io.cwd, opts.out);
            try {
              writeFileSync(file, yaml);
            } catch (err) {
              throw new UsageError(`cannot write ${opts.out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
            }
            await write(io.stderr, `wrote ${conn.tools.size} tool${conn.tools.size === 1 ? "" : "s"} of MCP server "${name}" to ${opts.out}\n`);
          } else {
            await write(io.stdout, yaml);
          }
        } finally {
          await conn.client.close().catch(() => undefined);
        }
        return 0;
      }),
    );
}
