/**
 * CLI goldens as sectioned text files (`test/cli/scenarios/*.scenario`):
 *
 *   ==== command
 *   planspec compile specs/compile/err/unknown-tool.plan.yaml
 *   ==== status
 *   1
 *   ==== stdout
 *   ==== stderr
 *   ...
 *
 * The command runs the real `bin/planspec` from the repo root with colour off.
 * `UPDATE_GOLDEN=1` rewrites the status/stdout/stderr sections.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, repoRoot } from "../helpers.js";

const dir = join(repoRoot, "test/cli/scenarios");

function parse(text: string): Record<string, string> {
  const sections: Record<string, string> = {};
  const parts = text.split(/^==== (\w+)\n/m);
  for (let i = 1; i < parts.length; i += 2) sections[parts[i]!] = parts[i + 1] ?? "";
  return sections;
}

function splitArgs(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe("CLI scenarios", () => {
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".scenario")).sort()) {
    it(f, () => {
      const path = join(dir, f);
      const s = parse(readFileSync(path, "utf8"));
      const args = splitArgs(s.command!.trim());
      expect(args[0]).toBe("planspec");
      const r = cli(args.slice(1), { env: { ...process.env, NO_COLOR: "1", COLUMNS: "100" } });
      const actual = { status: `${r.status}\n`, stdout: r.stdout, stderr: r.stderr };
      if (process.env.UPDATE_GOLDEN) {
        writeFileSync(
          path,
          `==== command\n${s.command!.trim()}\n==== status\n${actual.status}==== stdout\n${actual.stdout}==== stderr\n${actual.stderr}`,
        );
        return;
      }
      expect({ status: s.status, stdout: s.stdout, stderr: s.stderr }).toEqual(actual);
    });
  }
});
