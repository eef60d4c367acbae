/** Confines file paths to the workspace: traversal (`..`, absolute paths, symlinks out) is refused. */
import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";

/** Thrown when a path leaves the workspace; the gateway records it as a violation. */
export class PathEscapeError extends Error {
  constructor(readonly path: string) {
    super(`path "${path}" is outside the workspace`);
    this.name = "PathEscapeError";
  }
}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Resolves `p` against the workspace and throws `PathEscapeError` if the result (after symlinks) is outside it. */
export function confine(workspace: string, p: unknown): string {
  if (typeof p !== "string" || p === "") throw new PathEscapeError(String(p));
  const root = realpathSync(workspace);
  const abs = resolve(root, p);
  if (!inside(root, abs)) throw new PathEscapeError(p);
  // Follow symlinks on the deepest existing ancestor: a link inside may point outside.
  let probe = abs;
  while (!existsSync(probe) && dirname(probe) !== probe) probe = dirname(probe);
  if (!inside(root, realpathSync(probe))) throw new PathEscapeError(p);
  return abs;
}
