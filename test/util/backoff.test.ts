/**
 * The one back-off helper keeps each caller's numbers: step retries (equal jitter under
 * the cap, whole ms), lint's worst-case wait (the ceiling), the model clients (jitter
 * before the cap, so far retries wait exactly the maximum).
 */
import { describe, expect, it } from "vitest";
import type { IRNode } from "../../src/ir.js";
import { backoffMs as httpBackoff, DEFAULT_POLICY } from "../../src/llm/http.js";
import { backoffMs as stepBackoff } from "../../src/runtime/retry.js";
import { backoffCeilingMs, backoffMs, retryBackoff } from "../../src/util/backoff.js";

const node = (retry: IRNode["retry"]) => ({ retry }) as IRNode;

describe("backoff", () => {
  it("doubles from the initial delay up to the cap, or stays fixed; 0 means no cap", () => {
    const b = { initialMs: 100, maxMs: 500 };
    expect([0, 1, 2, 3, 10].map((r) => backoffCeilingMs(b, r))).toEqual([100, 200, 400, 500, 500]);
    expect(backoffCeilingMs({ initialMs: 100, growth: "fixed", maxMs: 50 }, 5)).toBe(50);
    expect(backoffCeilingMs({ initialMs: 100, maxMs: 0 }, 4)).toBe(1600);
  });

  it("jitters over the upper half of the ceiling", () => {
    expect(backoffMs({ initialMs: 100 }, 1, () => 0)).toBe(100);
    expect(backoffMs({ initialMs: 100 }, 1, () => 0.999)).toBeCloseTo(199.9);
  });

  it("step retries: whole ms between half and all of the capped delay, none without a wait", () => {
    const r = node({ maxAttempts: 5, backoff: "exponential", initialDelayMs: 20, maxDelayMs: 50 });
    expect([1, 2, 3, 4].map((a) => stepBackoff(r, a, () => 0))).toEqual([10, 20, 25, 25]);
    expect([1, 2, 3, 4].map((a) => stepBackoff(r, a, () => 0.999))).toEqual([20, 40, 50, 50]);
    expect(stepBackoff(node({ maxAttempts: 2, backoff: "none", initialDelayMs: 20, maxDelayMs: 0 }), 1)).toBe(0);
    expect(stepBackoff(node(undefined), 1)).toBe(0);
    expect(retryBackoff({ maxAttempts: 2, backoff: "fixed", initialDelayMs: 7, maxDelayMs: 0 })).toEqual({ initialMs: 7, growth: "fixed", maxMs: 0 });
  });

  it("model clients: jittered, then capped, so past the cap every retry waits the maximum", () => {
    for (let i = 0; i < 50; i++) {
      const d = httpBackoff(DEFAULT_POLICY, 1);
      expect(d).toBeGreaterThanOrEqual(1000);
      expect(d).toBeLessThanOrEqual(2000);
    }
    expect(httpBackoff(DEFAULT_POLICY, 7)).toBe(DEFAULT_POLICY.maxDelayMs);
  });
});
