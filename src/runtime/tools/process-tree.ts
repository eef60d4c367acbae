/**
 * The processes an `exec` step started, found to be killed at its timeout or the run's end:
 * the tree below the program, and every process that carries the step's mark in its
 * environment, which a daemon keeps when it leaves the tree (`setsid` and a fork: its parent
 * is gone, init adopts it). Linux reads both from /proc; elsewhere only the program itself
 * is found. A program that clears its environment and leaves the tree is not found.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/** A variable only the processes of one `exec` call have: its name is the mark. */
export interface ProcessMark {
  name: string;
  /** `name=`, as it starts an entry of /proc/<pid>/environ. */
  entry: Buffer;
}

/** A new mark. Each call has its own name, so a planspec run inside a step keeps the outer mark too. */
export function processMark(): ProcessMark {
  const name = `PLANSPEC_EXEC_${randomBytes(8).toString("hex")}`;
  return { name, entry: Buffer.from(`${name}=`) };
}

/** How many times /proc is searched for marked processes while they fork: a bound, not a count expected to be reached. */
const MARK_PASSES = 16;

/**
 * Kills `pid`, the processes below it and those that carry `mark`. Each is stopped before
 * its children are read (/proc/<pid>/task/<tid>/children) and /proc is searched again until
 * a search stops no new one, so none forks a new one meanwhile; then all are killed.
 */
export function killTree(pid: number | undefined, mark?: ProcessMark): void {
  const stopped = new Set<number>();
  const stopBelow = (root: number, marked?: ProcessMark): boolean => {
    let more = false;
    const stack = [root];
    while (stack.length > 0) {
      const p = stack.pop()!;
      if (stopped.has(p)) continue;
      try {
        process.kill(p, "SIGSTOP");
      } catch {
        continue;
      }
      // Found by its mark: still the same process once stopped (not a new one that took its pid)?
      if (p === root && marked !== undefined && !hasMark(p, marked)) {
        try {
          process.kill(p, "SIGCONT");
        } catch {
          // Gone already.
        }
        continue;
      }
      stopped.add(p);
      more = true;
      stack.push(...childrenOf(p));
    }
    return more;
  };
  if (pid !== undefined) stopBelow(pid);
  if (mark !== undefined) {
    for (let pass = 0; pass < MARK_PASSES; pass++) {
      let more = false;
      for (const p of markedProcesses(mark)) more = stopBelow(p, mark) || more;
      if (!more) break;
    }
  }
  for (const p of stopped) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

/** The children of every thread of `pid`; none without /proc. */
function childrenOf(pid: number): number[] {
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const t of tasks) {
    try {
      for (const c of readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").split(" ")) if (c.trim() !== "") out.push(Number(c));
    } catch {
      // The task ended.
    }
  }
  return out;
}

/** The processes whose environment has an entry named `mark` (those of this user: others' environ cannot be read). */
function markedProcesses(mark: ProcessMark): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid !== process.pid && hasMark(pid, mark)) out.push(pid);
  }
  return out;
}

/** Whether the environment of `pid` has an entry named `mark`; false when it cannot be read (gone, another user's). */
function hasMark(pid: number, mark: ProcessMark): boolean {
  try {
    return hasEntry(readFileSync(`/proc/${pid}/environ`), mark.entry);
  } catch {
    return false;
  }
}

/** Whether `entry` starts one of the NUL-separated entries of `environ` (not a piece of another's value). */
function hasEntry(environ: Buffer, entry: Buffer): boolean {
  for (let at = environ.indexOf(entry); at !== -1; at = environ.indexOf(entry, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true;
  }
  return false;
}
