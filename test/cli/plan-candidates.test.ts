/** `planspec plan --candidates k`: k loops, a comparison table, and the lowest-risk adequate plan kept. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GOAL, blindWritePlan, cliAsync, goodPlan, readOnlyPlan, workspace } from "../planner/fixtures.js";
import { type ScriptServer, openaiReply, startServer } from "../planner/server.js";

let server: ScriptServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("planspec plan --candidates", () => {
  it("scores three candidates, prints the table and keeps the read-only adequate one", async () => {
    server = await startServer([openaiReply(JSON.stringify(goodPlan())), openaiReply(JSON.stringify(readOnlyPlan())), openaiReply(JSON.stringify(blindWritePlan()))]);
    const dir = workspace();
    const r = await cliAsync(
      ["plan", GOAL, "--tools", "tools.catalog.yaml", "-o", "out", "--candidates", "3", "--max-repairs", "0", "--base-url", `${server.url}/v1`],
      dir,
      { OPENAI_API_KEY: "k" },
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const table = r.stdout.split("\n").slice(0, 4);
    expect(table[0]).toMatch(/^\s+#\s+adequate\s+steps\s+tool calls\s+max risk\s+write\/external\s+assumptions\s+errors\s+warnings$/);
    expect(table[1]).toMatch(/^\s+1\s+yes\s+2\s+2\s+write\s+1\s/);
    expect(table[2]).toMatch(/^\*\s+2\s+yes\s+2\s+2\s+read\s+0\s/);
    expect(table[3]).toMatch(/^\s+3\s+no\s+2\s+2\s+write\s+1\s+0\s+[1-9]/);
    expect(readFileSync(join(dir, "out.plan.yaml"), "utf8")).toContain("name: find-typo");
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1]!.body.messages[1].content).toContain("candidate 2 of 3");
    const result = readFileSync(join(dir, "out.trace.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).at(-1);
    expect(result).toMatchObject({ type: "result", chosen: 1, ok: true });
  });

  it("exits 1 and marks none when no candidate is adequate", async () => {
    const bad = openaiReply(JSON.stringify(blindWritePlan()));
    server = await startServer([bad, bad]);
    const dir = workspace();
    const r = await cliAsync(
      ["plan", GOAL, "--tools", "tools.catalog.yaml", "-o", "out", "--candidates", "2", "--max-repairs", "0", "--base-url", `${server.url}/v1`],
      dir,
      { OPENAI_API_KEY: "k" },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).not.toMatch(/^\*/m);
    expect(r.stdout).toContain("[write-without-evidence]");
  });
});
