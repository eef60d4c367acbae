/**
 * Files of a run directory that planspec reads or writes in place (state, plan, config,
 * the journal, the idempotency logs, the events, the lock, stored outputs), opened so
 * that a symlink, FIFO or device planted in their place is refused, not followed or
 * blocked on.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
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
