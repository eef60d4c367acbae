/**
 * Confinement of the fs built-ins under attack: `..`, absolute paths, symlinks (to a
 * file, a directory, dangling) out of the workspace, and a second process swapping a
 * symlink between inside and outside while the tools run (check and use must be one
 * step). Escapes are counted: a read that returned outside content, a listing of an
 * outside directory, a file created or changed outside.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { builtinTools } from "../../src/runtime/tools/builtins.js";
import type { ToolContext } from "../../src/runtime/tools/types.js";
import { events, exists, planspec, put, scratch } from "./helpers.js";

const tools = builtinTools();

function setup() {
  const base = realpathSync(scratch());
  const ws = join(base, "ws");
  const outside = join(base, "outside");
  mkdirSync(join(ws, "sub"), { recursive: true });
  mkdirSync(join(outside, "dir"), { recursive: true });
  writeFileSync(join(outside, "secret.txt"), "OUTSIDE");
  writeFileSync(join(outside, "dir", "outside-entry"), "OUTSIDE");
  writeFileSync(join(ws, "inside.txt"), "INSIDE");
  writeFileSync(join(ws, "sub", "inside-entry"), "INSIDE");
  const ctx: ToolContext = {
    signal: new AbortController().signal,
    runId: "r",
    stepId: "s",
    attempt: 1,
    workspace: ws,
    callTool: () => Promise.reject(new Error("no")),
  };
  return { base, ws, outside, ctx };
}

async function call(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<{ ok: true; value: unknown } | { ok: false; error: Error }> {
  try {
    return { ok: true, value: await tools.get(name)!.run(args, ctx) };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

/** What is outside must stay as it was: the same files, the same content. */
function outsideUnchanged(outside: string): void {
  expect(readdirSync(outside).sort()).toEqual(["dir", "secret.txt"]);
  expect(readdirSync(join(outside, "dir"))).toEqual(["outside-entry"]);
  expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("OUTSIDE");
}

describe("static escapes are refused for reads, lists and writes", () => {
  it("`..`, absolute paths, symlinks to outside files and dirs, dangling symlinks, symlinked parents", async () => {
    const { ws, outside, ctx } = setup();
    symlinkSync(join(outside, "secret.txt"), join(ws, "link-file"));
    symlinkSync(join(outside, "dir"), join(ws, "link-dir"));
    symlinkSync(join(outside, "x"), join(ws, "dangling"));
    symlinkSync(join(outside, "newdir"), join(ws, "dangling-dir"));
    symlinkSync("inside.txt", join(ws, "ok-link"));
    const attacks: Array<[string, Record<string, unknown>]> = [];
    for (const p of ["../outside/secret.txt", join(outside, "secret.txt"), "link-file", "link-dir/outside-entry", "sub/../../outside/secret.txt", "dangling"]) {
      attacks.push(["fs.read", { path: p }], ["csv.read", { path: p }], ["template.render", { path: p, values: {} }]);
    }
    for (const p of ["..", outside, "link-dir", "link-dir/.", "dangling-dir"]) attacks.push(["fs.list", { path: p }]);
    for (const p of ["../outside/new.txt", join(outside, "new.txt"), "link-file", "link-dir/new.txt", "link-dir/deep/new.txt", "dangling", "dangling-dir/new.txt"]) {
      attacks.push(["fs.write", { path: p, content: "PWNED" }], ["fs.write", { path: p, content: "PWNED", append: true }]);
    }
    attacks.push(["exec", { command: "pwd", cwd: "link-dir" }], ["exec", { command: "pwd", cwd: "../outside" }]);
    let refused = 0;
    for (const [tool, args] of attacks) {
      const r = await call(tool, args, ctx);
      if (r.ok) throw new Error(`${tool} ${JSON.stringify(args)} escaped: ${JSON.stringify(r.value).slice(0, 80)}`);
      expect(r.error.name, `${tool} ${JSON.stringify(args)}: ${r.error.message}`).toBe("PathEscapeError");
      refused++;
    }
    expect(refused).toBe(attacks.length);
    console.log(`static escapes: ${attacks.length} tries, ${refused} refused, 0 escaped`);
    outsideUnchanged(outside);
    // Symlinks that stay inside keep working; a write through one updates its target, the link stays.
    expect(await call("fs.read", { path: "ok-link" }, ctx)).toMatchObject({ ok: true, value: { content: "INSIDE" } });
    expect(await call("fs.write", { path: "ok-link", content: "NEW" }, ctx)).toMatchObject({ ok: true });
    expect(readFileSync(join(ws, "inside.txt"), "utf8")).toBe("NEW");
    expect(await call("fs.write", { path: "a/b/c.txt", content: "deep" }, ctx)).toMatchObject({ ok: true, value: { path: "a/b/c.txt" } });
    expect(readFileSync(join(ws, "a/b/c.txt"), "utf8")).toBe("deep");
  });

  it("through a real run: fs.write to a dangling symlink ws/x -> /outside/x is a violation and creates nothing outside", () => {
    const { base, ws, outside } = setup();
    symlinkSync(join(outside, "x"), join(ws, "x"));
    put(base, "p.plan.yaml", `planspec: 1
name: dangling
goal: write a report file
tools: { fs.write: { risk: write } }
limits: { max_tool_calls: 5 }
steps:
  save: { kind: write, goal: save the report, tool: fs.write, with: { path: x, content: PWNED } }
`);
    const r = planspec(base, ["run", "p.plan.yaml", "--workspace", "ws", "--run-dir", "run", "--no-lint-gate"]);
    expect(r.code).toBe(1);
    expect(exists(join(outside, "x"))).toBe(false);
    expect(events(join(base, "run")).filter((e) => e.type === "violation")).toHaveLength(1);
    outsideUnchanged(outside);
  });
});

