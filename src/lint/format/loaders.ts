/**
 * The output formats by name, each imported only when chosen: `lint --format json` (the
 * corpus gate) never loads chalk and the code frames of `stylish` (~11 ms of start-up).
 * The same functions as `formats` in index.ts, which a test holds in step with this table.
 */
import type { Formatter } from "./index.js";

export const formatLoaders: Readonly<Record<string, () => Promise<Formatter>>> = {
  stylish: async () => (await import("./index.js")).formatStylish,
  json: async () => (await import("./json.js")).formatJson,
  sarif: async () => (await import("./sarif.js")).formatSarif,
  github: async () => (await import("./github.js")).formatGithub,
  junit: async () => (await import("./junit.js")).formatJunit,
};
