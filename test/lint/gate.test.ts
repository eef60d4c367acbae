/**
 * The lint gate as a library function: what `planspec run` refuses, `gate()` refuses, with
 * the errors and their sources; suppressions count only when written in a plan file and
 * inline config is on; a recorded plan is gated through its file while that still matches.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileFile } from "../../src/compiler/index.js";
import { gate, gateKey, gateRecorded, refusal } from "../../src/lint/gate.js";
import { BAD, CLEAN, IDEMPOTENCY, workspace } from "../cli/lint-fixtures.js";

const SUPPRESSED = BAD.replace("  send_mail:\n", `  # planspec-disable-next-line ${IDEMPOTENCY} -- approved by the security team\n  send_mail:\n`);

describe("gate", () => {
  it("lets a clean plan file through with its IR, and refuses a bad one with the lint errors and their sources", () => {
    const dir = workspace({ "c.plan.yaml": CLEAN, "b.plan.yaml": BAD });
    const clean = gate("c.plan.yaml", { cwd: dir });
    expect(clean.refused).toBeUndefined();
    expect(clean.ir?.name).toBe("clean-plan");
    const bad = gate("b.plan.yaml", { cwd: dir });
    expect(bad.ir).toBeUndefined();
    expect(bad.refused).toBe("lint");
    expect(bad.errors.map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual([`b.plan.yaml:23 ${IDEMPOTENCY}`]);
    expect(bad.compiled.sources.has("b.plan.yaml")).toBe(true);
    expect(refusal("run b.plan.yaml", bad)).toBe("refusing to run b.plan.yaml: lint found 1 error");
  });

  it("refuses a file that does not compile, or is not a plan, before linting", () => {
    const dir = workspace({ "broken.plan.yaml": "planspec: 1\nname: x\n", "t.catalog.yaml": "planspec: 1\ntools:\n  fs.read: { risk: read }\n" });
    const broken = gate("broken.plan.yaml", { cwd: dir });
    expect(broken.refused).toBe("compile");
    expect(broken.errors.length).toBeGreaterThan(0);
    expect(broken.errors.every((d) => d.code.startsWith("PS"))).toBe(true);
    const missing = gate("missing.plan.yaml", { cwd: dir });
    expect(missing.errors.map((d) => d.code)).toEqual(["PS100"]);
    const catalogue = gate("t.catalog.yaml", { cwd: dir });
    expect(refusal("run t.catalog.yaml", catalogue)).toBe("refusing to run t.catalog.yaml: it is a catalog, not a plan");
  });

  it("honours a reasoned suppression in the plan file, not with inlineConfig false, and never in an IR", () => {
    const dir = workspace({ "s.plan.yaml": SUPPRESSED });
    expect(gate("s.plan.yaml", { cwd: dir }).refused).toBeUndefined();
    expect(gate("s.plan.yaml", { cwd: dir, inlineConfig: false }).refused).toBe("lint");
    const compiled = compileFile("s.plan.yaml", { cwd: dir });
    expect(gate(compiled).refused).toBeUndefined();
    expect(gate(compiled.ir!).errors.map((d) => d.code)).toEqual([IDEMPOTENCY]);
    writeFileSync(join(dir, "s.ir.json"), JSON.stringify(compiled.ir));
    expect(gate("s.ir.json", { cwd: dir }).refused).toBe("lint");
  });

  it("a config file beside the plan cannot switch the gate off", () => {
    const dir = workspace({ "b.plan.yaml": BAD, "planspec.config.yaml": `rules: { ${IDEMPOTENCY}: off }\nignores: ["**"]\n` });
    expect(gate("b.plan.yaml", { cwd: dir }).refused).toBe("lint");
  });

  it("gates a recorded plan through its plan file while it compiles to the same plan, else as the IR", () => {
    const dir = workspace({ "s.plan.yaml": SUPPRESSED });
    const recorded = compileFile("s.plan.yaml", { cwd: dir }).ir!;
    const file = join(dir, "s.plan.yaml");
    expect(gateRecorded(recorded, file).ir).toBe(recorded);
    writeFileSync(file, SUPPRESSED.replace("Read the input file from the workspace", "Read the input file"));
    expect(gateRecorded(recorded, file).refused).toBe("lint");
    expect(gateRecorded(recorded, undefined).refused).toBe("lint");
  });

  it("a recorded verdict is trusted only for the same planspec version, plan and plan file bytes", () => {
    const dir = workspace({ "b.plan.yaml": BAD, "c.plan.yaml": CLEAN });
    const bad = compileFile("b.plan.yaml", { cwd: dir }).ir!;
    // Linted, a bad recorded plan is refused and carries no key.
    const refused = gateRecorded(bad, "b.plan.yaml", { cwd: dir });
    expect(refused.refused).toBe("lint");
    expect(refused.key).toBeUndefined();
    const version = (JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")) as { version: string }).version;
    const key = gateKey(bad, "b.plan.yaml", dir);
    const sha = createHash("sha256").update(readFileSync(join(dir, "b.plan.yaml"))).digest("hex");
    expect(key).toBe(`${version} ${bad.planHash} ${sha}`);
    // A verdict for exactly this plan, file and version is not linted again...
    expect(gateRecorded(bad, "b.plan.yaml", { cwd: dir, passed: key }).ir).toBe(bad);
    // ...one of another planspec version, or of other plan-file bytes, is.
    expect(gateRecorded(bad, "b.plan.yaml", { cwd: dir, passed: key.replace(version, "0.0.0-old") }).refused).toBe("lint");
    writeFileSync(join(dir, "b.plan.yaml"), `${BAD}# a comment changes the bytes\n`);
    expect(gateRecorded(bad, "b.plan.yaml", { cwd: dir, passed: key }).refused).toBe("lint");
    // A clean plan that passes carries the key a run keeps.
    const clean = compileFile("c.plan.yaml", { cwd: dir }).ir!;
    expect(gateRecorded(clean, "c.plan.yaml", { cwd: dir }).key).toBe(gateKey(clean, "c.plan.yaml", dir));
  });
});
