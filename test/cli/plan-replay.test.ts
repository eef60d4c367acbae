/** `planspec plan --replay` re-runs the loop from the committed trace with no network and no key. */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers.js";
import { GOAL, cliAsync, goodPlan, workspace } from "../planner/fixtures.js";
import { type Scripted, anthropicContent, anthropicReply, openaiMessage, startServer } from "../planner/server.js";
import { anthropicRules } from "../planner/providers.js";

const dir = join(repoRoot, "specs/planner");
const lines = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, any>);

describe("planspec plan --replay", () => {
  it("reproduces the recorded rounds and plan from specs/planner/fix-typo.trace.jsonl", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "planspec-replay-")), "replayed");
    const r = await cliAsync(["plan", "--replay", "fix-typo.trace.jsonl", "-o", out], dir, {});
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("2 model calls, 6200 tokens in, 820 out");
    expect(r.stdout).toContain("[write-without-verification]");

    const recorded = lines(join(dir, "fix-typo.trace.jsonl"));
    const replayed = lines(`${out}.trace.jsonl`);
    const codes = (events: Array<Record<string, any>>) =>
      events.filter((e) => e.type === "diagnostics").map((e) => ({ ok: e.ok, codes: (e.diagnostics ?? []).map((d: { code: string }) => d.code) }));
    expect(codes(replayed)).toEqual(codes(recorded));
    expect(codes(replayed)[0]!.codes).toContain("write-without-evidence");

    const ir = JSON.parse(readFileSync(`${out}.ir.json`, "utf8"));
    const committed = JSON.parse(readFileSync(join(dir, "fix-typo.ir.json"), "utf8"));
    expect(ir.planHash).toBe(committed.planHash);
  });

  it("fails in one line when the trace has too few answers for the rounds asked", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "planspec-replay-")), "x");
    // The recorded first answer fails lint; with more candidates than answers the replay runs dry.
    const r = await cliAsync(["plan", "--replay", "fix-typo.trace.jsonl", "--candidates", "2", "-o", out], dir, {});
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^planspec: the trace has no recorded answer left for candidate 2, round 1\n$/);
  });

  it("rejects a file that is not a trace", async () => {
    const r = await cliAsync(["plan", "--replay", "tools.catalog.yaml"], dir, {});
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^planspec: .*not a JSON line/);
  });

  it("replays a recorded run with an empty answer, a cut-off and a refusal to the same rounds and outcome", async () => {
    const runs: Array<{ provider: string; script: Scripted[]; status: number }> = [
      { provider: "anthropic", script: [anthropicContent([]), anthropicReply({ planspec: 1 }, "max_tokens"), anthropicReply(goodPlan())], status: 0 },
      { provider: "openai", script: [openaiMessage({ role: "assistant", content: null, refusal: "No." })], status: 1 },
    ];
    for (const run of runs) {
      const server = await startServer(run.script, run.provider === "anthropic" ? { check: anthropicRules("k") } : {});
      const work = workspace();
      const args = ["plan", GOAL, "--provider", run.provider, "--tools", "tools.catalog.yaml", "-o", "rec", "--base-url", `${server.url}/v1`];
      const live = await cliAsync(args, work, { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" });
      await server.close();
      expect(live.status).toBe(run.status);
      const replay = await cliAsync(["plan", "--replay", "rec.trace.jsonl", "-o", "again"], work, {});
      expect(replay.stderr).toBe("");
      expect(replay.status).toBe(run.status);
      const rounds = (f: string) => lines(join(work, f)).filter((e) => e.type === "diagnostics").map((e) => ({ ok: e.ok, parse: e.parse }));
      expect(rounds("again.trace.jsonl")).toEqual(rounds("rec.trace.jsonl"));
      expect(replay.stdout.replaceAll("again", "rec")).toBe(live.stdout);
    }
  });
});
