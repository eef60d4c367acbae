/**
 * The one list of user-error classes names real classes: each, constructed from the
 * module that defines it, is a user error (a rename would drop it from the list), and a
 * bug is not.
 */
import { describe, expect, it } from "vitest";
import { GateError } from "../../src/lint/gate.js";
import { LintFilesError } from "../../src/lint/lint-files.js";
import { DecisionError } from "../../src/runtime/decide.js";
import { InputError } from "../../src/runtime/inputs.js";
import { StateError } from "../../src/runtime/migrations.js";
import { LeaseHeldError, LeaseLostError } from "../../src/runtime/pg/lease.js";
import { ReviseError } from "../../src/runtime/revise.js";
import { IntegrityError, LockHeldError, StoreError } from "../../src/runtime/store.js";
import { ToolSetupError } from "../../src/runtime/tools/registry.js";
import { isUserError, USER_ERRORS } from "../../src/util/user-errors.js";

describe("user errors", () => {
  it("every listed name is a class a user can cause", () => {
    const errors: Error[] = [
      new InputError("x"),
      new ToolSetupError("x"),
      new LockHeldError(1, "now"),
      new StateError("x"),
      new ReviseError("x"),
      new DecisionError("x"),
      new StoreError("x"),
      new LeaseHeldError("r", "w", "now"),
      new LeaseLostError("r"),
      new IntegrityError("x"),
      new GateError("x", { errors: [], compiled: { kind: "plan", diagnostics: [], sources: new Map(), origins: new Map() } }),
      new LintFilesError("x", "option"),
    ];
    expect(errors.map((e) => e.name).sort()).toEqual([...USER_ERRORS].sort());
    expect(errors.every(isUserError)).toBe(true);
  });

  it("a bug is not one", () => {
    expect(isUserError(new Error("x"))).toBe(false);
    expect(isUserError(new TypeError("x"))).toBe(false);
    expect(isUserError({ name: "StoreError", message: "not an Error" })).toBe(false);
    expect(isUserError(undefined)).toBe(false);
  });
});
