/** The silent faults a corrupt trial injects, on values worked by hand. */
import { describe, expect, it } from "vitest";
import { corruptValue } from "../../src/eval/recovery-corrupt.js";

describe("corruptValue", () => {
  it("changes the shape: an object to its text, a list to its first item, text to an object", () => {
    expect(corruptValue({ a: 1 }, "wrong-shape")).toBe('{"a":1}');
    expect(corruptValue([4, 5], "wrong-shape")).toBe(4);
    expect(corruptValue("ok", "wrong-shape")).toEqual({ value: "ok" });
  });

  it("truncates to the first half of the keys, items or characters", () => {
    expect(corruptValue({ a: 1, b: 2, c: 3 }, "truncated")).toEqual({ a: 1 });
    expect(corruptValue([1, 2, 3, 4, 5], "truncated")).toEqual([1, 2]);
    expect(corruptValue("abcdef", "truncated")).toBe("abc");
  });

  it("changes one plausible value: the first number, else the first boolean, else the last string's last character", () => {
    const v = { tool: "t", rows: [{ n: 7 }, { n: 9 }] };
    expect(corruptValue(v, "subtly-wrong")).toEqual({ tool: "t", rows: [{ n: 8 }, { n: 9 }] });
    expect(v.rows[0]!.n).toBe(7);
    expect(corruptValue({ ok: true, note: "x" }, "subtly-wrong")).toEqual({ ok: false, note: "x" });
    expect(corruptValue({ tool: "pay", digest: "00fa" }, "subtly-wrong")).toEqual({ tool: "pay", digest: "00fb" });
  });
});
