/**
 * What tool modules print. They run in the session's process, and a careless one logs its
 * arguments (`console.log("calling with", args)`, a token among them) straight to the
 * terminal, which is a CI log: while a session loads and calls them, the console's
 * writers format their arguments and scrub the text first, as every other way out of a
 * run is scrubbed (redacting-store.ts). A module that writes to the file descriptors
 * itself is not stopped: it holds the process.
 */
import { format, inspect } from "node:util";
import { withSessionSecrets, type Scrubber } from "./redact.js";

const METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;

/** Runs `body` with the console's writers scrubbing through `scrub`, and `scrub` among the session secrets cuts consult; a session with no secrets leaves the console alone. */
export async function withScrubbedConsole<T>(scrub: Scrubber, body: () => Promise<T>): Promise<T> {
  if (scrub.empty) return body();
  // Meanwhile the session's secrets are also what a cut keeps clear of (redact.ts `cutClean`).
  return withSessionSecrets(scrub, () => scrubbing(scrub, body));
}

async function scrubbing<T>(scrub: Scrubber, body: () => Promise<T>): Promise<T> {
  const saved = new Map<string, unknown>();
  const mine = new Map<string, unknown>();
  const c = console as unknown as Record<string, (...args: unknown[]) => void>;
  for (const m of METHODS) {
    const original = c[m]!;
    saved.set(m, original);
    mine.set(m, (c[m] = (...args: unknown[]) => original.call(console, scrub.text(format(...args)))));
  }
  const dir = c.dir!;
  saved.set("dir", dir);
  mine.set("dir", (c.dir = (obj: unknown, opts?: unknown) => c.log!(inspect(obj, opts as object))));
  try {
    return await body();
  } finally {
    // Put back only what is still ours (a session started inside this one restores its own first).
    for (const [m, f] of saved) if (c[m] === mine.get(m)) c[m] = f as (...args: unknown[]) => void;
  }
}
