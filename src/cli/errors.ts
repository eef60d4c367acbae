/**
 * The last line of defence: an error no command turned into a message becomes one line
 * on stderr — never a stack trace (it can quote state and secrets). A system error
 * (disk full, permission denied) names the file and what to do, exit 2; anything else is
 * a bug, exit 1, with its stack only when PLANSPEC_DEBUG=1.
 */
import { redact, secretValues } from "../runtime/redact.js";

interface SystemError extends Error {
  code: string;
  syscall?: string;
  path?: string;
  dest?: string;
}

const ADVICE: Record<string, string> = {
  ENOSPC: "no space left on the device: free some space, then resume the run",
  EDQUOT: "the disk quota is exhausted: free some space, then resume the run",
  EACCES: "permission denied: check the owner and mode of the file and its directory",
  EPERM: "operation not permitted (permission denied): check the file's owner, mode and attributes (chattr -i)",
  EROFS: "the file system is read-only: use a writable directory",
  ENOENT: "no such file or directory",
  ENOTDIR: "a part of the path is not a directory",
  EISDIR: "it is a directory",
  EMFILE: "too many open files: raise the limit (ulimit -n)",
  ENFILE: "too many open files in the system",
  EIO: "an I/O error: check the disk",
};

function isSystemError(err: unknown): err is SystemError {
  return err instanceof Error && typeof (err as SystemError).code === "string" && /^E[A-Z]+$/.test((err as SystemError).code);
}

/** The one line (without "planspec: ") and exit code for an error that reached the top. */
export function describeUnexpected(err: unknown, env: NodeJS.ProcessEnv): { line: string; exitCode: number } {
  const hide = (s: string) => redact(s, secretValues(env)) as string;
  if (isSystemError(err)) {
    const target = err.path ? ` ${err.path}${err.dest ? ` -> ${err.dest}` : ""}` : "";
    const what = err.syscall ? `cannot ${err.syscall}${target}` : `failed${target}`;
    return { line: hide(`${what}: ${ADVICE[err.code] ?? err.message.split("\n")[0]} (${err.code})`), exitCode: 2 };
  }
  const name = err instanceof Error ? err.name : "Error";
  // Scrubbed before it is cut: a secret across the cut would leave its first half.
  const message = hide((err instanceof Error ? err.message : String(err)).split("\n")[0]!).slice(0, 200);
  const debug = env.PLANSPEC_DEBUG === "1" && err instanceof Error && err.stack ? `\n${err.stack}` : "";
  return { line: hide(`internal error: ${name}: ${message} — this is a bug; set PLANSPEC_DEBUG=1 for the stack trace${debug}`), exitCode: 1 };
}
