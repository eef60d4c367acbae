/**
 * Loads chevrotain from its single-file ESM bundle. The package entry (`lib/src/api.js`)
 * pulls in several hundred lodash-es modules and costs ≈0.5 s of process start on the
 * reference machine, against ≈0.02 s for the bundle the same package ships
 * (`lib/chevrotain.min.mjs`, same version, same API). The package's `exports` map hides
 * the bundle from bare specifiers, so we locate it next to the resolved entry and fall
 * back to the entry if a future layout moves it.
 *
 * Only the grammar needs it (an expression the hand-written reader gives up on: a mistake,
 * mostly), so where Node can `require` an ES module (20.19 and later) it is loaded on first
 * use and a clean plan never pays for it (≈15 ms of every lint). Older Node loads it with
 * this module, as before.
 */
import type * as Chevrotain from "chevrotain";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);

/** The bundle's path, or undefined when this install has none where we look. */
function bundlePath(): string | undefined {
  try {
    const bundle = join(dirname(require.resolve("chevrotain")), "..", "chevrotain.min.mjs");
    return existsSync(bundle) ? bundle : undefined;
  } catch {
    return undefined; // resolution failed (unusual install layout): the package entry still works
  }
}

async function loadAsync(): Promise<typeof Chevrotain> {
  const bundle = bundlePath();
  if (bundle) return (await import(pathToFileURL(bundle).href)) as typeof Chevrotain;
  return import("chevrotain");
}

function loadSync(): typeof Chevrotain {
  const bundle = bundlePath();
  return require(bundle ?? "chevrotain") as typeof Chevrotain;
}

const canRequireEsm = (process.features as { require_module?: boolean }).require_module === true;
let loaded: typeof Chevrotain | undefined = canRequireEsm ? undefined : await loadAsync();

/** The chevrotain module, loaded on the first call (or with this module, on older Node). */
export function chevrotain(): typeof Chevrotain {
  return (loaded ??= loadSync());
}