// A second process flips `ws/<name>` between a target inside and one outside, as fast as it can.
const FLIPPER = `
const { symlinkSync, renameSync } = require("node:fs");
const [link, a, b] = process.argv.slice(1);
for (let i = 0; ; i++) {
  const tmp = link + ".flip";
  try { symlinkSync(i % 2 ? a : b, tmp); renameSync(tmp, link); } catch {}
}`;

let flipper: ChildProcess | undefined;
afterEach(() => {
  flipper?.kill("SIGKILL");
  flipper = undefined;
});

/** Starts the flipper and returns once it has flipped the link at least once. */
async function flip(link: string, inside: string, outside: string): Promise<void> {
  symlinkSync(inside, link);
  flipper = spawn(process.execPath, ["-e", FLIPPER, link, inside, outside], { stdio: "ignore" });
  const t0 = Date.now();
  while (readlinkOr(link) !== outside) {
    if (Date.now() - t0 > 10_000) throw new Error("the flipper did not start");
    await new Promise((r) => setTimeout(r, 5));
  }
}

function readlinkOr(link: string): string | undefined {
  try {
    return readlinkSync(link);
  } catch {
    return undefined;
  }
}

const ROUNDS = 500;

/** Calls `tool` ROUNDS times while the flipper runs; counts refusals and results `leaked` says came from outside. */
async function race(ctx: ToolContext, tool: string, args: (i: number) => Record<string, unknown>, leaked: (value: unknown) => boolean = () => false) {
  let refused = 0;
  let escaped = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const r = await call(tool, args(i), ctx);
    if (!r.ok) refused++;
    else if (leaked(r.value)) escaped++;
  }
  flipper?.kill("SIGKILL");
  return { refused, escaped };
}

describe("a symlink swapped between check and use (500 rounds each, a racing process)", () => {
  it("reads: 0 of 500 return outside content", async () => {
    const { ws, outside, ctx } = setup();
    await flip(join(ws, "race"), join(ws, "inside.txt"), join(outside, "secret.txt"));
    const { refused, escaped } = await race(ctx, "fs.read", () => ({ path: "race" }), (v) => JSON.stringify(v).includes("OUTSIDE"));
    console.log(`fs.read race: ${ROUNDS} tries, ${refused} refused, ${escaped} escaped`);
    expect(escaped).toBe(0);
    expect(refused).toBeGreaterThan(0);
  });

  it("lists: 0 of 500 list the outside directory", async () => {
    const { ws, outside, ctx } = setup();
    await flip(join(ws, "race"), join(ws, "sub"), join(outside, "dir"));
    const { refused, escaped } = await race(ctx, "fs.list", () => ({ path: "race" }), (v) => JSON.stringify(v).includes("outside-entry"));
    console.log(`fs.list race: ${ROUNDS} tries, ${refused} refused, ${escaped} escaped`);
    expect(escaped).toBe(0);
    expect(refused).toBeGreaterThan(0);
  });

  it("writes under a swapped parent directory: 0 of 500 files land outside", async () => {
    const { ws, outside, ctx } = setup();
    await flip(join(ws, "race"), join(ws, "sub"), join(outside, "dir"));
    const { refused } = await race(ctx, "fs.write", (i) => ({ path: `race/f${i}.txt`, content: "PWNED", append: i % 2 === 1 }));
    const escaped = readdirSync(join(outside, "dir")).filter((n) => n !== "outside-entry").length;
    console.log(`fs.write race (parent dir): ${ROUNDS} tries, ${refused} refused, ${escaped} escaped`);
    expect(escaped).toBe(0);
    expect(refused).toBeGreaterThan(0);
  });

  it("writes to a swapped file link: the outside file is never written", async () => {
    const { ws, outside, ctx } = setup();
    await flip(join(ws, "race"), join(ws, "inside.txt"), join(outside, "secret.txt"));
    const { refused } = await race(ctx, "fs.write", (i) => ({ path: "race", content: "PWNED", append: i % 2 === 1 }));
    console.log(`fs.write race (file link): ${ROUNDS} tries, ${refused} refused`);
    expect(refused).toBeGreaterThan(0);
    outsideUnchanged(outside);
  });
});
