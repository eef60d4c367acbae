/**
 * sha256Hex uses the one-shot `crypto.hash`, which Node added in 20.12.0: on 20.0-20.11
 * every command would fail to link (`node:crypto` does not provide an export named
 * 'hash'), with a stack trace. package.json's engines must not promise those versions.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** The lowest version a `>=X[.Y[.Z]]` range admits, as [major, minor, patch]. */
const floor = (range: string): number[] => {
  const m = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  expect(m, `engines.node "${range}"`).not.toBeNull();
  return [Number(m![1]), Number(m![2] ?? 0), Number(m![3] ?? 0)];
};
const atLeast = (v: number[], min: number[]) => v[0]! > min[0]! || (v[0] === min[0] && (v[1]! > min[1]! || (v[1] === min[1] && v[2]! >= min[2]!)));

describe("package.json engines", () => {
  it("admits no Node without crypto.hash while the runtime imports it", () => {
    const usesHash = /import \{[^}]*\bhash\b[^}]*\} from "node:crypto"/.test(readFileSync(join(ROOT, "src/runtime/atomic.ts"), "utf8"));
    expect(usesHash).toBe(true);
    const range = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
    expect(atLeast(floor(range), [20, 12, 0]), `engines.node "${range}" admits Node 20.0-20.11, which has no crypto.hash`).toBe(true);
  });
});
