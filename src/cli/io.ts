/** The I/O a command gets: streams and the working directory, so commands run in-process in tests. */
import type { Writable, Readable } from "node:stream";
import { isUserError } from "../util/user-errors.js";

export interface CliIO {
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
  stdin?: Readable;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** A user error: printed as one line on stderr, exit code 2 (or the code given). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/** Rethrows a user error (src/util/user-errors.ts: bad inputs, tool setup, locks, state) as a one-line usage error. */
export function userError(err: unknown): never {
  if (isUserError(err)) throw new UsageError(err.message);
  throw err;
}

/**
 * Writes to a stream and resolves when it is flushed (pipes are async), or at once when
 * the reader has gone (a closed pipe): the command goes on to its own exit code.
 */
export function write(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (text === "" || stream.destroyed) return resolve();
    if (stream.write(text)) return resolve();
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      stream.off("error", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
    stream.on("error", done);
  });
}
