/**
 * Blast radius: which effects are too big to run without a person saying yes. An
 * external effect that moves money, hits production, publishes to the public or repeats
 * in bulk (a `for_each`), and a destructive write on production.
 */
import type { DocPath } from "../compiler/source.js";
import { type Confidence, minConfidence } from "../diagnostic.js";
import type { IRNode } from "../ir.js";
import type { EffectiveRisk, Impact } from "./effective-risk.js";

export type ImpactClass = Impact | "bulk";

export interface HighImpact {
  impact: ImpactClass;
  /** "the verb \"refund\" in tool id \"payments.refund\"", "for_each over up to 500 items". */
  reason: string;
  path: DocPath;
  confidence: Confidence;
}

/** A for_each over at least this many items is bulk (a rule option may change it). */
export const DEFAULT_BULK_ITEMS = 10;

const ORDER: readonly Impact[] = ["payment", "production", "public"];

/** True for a step that is itself an approval gate. */
export function isGate(n: IRNode): boolean {
  return n.approval?.required === true || n.kind === "approval";
}

/** Why the step's effect is high-impact, or undefined when it is not. */
export function highImpact(risk: EffectiveRisk, node: IRNode, bulkItems = DEFAULT_BULK_ITEMS): HighImpact | undefined {
  const r = risk.of(node);
  if (node.kind === "approval") return undefined;
  if (r.risk === "write" && r.destructive) {
    // A destructive write on production (a DELETE on a `*.prod.*` database host) cannot be taken back either.
    const s = risk.impact(node, "production");
    return s ? { impact: "production", reason: s.reason, path: s.path, confidence: minConfidence(risk.confidence(node, "write"), s.confidence) } : undefined;
  }
  if (r.risk !== "external") return undefined;
  const sure = risk.confidence(node, "external");
  for (const impact of ORDER) {
    const s = risk.impact(node, impact);
    if (s) return { impact, reason: s.reason, path: s.path, confidence: minConfidence(sure, s.confidence) };
  }
  const items = node.forEach?.maxItems;
  if (node.forEach && (items === undefined || items >= bulkItems)) {
    return { impact: "bulk", reason: items === undefined ? "an unbounded for_each" : `a for_each over up to ${items} items`, path: ["for_each"], confidence: sure };
  }
  return undefined;
}
