/**
 * Loads chevrotain from its single-file ESM bundle. The package entry (`lib/src/api.js`)
 * pulls in several hundred lodash-es modules and costs ≈0.5 s of process start on the
 * reference machine, against ≈0.02 s for the bundle the same package ships
 * (`lib/chevrotain.min.mjs`, same version, same API). The package's `exports` map hides
 * the bundle from bare specifiers, so we locate it next to the resolved entry and fall
 * back to the entry if a future layout moves it.
 */
import type * as Chevrotain from "chevrotain";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

async function load(): Promise<typeof Chevrotain> {
  try {
    const entry = createRequire(import.meta.url).resolve("chevrotain");
    const bundle = join(dirname(entry), "..", "chevrotain.min.mjs");
    if (existsSync(bundle)) return (await import(pathToFileURL(bundle).href)) as typeof Chevrotain;
  } catch {
    // Resolution failed (unusual install layout): the package entry below still works.
  }
  return import("chevrotain");
}

export const chevrotain: typeof Chevrotain = await load();
