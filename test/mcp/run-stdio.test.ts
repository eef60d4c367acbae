/**
 * MCP tools at run time over stdio: the real memory server used by a plan, and the SDK
 * fixture server for what a well-behaved server never does — crash mid-call, drift from
 * its catalogue, hang past a step's timeout.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readOutput, readState, tempDir } from "../runtime/helpers.js";
import { compileFile } from "../../src/compiler/index.js";
import { setupTools } from "../../src/runtime/run.js";
import { planspec } from "../cli/run-helpers.js";
import { events, FIXTURE_SERVER, importCatalogue, MEMORY_SERVER, onlyRunDir, toolCalls } from "./helpers.js";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A project with the fixture's catalogue and a plan whose `mcp:` starts the fixture with `env`. */
function fixtureProject(steps: string, env: Record<string, string> = {}, tools = ""): string {
  const dir = tempDir("planspec-mcp-stdio-");
  importCatalogue(dir, "fx", [process.execPath, FIXTURE_SERVER]);
  const envYaml = Object.keys(env).length ? `\n    env: ${JSON.stringify(env)}` : "";
  writeFileSync(
    join(dir, "p.plan.yaml"),
    `planspec: 1\nname: fixture\ngoal: Exercise the fixture server\nlimits: { max_tool_calls: 20, run_timeout: 1m }\nmcp:\n  fx:\n    command: ${process.execPath}\n    args: [${FIXTURE_SERVER}]${envYaml}\ntools:\n  import: ./fx.catalog.yaml\n${tools}steps:\n${steps}`,
  );
  return dir;
}

