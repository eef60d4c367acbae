/**
 * Durable file primitives. An atomic replace is: write a temp file in the same
 * directory, fsync it, rename it over the target, fsync the directory — so a reader
 * (or a process resumed after SIGKILL or power loss) sees the old or the new file,
 * never a torn one.
 */
import { closeSync, fdatasync, fdatasyncSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { hash } from "node:crypto";
import { basename, dirname, join } from "node:path";

let tempCounter = 0;

/** The temp name for `file`: hidden, in the same directory (rename is atomic only within one file system). */
export function tempNameFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${++tempCounter}.tmp`);
}

/**
 * Creates `file` exclusively (O_EXCL), removing whatever had the name first: never opens
 * an existing one. Temp names are predictable (pid and counter), so one may be a symlink
 * planted in the run directory to have us write through it to a file elsewhere; or a
 * file left by a crashed process of the same pid.
 */
export function createFresh(file: string): number {
  try {
    return openSync(file, "wx", 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    rmSync(file, { force: true });
    return openSync(file, "wx", 0o644);
  }
}

/** Fsyncs a directory so a rename or create inside it survives power loss. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Atomically replaces `file` with `data`. With `durable` the data and the rename reach
 * stable storage before this returns; without it the replace is still atomic against a
 * process crash (the page cache survives SIGKILL), just not against power loss.
 * `dirFd` lets a caller that writes often keep the directory open; `null` leaves the
 * directory's sync to the caller (several files renamed into one directory, synced once).
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, durable: boolean, dirFd?: number | null): void {
  const tmp = tempNameFor(file);
  const fd = createFresh(tmp);
  try {
    writeAll(fd, data);
    if (durable) fdatasyncSync(fd);
  } catch (err) {
    // A half-written temp file would hold the space a full disk needs back; name the target in the error.
    closeSync(fd);
    rmSync(tmp, { force: true });
    (err as { path?: string }).path ??= file;
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, file);
  if (durable && dirFd !== null) {
    if (dirFd !== undefined) fsyncSync(dirFd);
    else fsyncDir(dirname(file));
  }
}

/** A temp file written beside its target and being synced, not yet renamed over it (`stageFile`). */
export interface StagedFile {
  tmp: string;
  file: string;
  /** Settles once the temp file is synced and closed: the error, if the sync failed. */
  synced: Promise<Error | undefined>;
}

/**
 * Writes `data` to a temp file beside `file` and starts its fdatasync on libuv's threads.
 * Files staged together sync concurrently, so a run's creation (plan, config, state) waits
 * for about one sync instead of three in a row; `commitStaged` renames them. `inPlace`
 * writes `file` itself, for a file no reader trusts until another one appears (a run's
 * plan and config before its state.json): no temp name to rename.
 */
export function stageFile(file: string, data: string | Uint8Array, inPlace = false): StagedFile {
  const tmp = inPlace ? file : tempNameFor(file);
  // Written in place, the file is made anew like a temp file: whatever was there (a crashed
  // create's file, or a planted symlink) is replaced, as a rename would replace it.
  const fd = createFresh(tmp);
  try {
    writeAll(fd, data);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    (err as { path?: string }).path ??= file;
    throw err;
  }
  const synced = new Promise<Error | undefined>((done) =>
    fdatasync(fd, (err) => {
      closeSync(fd);
      done(err ?? undefined);
    }),
  );
  return { tmp, file, synced };
}

/**
 * Renames staged files over their targets in the order given once every one is synced,
 * then syncs their directory once. A failed sync renames none of them (and removes the
 * files written): the last one named (the file whose presence makes the others count) never
 * appears beside unsynced ones.
 */
export async function commitStaged(staged: readonly StagedFile[], dirFd: number): Promise<void> {
  const errors = await Promise.all(staged.map((s) => s.synced));
  const i = errors.findIndex((e) => e !== undefined);
  if (i >= 0) {
    for (const s of staged) rmSync(s.tmp, { force: true });
    const err = errors[i] as Error & { path?: string };
    err.path ??= staged[i]!.file;
    throw err;
  }
  for (const s of staged) if (s.tmp !== s.file) renameSync(s.tmp, s.file);
  fsyncSync(dirFd);
}

/** Writes every byte (writeSync may write less than asked); at `position` when given, else at the file offset. */
export function writeAll(fd: number, data: string | Uint8Array, position?: number): void {
  const buf = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off, position === undefined ? null : position + off);
}

/** sha256 of a string or bytes, as lowercase hex (one-shot `hash`: half the cost of a Hash object, paid 2-3 times a step). */
export function sha256Hex(data: string | Uint8Array): string {
  return hash("sha256", data, "hex");
}
