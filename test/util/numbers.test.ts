import { describe, expect, it } from "vitest";
import { formatNumber } from "../../src/util/numbers.js";

describe("formatNumber", () => {
  it("writes every number as Intl.NumberFormat('en-US') does", () => {
    const intl = new Intl.NumberFormat("en-US");
    const values = [0, -0, 1, -1, 12, 999, 1000, -1000, 1234, 99999, 100000, 123456789, -987654321, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 1e21, 0.5, -1234.5678, 1e-7, NaN, Infinity, -Infinity];
    // A fixed pseudo-random walk over integer magnitudes, so a failure names a value that can be replayed.
    let x = 7;
    for (let i = 0; i < 2000; i++) {
      x = (x * 48271) % 2147483647;
      values.push((i % 2 === 0 ? 1 : -1) * Math.floor(x / 10 ** (i % 10)));
    }
    for (const v of values) expect([v, formatNumber(v)]).toEqual([v, intl.format(v)]);
  });
});
