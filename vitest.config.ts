import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine,
    // where the suite (mostly child processes and fsyncs) then took 1,008 s; two took 598 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Builds dist/ when a source is newer (the CLI tests run it); prints the one-line notice when
    // the browser suites are skipped (no Chromium).
    globalSetup: ["test/dist-setup.ts", "test/report/browser-setup.ts"],
  },
});
