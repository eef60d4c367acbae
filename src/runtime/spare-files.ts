/**
 * Empty temp files made ahead by a worker thread, for atomic writes that would otherwise
 * create their temp file on a step's path: creating a file is the costliest call of an
 * artifact write (on the bench machine's ext4, 0.03 ms to more than 0.5 ms right after
 * many deletions: bench/README.md), and the worker pays it while the step waits on its
 * sync or its tool. The worker creates `.<prefix>.<k>.tmp` in `dir` and hands each
 * descriptor over through shared memory, so taking one is a few atomic reads with no
 * event-loop turn (a scheduler's turns are microtasks; a callback could wait for the
 * run's end). A file never taken is removed by `close`, or after a crash by the next
 * lock holder's sweep of temp files.
 */
import { closeSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";

/** Files kept ready: enough for the steps that finish in one turn at the default concurrency. */
const SIZE = 8;
// The shared words: files made, files taken, stop asked, then one descriptor per slot.
const MADE = 0;
const TAKEN = 1;
const STOP = 2;
const SLOT = 3;

const WORKER = `
const { workerData } = require("node:worker_threads");
const { openSync } = require("node:fs");
const { join } = require("node:path");
const { dir, prefix } = workerData;
const v = new Int32Array(workerData.shared);
for (;;) {
  if (Atomics.load(v, ${STOP})) break;
  const made = Atomics.load(v, ${MADE});
  const taken = Atomics.load(v, ${TAKEN});
  if (made - taken >= ${SIZE}) {
    Atomics.wait(v, ${TAKEN}, taken);
    continue;
  }
  let fd;
  try {
    fd = openSync(join(dir, "." + prefix + "." + made + ".tmp"), "wx", 0o644);
  } catch {
    break; // The writer creates its own temp file and reports the error.
  }
  Atomics.store(v, ${SLOT} + (made % ${SIZE}), fd);
  Atomics.store(v, ${MADE}, made + 1);
}
`;

export class SpareFiles {
  private readonly shared = new Int32Array(new SharedArrayBuffer(4 * (SLOT + SIZE)));
  private readonly worker: Worker;
  private readonly exited: Promise<unknown>;

  constructor(
    private readonly dir: string,
    private readonly prefix: string,
  ) {
    // trackUnmanagedFds off: the descriptors are the main thread's once handed over (the
    // worker must not close them when it exits). No execArgv: the code is CommonJS even
    // under `node --input-type=module`.
    this.worker = new Worker(WORKER, { eval: true, execArgv: [], trackUnmanagedFds: false, workerData: { dir, prefix, shared: this.shared.buffer } });
    this.exited = new Promise((resolve) => this.worker.once("exit", resolve));
    // A worker that fails makes no more files: writers create their own.
    this.worker.on("error", () => {});
    // A process that never closes the store still exits; the files left are swept at the next lock.
    this.worker.unref();
  }

  private name(k: number): string {
    return join(this.dir, `.${this.prefix}.${k}.tmp`);
  }

  /** An empty temp file in `dir`, open for writing, or undefined when none is ready. */
  take(): { tmp: string; fd: number } | undefined {
    const v = this.shared;
    const taken = Atomics.load(v, TAKEN);
    if (Atomics.load(v, MADE) === taken) return undefined;
    const fd = Atomics.load(v, SLOT + (taken % SIZE));
    Atomics.store(v, TAKEN, taken + 1);
    Atomics.notify(v, TAKEN);
    return { tmp: this.name(taken), fd };
  }

  /** Stops the worker, then closes and removes the files it made that were not taken. */
  async close(): Promise<void> {
    const v = this.shared;
    Atomics.store(v, STOP, 1);
    Atomics.notify(v, TAKEN);
    // Held until the worker has stopped, so no file is made after the sweep below.
    this.worker.ref();
    await this.exited;
    for (let k = Atomics.load(v, TAKEN); k < Atomics.load(v, MADE); k++) {
      try {
        closeSync(Atomics.load(v, SLOT + (k % SIZE)));
        rmSync(this.name(k), { force: true });
      } catch {
        // Left for the next lock holder's sweep of temp files.
      }
    }
  }
}
