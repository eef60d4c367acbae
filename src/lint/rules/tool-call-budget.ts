/**
 * The run-level limits are the last line of defence, and a plan whose own bounds exceed
 * them is cut off half-way (half the refunds done). Worst case, a step makes retry ×
 * repeat × for_each calls, and waits its poll delays and retry back-offs (each attempt
 * at most its timeout); the plan makes the sum of its steps' calls and waits the longest
 * chain of its steps' waits.
 */
import type { IRNode } from "../../ir.js";
import { defineRule } from "../rule.js";
import { backoffCeilingMs, retryBackoff } from "../../util/backoff.js";
import { formatNumber } from "../../util/numbers.js";

interface Cost {
  node: IRNode;
  calls: number;
  /** How the calls multiply: "3 attempts × 500 items". */
  callTerms: string[];
  waitMs: number;
  waitTerms: string[];
}

export const rule = defineRule({
  id: "tool-call-budget",
  meta: {
    description: "Worst-case tool calls (retry × repeat × for_each) above limits.max_tool_calls, or worst-case waits above limits.run_timeout.",
    defaultSeverity: "error",
    messages: {
      calls:
        "worst case the plan makes {{total}} tool calls, more than limits.max_tool_calls ({{limit}}): {{arithmetic}}; lower the bounds or raise the limit",
      time: "worst case the plan waits {{total}} along {{chain}}, more than limits.run_timeout ({{limit}}): {{arithmetic}}; lower the bounds or raise the limit",
    },
  },
  check(ctx) {
    const { ir, graph } = ctx;
    const { maxToolCalls, runTimeoutMs } = ir.limits;
    if (maxToolCalls === undefined && runTimeoutMs === undefined) return;
    // A pass without allocations first: most plans are far inside both limits.
    let calls = 0;
    let waits = false;
    for (const n of graph.nodes) {
      calls += (n.retry?.maxAttempts ?? 1) * (n.repeat?.maxAttempts ?? 1) * (n.forEach?.maxItems ?? 1) * Math.max(1, n.phase?.maxSteps ?? 1);
      waits ||= (n.repeat?.delayMs ?? 0) > 0 || (n.retry !== undefined && n.retry.backoff !== "none" && (n.retry.maxAttempts ?? 1) > 1);
    }
    if ((maxToolCalls === undefined || calls <= maxToolCalls) && (runTimeoutMs === undefined || !waits)) return;
    const costs = graph.nodes.map(costOf);
    if (maxToolCalls !== undefined) {
      const total = costs.reduce((n, c) => n + c.calls, 0);
      if (total > maxToolCalls) {
        ctx.report({
          messageId: "calls",
          path: ["limits", "max_tool_calls"],
          data: { total: formatNumber(total), limit: formatNumber(maxToolCalls), arithmetic: sumTerms(costs.filter((c) => c.calls > 0), (c) => c.calls, (c) => c.callTerms.join(" × "), formatNumber) },
        });
      }
    }
    if (runTimeoutMs !== undefined) {
      // Longest chain of waits, by dynamic programming over the topological order.
      const best = new Float64Array(costs.length);
      const prev = new Int32Array(costs.length).fill(-1);
      let end = -1;
      for (const i of graph.topo) {
        let from = -1;
        for (const p of graph.parents[i]!) if (from < 0 || best[p]! > best[from]!) from = p;
        best[i] = costs[i]!.waitMs + (from >= 0 ? best[from]! : 0);
        prev[i] = from;
        if (end < 0 || best[i]! > best[end]!) end = i;
      }
      if (end >= 0 && best[end]! > runTimeoutMs) {
        const chain: Cost[] = [];
        for (let i = end; i >= 0; i = prev[i]!) chain.push(costs[i]!);
        chain.reverse();
        const waits = chain.filter((c) => c.waitMs > 0);
        const ids = chain.map((c) => c.node.id);
        ctx.report({
          messageId: "time",
          path: ["limits", "run_timeout"],
          data: {
            total: duration(best[end]!),
            chain: ids.length > 5 ? [...ids.slice(0, 2), "...", ...ids.slice(-2)].join(" -> ") : ids.join(" -> "),
            limit: duration(runTimeoutMs),
            arithmetic: sumTerms(waits, (c) => c.waitMs, (c) => c.waitTerms.join(" + "), duration),
          },
        });
      }
    }
  },
});

