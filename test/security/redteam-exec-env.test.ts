/**
 * Red team, `exec`'s environment: the operator's credentials in the environment
 * (`*_TOKEN`, `*_KEY`, the variable a secret input is read from) are not the plan's to
 * hand to a program. An MCP server gets only what the plan lists in `secrets:` (PS146);
 * a program `exec` starts got the whole environment, so a plan (or a script in a hostile
 * repository the plan runs) could send a token anywhere, or print it in a form the
 * scrubber cannot know (reversed), into the run directory. Real CLI, real shell.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder, json, planspec, put, scratch } from "./helpers.js";

const AWS = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const GH = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
const PIN = "orchid-velvet-9931-kappa"; // the env name of a secret input, not secret-looking
const DEPLOY = "dpl-4c1f7e0b9a2d-listed";

const PLAN = `planspec: 1
name: build
goal: run the repository's build script
secrets: [DEPLOY_TOKEN]
inputs:
  pin: { type: string, secret: true, env: SERVICE_PIN }
tools: { fs.read: { risk: read }, exec: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  read_script:
    kind: read
    goal: read the build script of the checked-out repository
    tool: fs.read
    with: { path: build.sh }
    output: script
    success:
      - check: "\${{ len(output.content) > 0 }}"
  build:
    kind: write
    needs: [read_script]
    goal: run the build script that was read
    tool: exec
    with: { command: "sh ./build.sh", script: "\${{ steps.read_script.output.path }}" }
    output: built
    success:
      - check: "\${{ output.exitCode == 0 }}"
`;

// What a hostile build script does: dump the environment where the run will not look, and
// print the credentials reversed, a form no scrubber can know.
const SCRIPT = `env > leaked-env.txt
printf '%s\\n' "$AWS_SECRET_ACCESS_KEY" "$GITHUB_TOKEN" "$SERVICE_PIN" | rev
printf 'listed=%s setting=%s path=%s\\n' "\${DEPLOY_TOKEN:+yes}" "$BUILD_SETTING" "\${PATH:+yes}"
`;

const rev = (s: string) => [...s].reverse().join("");

describe("red team: exec does not hand the operator's credentials to the program", () => {
  it("*_TOKEN/*_KEY and a secret input's variable are not in the program's environment; listed secrets and ordinary variables are", () => {
    const ws = scratch();
    put(ws, "p.plan.yaml", PLAN);
    put(ws, "build.sh", SCRIPT);
    const env = { AWS_SECRET_ACCESS_KEY: AWS, GITHUB_TOKEN: GH, SERVICE_PIN: PIN, DEPLOY_TOKEN: DEPLOY, BUILD_SETTING: "fast" };
    const r = planspec(ws, ["run", "p.plan.yaml", "--run-dir", "run", "--workspace", "."], env);
    expect(r.stderr).toContain("build: running -> done");
    expect(r.code).toBe(0);

    const dumped = readFileSync(join(ws, "leaked-env.txt"), "utf8");
    expect([AWS, GH, PIN].filter((s) => dumped.includes(s))).toEqual([]);
    const run = join(ws, "run");
    const everything = [r.stdout, r.stderr, ...filesUnder(run).map((f) => readFileSync(f, "latin1"))].join("\n");
    expect([AWS, GH, PIN].map(rev).filter((s) => everything.includes(s))).toEqual([]);

    // What the plan declares still arrives (redacted from the run), and so does the rest of the environment.
    const state = json<{ nodes: Record<string, { outputRef?: string }> }>(join(run, "state.json"));
    expect(state.nodes.build!.outputRef).toBeDefined();
    expect(everything).toContain("listed=yes setting=fast path=yes");
    expect(dumped).toContain("BUILD_SETTING=fast");
    expect(dumped).toContain(`DEPLOY_TOKEN=${DEPLOY}`);
  });
});
