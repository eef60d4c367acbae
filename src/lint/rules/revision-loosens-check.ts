/**
 * A success check is what tells a run that a step did its job. A revision that lowers a
 * threshold, drops a condition or deletes the check lets the same run end `done` with
 * less done, which is what an agent under pressure to finish tends to do.
 */
import type { IRNode, SuccessCriterion } from "../../ir.js";
import { type ReadCheck, looser, readCheck, squash } from "../revision.js";
import { defineRule } from "../rule.js";

export const rule = defineRule({
  id: "revision-loosens-check",
  meta: {
    description: "A revision that loosens a step's success check (a relaxed threshold, a dropped condition or evidence) or removes it.",
    defaultSeverity: "error",
    needsOriginal: true,
    messages: {
      threshold: 'the revision loosens the check of step "{{step}}": {{was}} became {{now}}; keep the original threshold',
      dropped: 'the revision drops the condition {{dropped}} from the check of step "{{step}}"; keep it',
      evidence: 'the revision drops evidence {{dropped}} from the success criteria of step "{{step}}"; keep it',
      removed: 'the revision removes the success {{what}} of step "{{step}}"; keep it',
    },
  },
  check(ctx) {
    const { graph, originalGraph } = ctx;
    if (!originalGraph) return;
    for (const node of graph.nodes) {
      const before = originalGraph.node(node.id);
      if (!before || before.success.length === 0) continue;
      compare(before, node, (r) => ctx.report({ ...r, node: node.id, data: { ...r.data, step: node.id } }));
    }
  },
});

type Found = { messageId: "threshold" | "dropped" | "evidence" | "removed"; path: Array<string | number>; data: Record<string, string> };

function compare(before: IRNode, node: IRNode, report: (f: Found) => void): void {
  const checks = node.success.map((c, i) => ({ i, read: c.check !== undefined ? readCheck(c.check) : undefined, c }));
  const remaining = new Set(node.success.map((_, i) => i));
  const at = (i: number) => ["success", i];
  for (const old of before.success) {
    const same = node.success.findIndex((c, i) => remaining.has(i) && sameCriterion(old, c));
    if (same >= 0) {
      remaining.delete(same);
      continue;
    }
    if (old.check !== undefined) {
      const was = readCheck(old.check);
      const match = was && checks.find((c) => remaining.has(c.i) && c.read && related(was, c.read));
      if (!was || !match?.read) {
        report({ messageId: "removed", path: node.success.length ? ["success"] : [], data: { what: `check ${quote(old.check)}` } });
        continue;
      }
      remaining.delete(match.i);
      // A condition is dropped when nothing in the new check stands for it: not itself, and
      // no comparison of the same left-hand side (a changed bound is judged as a bound).
      const dropped = was.conjuncts.filter((t) => !match.read!.conjuncts.includes(t) && !comparedIn(match.read!, was, t));
      for (const t of was.conjuncts) {
        const to = loosenedTo(was, match.read, t);
        if (to) report({ messageId: "threshold", path: at(match.i), data: { was: quote(t), now: quote(to) } });
      }
      // Only a condition left out (not one replaced by something else) is a drop.
      if (dropped.length && match.read.conjuncts.every((t) => was.conjuncts.includes(t) || comparedIn(was, match.read!, t))) {
        report({ messageId: "dropped", path: at(match.i), data: { dropped: dropped.map(quote).join(" and ") } });
      }
    } else if (old.evidence !== undefined) {
      const match = node.success.findIndex((c, i) => remaining.has(i) && c.evidence !== undefined && c.evidence.some((e) => old.evidence!.includes(e)));
      if (match < 0) {
        report({ messageId: "removed", path: node.success.length ? ["success"] : [], data: { what: `evidence ${old.evidence.map(quote).join(", ")}` } });
        continue;
      }
      remaining.delete(match);
      const gone = old.evidence.filter((e) => !node.success[match]!.evidence!.includes(e));
      if (gone.length) report({ messageId: "evidence", path: at(match), data: { dropped: gone.map(quote).join(", ") } });
    } else if (old.judge !== undefined && !node.success.some((c) => c.judge !== undefined)) {
      report({ messageId: "removed", path: node.success.length ? ["success"] : [], data: { what: `criterion ${quote(old.judge)}` } });
    }
  }
}

function sameCriterion(a: SuccessCriterion, b: SuccessCriterion): boolean {
  if (a.check !== undefined && b.check !== undefined) {
    const ra = readCheck(a.check);
    const rb = readCheck(b.check);
    return ra && rb ? ra.conjuncts.join(" && ") === rb.conjuncts.join(" && ") : squash(a.check) === squash(b.check);
  }
  if (a.evidence && b.evidence) return a.evidence.every((e) => b.evidence!.includes(e));
  return a.judge !== undefined && b.judge !== undefined && squash(a.judge) === squash(b.judge);
}

/** Two checks about the same thing: a shared conjunct or a comparison of the same left-hand side. */
function related(a: ReadCheck, b: ReadCheck): boolean {
  if (a.conjuncts.some((t) => b.conjuncts.includes(t))) return true;
  const lhs = new Set([...a.comparisons.values()].map((c) => c.lhs));
  return [...b.comparisons.values()].some((c) => lhs.has(c.lhs));
}

/** The conjunct of `b` that loosens conjunct `t` of `a`, if any. */
function loosenedTo(a: ReadCheck, b: ReadCheck, t: string): string | undefined {
  const was = a.comparisons.get(t);
  if (!was || b.conjuncts.includes(t)) return undefined;
  for (const [text, now] of b.comparisons) if (looser(was, now)) return text;
  return undefined;
}

/** True when conjunct `t` of `b` is a comparison of a left-hand side that `a` also compares. */
function comparedIn(a: ReadCheck, b: ReadCheck, t: string): boolean {
  const c = b.comparisons.get(t);
  return c !== undefined && [...a.comparisons.values()].some((x) => x.lhs === c.lhs);
}

function quote(s: string): string {
  return `\`${squash(s)}\``;
}
