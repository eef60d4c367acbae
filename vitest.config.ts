import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Prints the one-line notice when the browser suites are skipped (no Chromium).
    globalSetup: ["test/report/browser-setup.ts"],
  },
});
