/**
 * Vitest global setup: the CLI tests run `bin/planspec` over `dist/`, which `npx vitest run
 * <file>` does not build (`npm test` does, in `pretest`). A `dist/` older than a source file
 * would test the code before the change: a fix that seems not to work, or a defect that
 * seems fixed. When a file under src/ is newer than the build, this builds first, saying so.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");

/** The newest modification time of the files under `dir`. */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) t = Math.max(t, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return t;
}

export default function setup(): void {
  const built = statSync(join(root, "dist", "cli", "main.js"), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (newest(join(root, "src")) <= built) return;
  process.stderr.write("dist/ is older than src/: building it first (npm run build)\n");
  const r = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm run build failed: the tests would run an old dist/");
}
