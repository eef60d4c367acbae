/**
 * The run lock: a file naming its owner (pid, the process's start time from
 * /proc/<pid>/stat, host). It appears atomically with its content: the owner is written
 * to a claim file first, which is then `link()`ed to the lock's name — link fails if the
 * name exists, so exactly one of many simultaneous claimants wins and no one ever sees
 * an empty lock. A lock is stale only when its owner is gone: the pid is not alive, or
 * the pid was reused by a process with another start time. Breaking a stale lock is done
 * under a second lock (`<lock>.break`, taken the same way) and only after re-reading that
 * the lock still names the dead owner, so two breakers cannot remove each other's fresh locks.
 */
import { closeSync, linkSync, readFileSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { LockHeldError, nowIso } from "./store.js";
import { createFresh, writeAll } from "./atomic.js";
import { readOwnFile } from "./own-files.js";

interface LockInfo {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot); absent in locks of older planspec versions. */
  start?: string;
  startedAt: string;
  host: string;
}

/** A lock whose owner cannot be read (an older planspec's torn lock) counts as held until it is this old. */
const UNREADABLE_GRACE_MS = 10_000;

/** The start time of process `pid` (field 22 of /proc/<pid>/stat), or undefined where /proc is missing. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2 (the command) may hold spaces and parentheses: count fields after the last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
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

const self = (): LockInfo => ({ pid: process.pid, start: processStart(process.pid), startedAt: nowIso(), host: hostname() });

function readLock(file: string): LockInfo | "unreadable" | undefined {
  let text: string;
  try {
    // Not followed, not blocked on: a lock planted as a symlink or a FIFO is refused.
    text = readOwnFile(file).toString("utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    const info = JSON.parse(text) as Partial<LockInfo>;
    if (typeof info.pid === "number") return info as LockInfo;
  } catch {
    // Reported as unreadable below.
  }
  return "unreadable";
}

const same = (a: LockInfo, b: LockInfo) => a.pid === b.pid && a.start === b.start && a.host === b.host && a.startedAt === b.startedAt;

/** Whether the owner of a lock is still running (a lock of another host is assumed live). */
function ownerAlive(info: LockInfo): boolean {
  if (info.host !== hostname()) return true;
  if (!processAlive(info.pid)) return false;
  if (info.start === undefined) return true;
  const now = processStart(info.pid);
  return now === undefined || now === info.start;
}

function isMine(info: LockInfo | "unreadable" | undefined): boolean {
  return info !== undefined && info !== "unreadable" && info.pid === process.pid && info.host === hostname() && info.start === processStart(process.pid);
}

let claimCounter = 0;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Links a claim file holding `info` to `file`; false when `file` exists. */
function claim(file: string, info: LockInfo): boolean {
  const tmp = join(dirname(file), `.${basename(file)}-${process.pid}-${++claimCounter}.claim`);
  // The name is predictable: made exclusively, so a symlink planted there is replaced, not written through.
  const fd = createFresh(tmp);
  try {
    writeAll(fd, JSON.stringify(info));
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}

/** Removes the lock at `file` if it still is `seen` and its owner is gone; true when it was removed. */
function breakStale(file: string, seen: LockInfo | "unreadable"): boolean {
  const guard = `${file}.break`;
  if (!claim(guard, self())) {
    const g = readLock(guard);
    // A breaker killed inside its few microseconds here leaves the guard behind.
    if (g === "unreadable" || (g !== undefined && !ownerAlive(g))) unlinkIfSame(guard, g);
    return false;
  }
  try {
    const again = readLock(file);
    if (again === undefined) return true;
    if (again === "unreadable" ? seen !== "unreadable" : seen === "unreadable" || !same(again, seen)) return false;
    unlinkSync(file);
    return true;
  } finally {
    unlinkSync(guard);
  }
}

function unlinkIfSame(file: string, seen: LockInfo | "unreadable"): void {
  const again = readLock(file);
  if (again === undefined) return;
  if (again === "unreadable" ? seen === "unreadable" : seen !== "unreadable" && same(again, seen)) {
    try {
      unlinkSync(file);
    } catch {
      // Someone else removed it.
    }
  }
}

function heldError(info: LockInfo | "unreadable" | undefined): LockHeldError {
  if (info && info !== "unreadable") return new LockHeldError(info.pid, info.startedAt);
  const e = new LockHeldError(-1, "unknown");
  e.message = `the run's lock file names no owner (left by an older planspec killed while taking it); it counts as stale ${UNREADABLE_GRACE_MS / 1000} s after it was written: retry then`;
  return e;
}

/** Takes the lock at `file` or throws `LockHeldError`; returns true when a stale lock was taken over. */
export function acquireLock(file: string): boolean {
  let tookOver = false;
  for (let tries = 0; tries < 20; tries++) {
    if (claim(file, self())) {
      removeDeadClaims(dirname(file));
      return tookOver;
    }
    const held = readLock(file);
    if (held === undefined) continue;
    if (isMine(held)) return tookOver;
    if (held === "unreadable") {
      let age = 0;
      try {
        age = Date.now() - statSync(file).mtimeMs;
      } catch {
        continue;
      }
      if (age < UNREADABLE_GRACE_MS) throw heldError(held);
    } else if (ownerAlive(held)) {
      throw heldError(held);
    }
    if (breakStale(file, held)) tookOver = true;
    else Atomics.wait(pause, 0, 0, 2 + tries);
  }
  throw heldError(readLock(file));
}

/** Claim files of killed claimants: garbage once the lock is ours. */
function removeDeadClaims(dir: string): void {
  for (const name of readdirSync(dir)) {
    const m = /^\..+-(\d+)-\d+\.claim$/.exec(name);
    if (m && !processAlive(Number(m[1]))) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // Gone already.
      }
    }
  }
}

/** Releases the lock if this process holds it. */
export function releaseLock(file: string): void {
  if (!isMine(readLock(file))) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/** Whether this process holds the lock at `file` (checked before each durable state write). */
export function holdsLock(file: string): boolean {
  return isMine(readLock(file));
}
