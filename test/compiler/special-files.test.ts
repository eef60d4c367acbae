/**
 * Plans, imports and templates that name a device or a FIFO: reading one would hang the
 * compiler (a FIFO blocks on open, /dev/zero never ends), and with it `planspec lint` in CI
 * and the language server in an editor that opened a hostile repository.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../helpers.js";
import { LspSession } from "../lsp/session.js";

const PLAN = (imp: string) =>
  `planspec: 1\nname: x\ngoal: Read a file.\ntools: { import: ${imp} }\nlimits: { run_timeout: 1m }\nsteps:\n  a: { kind: read, goal: Read the file now please, tool: fs.read }\n`;

let session: LspSession | undefined;
afterEach(() => {
  session?.child.kill("SIGKILL");
  session = undefined;
});

describe("special files", () => {
  it("lint reports a FIFO plan and a /dev/zero or FIFO import as unreadable instead of hanging", () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-special-"));
    execFileSync("mkfifo", [join(dir, "fifo.plan.yaml"), join(dir, "tools.fifo.yaml")]);
    writeFileSync(join(dir, "zero.plan.yaml"), PLAN("/dev/zero"));
    writeFileSync(join(dir, "pipe.plan.yaml"), PLAN("./tools.fifo.yaml"));
    const r = cli(["lint", "fifo.plan.yaml", "zero.plan.yaml", "pipe.plan.yaml", "--format", "json"], { cwd: dir, timeout: 20_000 });
    expect(r.status).toBe(2);
    const found = (JSON.parse(r.stdout) as Array<{ file: string; code: string; message: string }>).filter((d) => d.code !== "PS114");
    expect(found.map((d) => [d.file, d.code, d.message])).toEqual([
      ["fifo.plan.yaml", "PS100", "cannot read fifo.plan.yaml: not a regular file (a device, FIFO or socket)"],
      ["pipe.plan.yaml", "PS117", "cannot import ./tools.fifo.yaml: not a regular file (a device, FIFO or socket)"],
      ["zero.plan.yaml", "PS117", "cannot import /dev/zero: not a regular file (a device, FIFO or socket)"],
    ]);
  });

  it("the language server answers for a plan importing /dev/zero", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-special-"));
    const s = (session = new LspSession(dir));
    await s.initialize();
    await s.open("zero.plan.yaml", PLAN("/dev/zero"));
    const list = await s.diagnostics(s.uri("zero.plan.yaml"));
    expect(list.map((d) => d.code)).toContain("PS117");
    expect(await s.close()).toBe(0);
  }, 30_000);
});
