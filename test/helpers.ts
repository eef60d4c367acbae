/** Shared test helpers: the repo root and running the real CLI in a child process. */
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

export const repoRoot = fileURLToPath(new URL("..", import.meta.url));
export const bin = join(repoRoot, "bin/planspec");

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `bin/planspec` (built into dist/ by `npm test`'s pretest) with no colour. */
export function cli(args: string[], opts: SpawnSyncOptions = {}): CliRun {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined },
    timeout: 120_000,
    ...opts,
  });
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}
