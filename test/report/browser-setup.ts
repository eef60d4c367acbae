/**
 * Vitest global setup: one line, once per run, when the browser suites are skipped
 * because this machine has no Chromium (see browser.ts). Silent when no selected test
 * file is a browser suite.
 */
import { SKIP_BROWSER, SKIP_NOTICE } from "./browser.js";

const BROWSER_SUITES = ["test/report/eval-html.test.ts", "test/report/run-report.test.ts", "test/report/svg-graph.test.ts"];

export default function setup(): void {
  if (!SKIP_BROWSER) return;
  const filters = process.argv.slice(2).filter((a) => !a.startsWith("-") && a !== "run" && !a.includes("vitest"));
  const selected = filters.length === 0 || BROWSER_SUITES.some((f) => filters.some((x) => f.includes(x) || x.includes(f)));
  if (selected) process.stderr.write(`${SKIP_NOTICE}\n`);
}
