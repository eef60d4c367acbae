/** planspec's own version, from its package.json: what `--version` prints and what a kept lint verdict is tied to. */
import { readFileSync } from "node:fs";

let version: string | undefined;

export function planspecVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  return version;
}
