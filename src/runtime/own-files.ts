/**
 * Files of a run directory that planspec reads or writes in place (state, plan, config,
 * the journal, the idempotency logs, the events, the lock, stored outputs), opened so
 * that a symlink, FIFO or device planted in their place is refused, not followed or
 * blocked on.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, relative, sep } from "node:path";
import { IntegrityError } from "./store.js";

/**
 * Opens a log the store truncates, writes in place or appends to (the journal, the
 * idempotency log, the events), never through a symlink: one planted in the run
 * directory would have the store cut and overwrite, or append to, whatever file it
 * points to. Nor a FIFO or a device: opening or reading one could block forever.
 */
export function openOwnFile(file: string, flags: number): number {
  let fd: number;
  try {
    fd = openSync(file, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new IntegrityError(`${file} is a symlink, not a file of the run: planspec neither reads nor writes through it; remove it, or start a new run`);
    // O_WRONLY | O_NONBLOCK on a FIFO no process reads.
    if (code === "ENXIO") throw notRegular(file);
    throw err;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw notRegular(file);
  }
  return fd;
}

function notRegular(file: string): IntegrityError {
  return new IntegrityError(`${file} is not a regular file (a FIFO, a device or a directory): planspec neither reads nor writes it; remove it, or start a new run`);
}

/** The bytes of a log of the run, read as `openOwnFile` opens it. */
export function readOwnFile(file: string): Buffer {
  const fd = openOwnFile(file, constants.O_RDONLY);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The mode a run directory is made with: no one else may write it, whatever the umask (refuseSharedDir). */
export const RUN_DIR_MODE = 0o755;

/**
 * The environment variable that lists directories whose runs are used though another user
 * could change them (path.delimiter between them; `*` for every directory): the operator's
 * word that they trust that user, as git's `safe.directory` is. A container job run as root
 * on a checkout another uid owns needs it.
 */
export const SAFE_RUN_DIRS = "PLANSPEC_SAFE_RUN_DIRS";

/** Whether `run` (a real path) is, or is below, a directory `safe` lists (each by its real path when it exists). */
function listedSafe(run: string, safe: string | undefined): boolean {
  if (safe === undefined || safe === "") return false;
  for (const entry of safe.split(delimiter)) {
    if (entry === "*") return true;
    if (!isAbsolute(entry)) continue;
    let listed: string;
    try {
      listed = realpathSync(entry);
    } catch {
      continue;
    }
    const rel = relative(listed, run);
    if (rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))) return true;
  }
  return false;
}

/**
 * Refuses a run directory another user could change. Its records are what a resume trusts:
 * an approval in the events and state, the tool modules config.json names (loaded in-process),
 * recorded results adopted as done. Checksums are no seal against someone who may replace the
 * files, so the directory and each one above it must be owned by this user or root and
 * writable by no one else: not by everyone (above the run only with the sticky bit, as /tmp,
 * which keeps others from renaming what is not theirs), nor by a group other than the user's own.
 */
export function refuseSharedDir(dir: string, safe: string | undefined = process.env[SAFE_RUN_DIRS]): void {
  const uid = process.geteuid?.();
  const gid = process.getegid?.();
  // Not POSIX: no owners to compare.
  if (uid === undefined || gid === undefined) return;
  const run = realpathSync(dir);
  if (listedSafe(run, safe)) return;
  for (let cur = run; ; cur = dirname(cur)) {
    const st = statSync(cur);
    const why =
      st.uid !== uid && st.uid !== 0
        ? `it is owned by uid ${st.uid}`
        : (st.mode & 0o002) !== 0 && (cur === run || (st.mode & 0o1000) === 0)
          ? "every user may write it"
          : (st.mode & 0o020) !== 0 && st.gid !== gid && st.gid !== 0
            ? `group ${st.gid} may write it`
            : undefined;
    if (why !== undefined) {
      const where = cur === run ? "" : ` (at ${cur})`;
      throw new IntegrityError(`run directory ${dir} can be changed by another user${where}: ${why}; a resume trusts its records (approvals, the tool modules it loads), so planspec uses only a directory no one else can write: chmod go-w, choose another --run-dir, or, if you trust that user, list the directory in ${SAFE_RUN_DIRS}`);
    }
    if (cur === dirname(cur)) return;
  }
}
