/**
 * Confinement of file paths to the workspace, with check and use as one step: a file or
 * directory is opened first and what was opened is verified (its real path, read from
 * the descriptor), so a symlink swapped between a check and the use cannot lead out.
 * Writes go to a temp file in a verified directory and are renamed into place: nothing
 * is written through a symlink. Paths through symlinks that dangle or lead out of the
 * workspace are refused, as are `..` and absolute paths outside it.
 *
 * Directory-relative operations use `/proc/self/fd/<fd>/<name>` (Linux's openat by
 * path); without /proc the descriptor's path is checked by device and inode instead.
 */
import { constants, existsSync, fstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { lstat, mkdir, open, readdir, realpath, rename, rm, type FileHandle } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import type { Dirent } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { formatSize } from "../limits.js";
import { ToolError } from "./types.js";
import { cutClean } from "../redact.js";

/** Thrown when a path leaves the workspace; the gateway records it as a violation. */
export class PathEscapeError extends Error {
  constructor(
    readonly path: string,
    why = "is outside the workspace",
  ) {
    super(`path "${path}" ${why}`);
    this.name = "PathEscapeError";
  }
}

const PROC = existsSync("/proc/self/fd");
const PATH_MAX = 4096;
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

/** Whether `p` is `root` or below it (both absolute, real paths for a real answer). */
export function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Where fs tools may go: a workspace, less the directories inside it that hold run
 * records (the run's own directory, the runs root), which a plan could otherwise read
 * (a run's salt) or append forged lines to (plain checksums are no seal), and less the
 * run's tool modules and its MCP servers' programs (code the next session would run).
 */
export interface Confinement {
  workspace: string;
  /** Real paths of directories the tools must not open, read or write below, and of files (tool modules, MCP server programs) they must not touch. */
  guarded?: readonly string[];
}

interface Root {
  root: string;
  guarded: readonly string[];
}

function rootOf(where: string | Confinement): Root {
  return typeof where === "string" ? { root: realpathSync(where), guarded: [] } : { root: realpathSync(where.workspace), guarded: where.guarded ?? [] };
}

/**
 * A runs root below the workspace, `.planspec/runs` wherever it is: runs started from another
 * directory than this run's (`--workspace` shared by two projects, a run made from a
 * subdirectory) keep their records there, and only this run's own are in `guarded`.
 */
const RUNS_ROOT = /(?:^|[\\/])\.planspec[\\/]runs(?:[\\/]|$)/;

/** Files every run directory holds from its start: a directory with all three is a run's, wherever it is (`--run-dir runs/2026-12-06`). */
const RUN_FILES = ["plan.ir.json", "events.jsonl", "config.json"] as const;

/** Whether `real` is in a run directory below the root (one stat a level when there is none). */
function inRunDir(root: string, real: string): boolean {
  for (let d = real; inside(root, d); d = dirname(d)) {
    if (RUN_FILES.every((f) => existsSync(join(d, f)))) return true;
    if (d === root) break;
  }
  return false;
}

/** Refuses a real path inside a guarded directory, or a guarded file (a tool module, an MCP server's program), or inside any run's records in the workspace. */
function checkGuarded(r: Root, p: string, real: string): void {
  if (RUNS_ROOT.test(relative(r.root, real)) || inRunDir(r.root, real)) throw new PathEscapeError(p, "is inside the run directory or the runs root (the runtime's records)");
  const hit = r.guarded.find((d) => inside(d, real));
  if (hit === undefined) return;
  const file = statSync(hit, { throwIfNoEntry: false })?.isFile() === true;
  throw new PathEscapeError(p, file ? "is code the run loads or starts (a tool module, an MCP server's program)" : "is inside the run directory or the runs root (the runtime's records)");
}

/** The workspace-relative path `p` names, refused when it leaves the workspace on its face (`..`, absolute). */
function lexical(root: string, p: unknown): string {
  if (typeof p !== "string" || p === "" || p.includes("\0")) throw new PathEscapeError(String(p), "is not a usable path");
  const abs = resolve(root, p);
  if (!inside(root, abs)) throw new PathEscapeError(p);
  // Longer than PATH_MAX: the opened path could not be verified (readlink fails), so nothing is done on it.
  if (Buffer.byteLength(abs) >= PATH_MAX) throw new ToolError(`path "${cutClean(p, 60)}…" is longer than ${PATH_MAX} bytes`);
  return abs;
}

/** The real path of what `handle` has open. */
function openedPath(handle: FileHandle, opened: string): string {
  if (PROC) return readlinkSync(`/proc/self/fd/${handle.fd}`);
  // No /proc: the path is only trusted when it still names the very file we hold.
  const real = realpathSync(opened);
  const a = fstatSync(handle.fd);
  const b = statSync(real);
  if (a.dev !== b.dev || a.ino !== b.ino) throw new PathEscapeError(opened, "changed while it was opened");
  return real;
}

/** Opens `abs` (following symlinks) and verifies that what was opened is in the workspace. */
async function openVerified(r: Root, p: string, abs: string, flags: number): Promise<{ handle: FileHandle; real: string }> {
  const { root } = r;
  let handle: FileHandle;
  try {
    handle = await open(abs, flags);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" && (await danglingLink(root, abs))) throw new PathEscapeError(p, "goes through a dangling symlink");
    throw err;
  }
  try {
    const real = openedPath(handle, abs);
    if (!inside(root, real)) throw new PathEscapeError(p);
    checkGuarded(r, p, real);
    return { handle, real };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Whether some component of `abs` below the root is a symlink that leads nowhere. */
async function danglingLink(root: string, abs: string): Promise<boolean> {
  for (let cur = abs; inside(root, cur) && cur !== root; cur = dirname(cur)) {
    const st = await lstat(cur).catch(() => undefined);
    if (st?.isSymbolicLink()) return (await realpath(cur).catch(() => undefined)) === undefined;
  }
  return false;
}

/** The message for data a tool will not read: more than the step may return. */
export function tooLarge(what: string, maxBytes: number): string {
  return `${what} is more than ${formatSize(maxBytes)} (the per-step output limit; raise it with --max-output-size)`;
}

/** Reads a text file of the workspace; one larger than `maxBytes` is refused before it is read. */
export async function readConfined(workspace: string | Confinement, p: unknown, signal?: AbortSignal, maxBytes = Infinity): Promise<string> {
  const r = rootOf(workspace);
  const abs = lexical(r.root, p);
  // O_NONBLOCK: opening a FIFO planted in the workspace must not hang the run.
  const { handle } = await openVerified(r, p as string, abs, O_RDONLY | O_NONBLOCK);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new ToolError(`path "${String(p)}" is not a regular file`);
    if (st.size > maxBytes) throw new ToolError(tooLarge(`path "${String(p)}"`, maxBytes));
    return await handle.readFile({ encoding: "utf8", signal });
  } finally {
    await handle.close();
  }
}

/** Lists a directory of the workspace. */
export async function listConfined(workspace: string | Confinement, p: unknown): Promise<Dirent[]> {
  const r = rootOf(workspace);
  const abs = lexical(r.root, p);
  const { handle, real } = await openVerified(r, p as string, abs, O_RDONLY | O_DIRECTORY);
  try {
    return await readdir(PROC ? `/proc/self/fd/${handle.fd}` : real, { withFileTypes: true });
  } finally {
    await handle.close();
  }
}

/** The real path of a directory of the workspace, verified after opening it (for a child's cwd). */
export async function confinedDir(workspace: string | Confinement, p: unknown): Promise<string> {
  const r = rootOf(workspace);
  const { handle, real } = await openVerified(r, p as string, lexical(r.root, p), O_RDONLY | O_DIRECTORY);
  await handle.close();
  return real;
}

/** A directory held open and verified: names inside it resolve against the descriptor, not a path. */
interface HeldDir {
  handle: FileHandle;
  real: string;
}

function at(dir: HeldDir, name: string): string {
  return PROC ? `/proc/self/fd/${dir.handle.fd}/${name}` : join(dir.real, name);
}

/** Opens (creating as needed) the directory `rel` below the root, one verified component at a time. */
async function holdDir(r: Root, p: string, rel: string): Promise<HeldDir> {
  let cur: HeldDir = await openVerified(r, p, r.root, O_RDONLY | O_DIRECTORY);
  try {
    for (const name of rel.split(sep).filter((c) => c !== "" && c !== ".")) {
      const next = at(cur, name);
      let held: HeldDir;
      try {
        held = await openVerified(r, p, next, O_RDONLY | O_DIRECTORY);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
        // mkdir does not follow a final symlink: a dangling one makes it fail, and is refused.
        await mkdir(next).catch((e: NodeJS.ErrnoException) => {
          if (e.code !== "EEXIST") throw e;
        });
        if ((await lstat(next)).isSymbolicLink()) throw new PathEscapeError(p, "goes through a dangling symlink");
        held = await openVerified(r, p, next, O_RDONLY | O_DIRECTORY);
      }
      await cur.handle.close();
      cur = held;
    }
    return cur;
  } catch (err) {
    await cur.handle.close().catch(() => {});
    throw err;
  }
}

/**
 * Writes (or appends to) a file of the workspace; returns its workspace-relative path.
 * A symlink as the last component is followed only to a target inside the workspace,
 * and then the target is written, never the link's destination as found later.
 */
export async function writeConfined(workspace: string | Confinement, p: unknown, content: string, append: boolean, hops = 0): Promise<string> {
  const r = rootOf(workspace);
  const { root } = r;
  const abs = lexical(root, p);
  if (abs === root) throw new PathEscapeError(p as string, "is the workspace itself");
  const dir = await holdDir(r, p as string, relative(root, dirname(abs)));
  try {
    const name = basename(abs);
    // The name itself may be a guarded directory (`--run-dir run`, then a write to `run`).
    checkGuarded(r, p as string, join(dir.real, name));
    const target = at(dir, name);
    const existing = await lstat(target).catch(() => undefined);
    if (existing?.isSymbolicLink()) {
      const real = await realpath(target).catch(() => undefined);
      if (real === undefined) throw new PathEscapeError(p as string, "is a dangling symlink");
      if (!inside(root, real)) throw new PathEscapeError(p as string);
      if (hops > 0) throw new PathEscapeError(p as string, "changed while it was written");
      return await writeConfined(workspace, relative(root, real), content, append, hops + 1);
    }
    if (append) {
      // O_NOFOLLOW: a link planted since the lstat above is refused, not written through.
      // O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of blocking the run.
      const handle = await open(target, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o644).catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ELOOP") throw new PathEscapeError(p as string, "changed while it was written");
        throw e.code === "ENXIO" ? new ToolError(`path "${String(p)}" is not a regular file`) : e;
      });
      try {
        const st = await handle.stat();
        if (!st.isFile()) throw new ToolError(`path "${String(p)}" is not a regular file`);
        // An append writes the inode in place: another name of it may be outside the workspace.
        if (st.nlink > 1) throw new PathEscapeError(p as string, "has other hard links (one may be outside the workspace); appending to it is refused");
        await handle.writeFile(content);
      } finally {
        await handle.close();
      }
    } else {
      const tmp = at(dir, `.${name}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
      const handle = await open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, existing?.isFile() ? existing.mode & 0o7777 : 0o644);
      try {
        await handle.writeFile(content);
        await handle.close();
        // rename replaces whatever the name is now (a link planted meanwhile included) and follows nothing.
        await rename(tmp, target);
      } catch (err) {
        await handle.close().catch(() => {});
        await rm(tmp, { force: true });
        throw err;
      }
    }
    return relative(root, join(dir.real, name));
  } finally {
    await dir.handle.close();
  }
}
