/**
 * Red team, credentials in a URL: `DATABASE_URL=postgres://app:<password>@db/prod`,
 * `REDIS_URL`, `AMQP_URL`, and planspec's own `PLANSPEC_STORE` (the run store: whoever has
 * it can write a run's approvals) carry a password in the value, under a name that looks
 * like nothing. `exec` hid variables *named* like secrets only, and the scrubber guessed
 * by name too: a build script got every such URL, and printing one put the password in
 * the run's artifacts and events. Real CLI, real shell.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder, planspec, put, scratch } from "./helpers.js";

const DB_PW = "hunter2-Pg-7f3a91";
const REDIS_PW = "r3dis-s3cret-44d0";
const STORE_PW = "st0re-pw-81c2ae55";

const PLAN = `planspec: 1
name: build
goal: run the repository's build script
tools: { fs.read: { risk: read }, exec: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  read_script:
    kind: read
    goal: read the build script of the checked-out repository
    tool: fs.read
    with: { path: build.sh }
    output: script
  build:
    kind: write
    needs: [read_script]
    goal: run the build script that was read
    tool: exec
    with: { command: "sh ./build.sh", script: "\${{ steps.read_script.output.path }}" }
    output: built
`;

const SCRIPT = `env > leaked-env.txt
printf 'db=%s\\nredis=%s\\nstore=%s\\nplain=%s\\n' "$DATABASE_URL" "$REDIS_URL" "$PLANSPEC_ARCHIVE_URL" "$DOCS_URL"
echo "connecting to postgres://app:${DB_PW}@db.internal:5432/prod"
`;

describe("red team: a password inside a URL-valued variable", () => {
  it("is not handed to exec's program, and is scrubbed wherever the run writes it", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    put(ws, "build.sh", SCRIPT);
    const env = {
      DATABASE_URL: `postgres://app:${DB_PW}@db.internal:5432/prod`,
      REDIS_URL: `redis://:${REDIS_PW}@cache.internal:6379/0`,
      PLANSPEC_ARCHIVE_URL: `postgresql://planspec:${STORE_PW}@store.internal/planspec`,
      DOCS_URL: "https://docs.example.com/build",
    };
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "run"], env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const dumped = readFileSync(join(ws, "leaked-env.txt"), "utf8");
    // Before: all three URLs, passwords and all, in the program's environment.
    expect([DB_PW, REDIS_PW, STORE_PW].filter((s) => dumped.includes(s))).toEqual([]);
    // A URL without a password is an ordinary variable.
    expect(dumped).toContain("DOCS_URL=https://docs.example.com/build");
    const everything = [r.stdout, r.stderr, ...filesUnder(join(ws, "run")).map((f) => readFileSync(f, "utf8"))].join("\n");
    // Before: the password the script echoes (it knows it from its own config) verbatim in the artifacts and events.
    expect(everything).toContain("connecting to postgres://app:[redacted]@db.internal:5432/prod");
    expect([DB_PW, REDIS_PW, STORE_PW].filter((s) => everything.includes(s))).toEqual([]);
  });

  it("a URL variable the plan lists in secrets: still arrives (and is scrubbed)", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN.replace("tools:", "secrets: [DATABASE_URL]\ntools:"));
    put(ws, "build.sh", SCRIPT);
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "run"], { DATABASE_URL: `postgres://app:${DB_PW}@db.internal:5432/prod` });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(join(ws, "leaked-env.txt"), "utf8")).toContain(`DATABASE_URL=postgres://app:${DB_PW}@db.internal:5432/prod`);
    const everything = [r.stdout, r.stderr, ...filesUnder(join(ws, "run")).map((f) => readFileSync(f, "utf8"))].join("\n");
    expect(everything).not.toContain(DB_PW);
  });
});
