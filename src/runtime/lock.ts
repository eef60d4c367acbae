/**
 * The run lock: a file holding the owner's pid and start time, created exclusively
 * (`wx`). A lock whose pid is no longer alive is stale (the owner crashed) and is taken
 * over. Caveat: a recycled pid makes a stale lock look live; the error names the pid so
 * a person can check and delete the file.
 */
import { closeSync, openSync, readFileSync, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { writeAll } from "./atomic.js";
import { LockHeldError, nowIso } from "./store.js";

interface LockInfo {
  pid: number;
  startedAt: string;
  host: string;
}

function readLock(file: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(file, "utf8")) as Partial<LockInfo>;
    if (typeof info.pid === "number") return info as LockInfo;
  } catch {
    // A lock torn by a crash between create and write: treat as stale.
  }
  return undefined;
}

/** True when `pid` names a live process (EPERM means alive but not ours). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock at `file` or throws `LockHeldError`; returns true when a stale lock was taken over. */
export function acquireLock(file: string): boolean {
  let tookOver = false;
  for (let tries = 0; tries < 5; tries++) {
    try {
      const fd = openSync(file, "wx", 0o644);
      try {
        writeAll(fd, JSON.stringify({ pid: process.pid, startedAt: nowIso(), host: hostname() }));
      } finally {
        closeSync(fd);
      }
      return tookOver;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const held = readLock(file);
    if (held && held.pid === process.pid) return tookOver;
    if (held && (held.host !== hostname() || processAlive(held.pid))) throw new LockHeldError(held.pid, held.startedAt);
    // Stale: re-read right before removing so we do not delete a lock another
    // process took over in between (a narrow race, accepted and documented).
    const again = readLock(file);
    if (again && held && again.pid !== held.pid) continue;
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    tookOver = true;
  }
  const held = readLock(file);
  throw new LockHeldError(held?.pid ?? -1, held?.startedAt ?? "unknown");
}

/** Releases the lock if this process holds it. */
export function releaseLock(file: string): void {
  const held = readLock(file);
  if (held && held.pid !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