function costOf(node: IRNode): Cost {
  const cost: Cost = { node, calls: 0, callTerms: [], waitMs: 0, waitTerms: [] };
  const attempts = node.retry?.maxAttempts ?? 1;
  const polls = node.repeat?.maxAttempts ?? 1;
  const items = node.forEach?.maxItems ?? 1;
  // An unbounded loop is `unbounded-loop`'s finding; it has no worst case to add up.
  const unbounded = (node.retry && node.retry.maxAttempts === undefined) || (node.repeat && node.repeat.maxAttempts === undefined) || (node.forEach && node.forEach.maxItems === undefined);
  if (unbounded) return cost;
  // A phase adds up to max_steps steps of at least one call each.
  const perAttempt = node.phase ? (node.phase.maxSteps ?? 0) : node.allowedTools.length > 0 ? 1 : 0;
  if (perAttempt > 0) {
    cost.calls = attempts * polls * items * perAttempt;
    if (attempts > 1) cost.callTerms.push(`${attempts} attempts`);
    if (polls > 1) cost.callTerms.push(`${polls} polls`);
    if (items > 1) cost.callTerms.push(`${items} items`);
    if (perAttempt > 1) cost.callTerms.push(`${perAttempt} phase steps`);
  }
  const delay = node.repeat?.delayMs ?? 0;
  const batches = Math.ceil(items / Math.max(1, node.forEach?.concurrency ?? 1));
  let loop = polls > 1 && delay > 0 ? (polls - 1) * delay * batches : 0;
  const capped = node.timeoutMs !== undefined && loop > node.timeoutMs;
  if (capped) loop = node.timeoutMs!;
  if (loop > 0) {
    const each = capped ? `${duration(loop)} timeout` : `${polls - 1} delays of ${duration(delay)}${batches > 1 ? ` × ${batches} batches` : ""}`;
    cost.waitTerms.push(attempts > 1 ? `${attempts} attempts × ${each}` : each);
  }
  let backoff = 0;
  const policy = retryBackoff(node.retry);
  // The worst case: every delay at its ceiling (the runtime jitters below it).
  if (policy) for (let k = 1; k < attempts; k++) backoff += backoffCeilingMs(policy, k - 1);
  if (backoff > 0) cost.waitTerms.push(`${duration(backoff)} of retry back-off`);
  cost.waitMs = attempts * loop + backoff;
  return cost;
}

/** `"refund" 3 attempts × 500 items = 1,500 + "find" 3 = 1,503`, largest first, the rest summed. */
function sumTerms(costs: Cost[], value: (c: Cost) => number, terms: (c: Cost) => string, show: (n: number) => string): string {
  const sorted = [...costs].sort((a, b) => value(b) - value(a));
  const shown = sorted.slice(0, 3).map((c) => {
    const t = terms(c);
    return t ? `"${c.node.id}" ${t} = ${show(value(c))}` : `"${c.node.id}" ${show(value(c))}`;
  });
  const rest = sorted.slice(3);
  if (rest.length) shown.push(`${show(rest.reduce((n, c) => n + value(c), 0))} from ${rest.length} other step${rest.length === 1 ? "" : "s"}`);
  return shown.join(" + ");
}

/** 83h 20m, 1m 30s, 500ms. */
function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  const parts: string[] = [];
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d) parts.push(`${d}d`);
  if (h) parts.push(`${h}h`);
  if (m) parts.push(`${m}m`);
  if (sec) parts.push(`${sec}s`);
  return parts.slice(0, 2).join(" ");
}