describe("MCP tools over stdio", () => {
  it("a plan uses @modelcontextprotocol/server-memory: writes entities, reads them back", () => {
    const dir = tempDir("planspec-mcp-memory-");
    const memory = join(dir, "memory.jsonl");
    importCatalogue(dir, "memory", [MEMORY_SERVER], { MEMORY_FILE_PATH: memory });
    const cat = readFileSync(join(dir, "memory.catalog.yaml"), "utf8");
    expect(cat).toMatch(/memory\.create_entities:\n\s+risk: write/);
    expect(cat).toMatch(/memory\.search_nodes:\n\s+risk: read/);
    writeFileSync(
      join(dir, "p.plan.yaml"),
      `planspec: 1
name: remember
goal: Record an entity in the memory graph and find it again
deliverables: [found]
limits: { max_tool_calls: 10 }
mcp:
  memory:
    command: ${MEMORY_SERVER}
    env: { MEMORY_FILE_PATH: ${memory} }
tools:
  import: ./memory.catalog.yaml
steps:
  remember:
    kind: write
    goal: Record the customer Ada in the memory graph
    tool: memory.create_entities
    with:
      entities: [{ name: Ada, entityType: customer, observations: [pays on time] }]
    idempotency_key: ada-\${{ run.id }}
    output: created
  find:
    kind: read
    needs: remember
    goal: Find the customer Ada again
    tool: memory.search_nodes
    with: { query: Ada }
    output: found
    success:
      - check: \${{ len(output.entities) == 1 }}
`,
    );
    const r = planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate"]);
    expect(r.stdout, r.stderr).toMatch(/: done\n/);
    expect(readFileSync(memory, "utf8")).toContain('"name":"Ada"');
    const found = events(onlyRunDir(dir)).filter((e) => e.type === "tool.result" && (e.data as { tool: string }).tool === "memory.search_nodes");
    expect(found).toHaveLength(1);
  });

  it("one server process serves the whole run and is stopped at its end", async () => {
    const dir = fixtureProject(
      `  a: { kind: read, goal: Ask the server for its pid, tool: fx.whoami, output: a }\n  b: { kind: read, goal: Ask the server for its pid again, tool: fx.whoami, output: b }\n  c: { kind: read, needs: [a, b], goal: Ask the server once more, tool: fx.whoami, output: c }\n`,
    );
    const r = planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate", "--run-dir", "run"]);
    expect(r.stdout, r.stderr).toMatch(/: done\n/);
    const state = readState(join(dir, "run"));
    const pids = await Promise.all(["a", "b", "c"].map(async (id) => Number(((await readOutput(join(dir, "run"), state.nodes[id]!.outputRef!)) as { text: string }).text)));
    expect(new Set(pids).size).toBe(1);
    expect(alive(pids[0]!)).toBe(false);
  });

  it("a server that exits during a call is a failed attempt: retried on a restarted server", () => {
    const marker = join(tempDir("planspec-mcp-marker-"), "crashed");
    const dir = fixtureProject(
      `  boom:\n    kind: write\n    goal: Call the tool that crashes its server once\n    tool: fx.crash\n    retry: { max_attempts: 2, backoff: none }\n    idempotency_key: boom-\${{ run.id }}\n    output: boom\n`,
      { FIXTURE_MARKER: marker },
    );
    const r = planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate", "--run-dir", "run"]);
    expect(r.stderr).toMatch(/boom: retry in 0ms \(attempt 2\)/);
    expect(r.stdout, r.stderr).toMatch(/: done\n/);
    const retry = events(join(dir, "run")).find((e) => e.type === "retry")!;
    expect(String((retry.data as { error: string }).error)).toMatch(/^MCP server "fx" failed during the call to "fx\.crash": .*Connection closed.*fixture: crashing on purpose.*restarted on the next call$/);
    const crashedPid = Number(readFileSync(marker, "utf8"));
    expect(alive(crashedPid)).toBe(false);
    expect(toolCalls(join(dir, "run"), "fx.crash")).toBe(2);
  });

  it("without a retry, the crash fails the step with one clear line", () => {
    const marker = join(tempDir("planspec-mcp-marker-"), "crashed");
    const dir = fixtureProject(`  boom:\n    kind: write\n    goal: Call the tool that crashes its server\n    tool: fx.crash\n    idempotency_key: boom\n`, { FIXTURE_MARKER: marker });
    const r = planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/failed — step "boom" failed: MCP server "fx" failed during the call to "fx\.crash"/);
  });

  it("drift: a live input schema that differs from the catalogue is refused, naming the tool and the difference", () => {
    const dir = fixtureProject(`  say: { kind: read, goal: Echo a word back, tool: fx.echo, with: { text: hi }, retry: { max_attempts: 3 } }\n`, { FIXTURE_DRIFT: "1" });
    const r = planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate", "--run-dir", "run"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'step "say" failed: MCP tool "fx.echo" drifted from the catalogue: input_schema.properties.text.type: catalogue "string", server "number"; refusing to call it',
    );
    // Drift is not retried, and the call never reached the server.
    expect(events(join(dir, "run")).some((e) => e.type === "retry")).toBe(false);
  });

  it("drift: changed annotations are refused too", () => {
    const dir = fixtureProject(`  say: { kind: read, goal: Echo a word back, tool: fx.echo, with: { text: hi } }\n`);
    const file = join(dir, "fx.catalog.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/(fx\.echo:[\s\S]*?openWorldHint: )false/, "$1true"));
    const r = planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('MCP tool "fx.echo" drifted from the catalogue: annotations.openWorldHint: catalogue true, server false');
  });

  it("the gateway applies to MCP tools: risk above the step's is a violation; the idempotency key reaches the server", () => {
    const dir = fixtureProject(
      `  post:\n    kind: read\n    risk: read\n    goal: Try to post to the internet from a read step\n    tool: fx.web\n    with: { text: hi }\n`,
    );
    const r = planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`post: VIOLATION: tool "fx.web" refused: the tool's risk external is above the step's risk read`);

    const keyed = fixtureProject(`  post:\n    kind: external\n    goal: Post a note to the internet\n    tool: fx.web\n    with: { text: hi }\n    idempotency_key: note-42\n    output: posted\n`);
    const k = planspec(keyed, ["run", "p.plan.yaml", "--no-lint-gate", "--run-dir", "run"]);
    expect(k.stdout, k.stderr).toMatch(/: done\n/);
    const st = JSON.parse(readFileSync(join(keyed, "run/state.json"), "utf8")).nodes.post;
    expect(JSON.parse(readFileSync(join(keyed, "run", st.outputRef), "utf8")).text).toBe("web ok key=note-42");
  });

  it("a step timeout cancels the MCP call through the AbortSignal", () => {
    const cancelled = join(tempDir("planspec-mcp-cancel-"), "cancelled");
    // A first call starts the server, so the timeout measures the slow call alone.
    const dir = fixtureProject(
      `  warm: { kind: read, goal: Start the server, tool: fx.whoami, output: warm }\n  wait:\n    kind: read\n    needs: warm\n    goal: Wait far longer than allowed\n    tool: fx.slow\n    with: { ms: 20000 }\n    timeout: 1s\n`,
      { FIXTURE_CANCELLED: cancelled },
    );
    const t0 = Date.now();
    const r = planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate"]);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(r.stdout).toContain('step "wait" timed out after 1000ms');
    expect(existsSync(cancelled)).toBe(true);
  });

  it("refuses to start: an MCP tool missing from the catalogue, or catalogued below its annotations", async () => {
    const missing = fixtureProject(`  say: { kind: read, goal: Echo a word back, tool: fx.echo2, with: { text: hi } }\n`);
    const c = planspec(missing, ["run", "p.plan.yaml", "--no-lint-gate"]);
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/p\.plan\.yaml:\d+:\d+: unknown tool "fx\.echo2": it is not in the plan's tool catalogue \[PS114\]/);
    // A library caller's IR without the catalogue entry (the compiler and IR validation refuse such a plan).
    const ok = fixtureProject(`  say: { kind: read, goal: Echo a word back, tool: fx.echo, with: { text: hi } }\n`);
    const compiled = compileFile(join(ok, "p.plan.yaml"));
    const ir = { ...compiled.ir!, tools: {} };
    await expect(setupTools(ir, [], { baseDir: ok })).rejects.toThrow(/^MCP tool "fx\.echo" is not in the plan's catalogue: write one with `planspec import mcp fx/);

    const lowered = fixtureProject(`  post: { kind: read, goal: Post a note to the internet, tool: fx.web, with: { text: hi } }\n`);
    const file = join(lowered, "fx.catalog.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/(fx\.web:\n\s+risk: )external/, "$1read"));
    const l = planspec(lowered, ["run", "p.plan.yaml", "--no-lint-gate"]);
    expect(l.code).toBe(2);
    expect(l.stderr).toBe('planspec: tool "fx.web" is declared risk read in the plan\'s catalogue but its implementation has risk external\n');
  });

  it("refuses a server name that would shadow built-in tools", () => {
    const dir = tempDir("planspec-mcp-stdio-");
    importCatalogue(dir, "fs", [process.execPath, FIXTURE_SERVER]);
    writeFileSync(
      join(dir, "p.plan.yaml"),
      `planspec: 1\nname: shadow\ngoal: Echo\nlimits: { max_tool_calls: 2 }\nmcp:\n  fs: { command: ${process.execPath}, args: [${FIXTURE_SERVER}] }\ntools:\n  import: ./fs.catalog.yaml\nsteps:\n  say: { kind: read, goal: Echo a word back, tool: fs.echo, with: { text: hi } }\n`,
    );
    const r = planspec(dir, ["run", "p.plan.yaml", "--no-lint-gate"]);
    expect(r.stderr).toBe('planspec: MCP server "fs" would shadow the tools fs.read, fs.list, fs.write: give the server another name in mcp:\n');
    expect(r.code).toBe(2);
  });
});
