/**
 * Effective risk: a step's risk is at least what it will do, not only what it is
 * labelled. One analysis per plan, shared by every risk rule through the rule context,
 * infers a floor for each step from its tools' catalogue annotations, names and
 * descriptions, and from the arguments it passes: shell commands, SQL statements, HTTP
 * methods. Every inference carries a reason, the argument's path and a confidence.
 * Linear in the plan: each tool is read once per distinct catalogue entry (cached
 * across plans), each `with` string once.
 */
import type { DocPath } from "../compiler/source.js";
import type { Confidence } from "../diagnostic.js";
import { type IRNode, type PlanIR, type Risk, maxRisk, riskRank } from "../ir.js";
import type { PlanGraph } from "../graph.js";
import { ArgumentScan, constantItems, mayMatter } from "./risk-arguments.js";
import { type ToolFacts, toolFacts } from "./risk-tools.js";

export { showPath } from "./risk-arguments.js";

/** The blast radius classes that make a missing approval an error. */
export type Impact = "payment" | "production" | "public";

/** One thing a step will do that sets a floor on its risk. */
export interface RiskSignal {
  risk: Risk;
  destructive: boolean;
  /** What was seen and where, for messages: "`DROP TABLE` in `with.sql`". */
  reason: string;
  /** Below the step: `["with", "sql"]`, `["tool"]`. */
  path: DocPath;
  confidence: Confidence;
}

/** A sign of a high blast radius: money, production, the public. */
export interface ImpactSignal {
  impact: Impact;
  reason: string;
  path: DocPath;
  confidence: Confidence;
}

export interface StepRisk {
  /** What the plan states: the highest of the step's label, its tools' catalogue risk and its kind. */
  stated: Risk;
  /** `stated` raised by what the step will do. */
  risk: Risk;
  destructive: boolean;
  signals: readonly RiskSignal[];
  impacts: readonly ImpactSignal[];
}

const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };

/** The effective risk of every step of one plan, computed on first use. */
export class EffectiveRisk {
  private readonly steps = new Map<IRNode, StepRisk>();
  private readonly tools = new Map<string, ToolFacts>();
  /** A tool's facts, looked up once per plan. */
  private readonly factsOf = (name: string): ToolFacts => {
    let f = this.tools.get(name);
    if (!f) this.tools.set(name, (f = toolFacts(name, this.ir.tools[name])));
    return f;
  };

  constructor(
    private readonly ir: PlanIR,
    private readonly graph: PlanGraph,
  ) {}

  of(node: IRNode): StepRisk {
    let s = this.steps.get(node);
    if (!s) this.steps.set(node, (s = analyseStep(node, this.ir, this.graph.effectiveRisk(node), this.factsOf)));
    return s;
  }

  risk(node: IRNode): Risk {
    return this.of(node).risk;
  }

  /**
   * The strongest signal that lifts the step to `level` when what the plan states does
   * not reach it; undefined when the plan states it (or nothing lifts it).
   */
  cause(node: IRNode, level: Risk): RiskSignal | undefined {
    const s = this.of(node);
    if (riskRank(s.stated) >= riskRank(level)) return undefined;
    return strongest(s.signals.filter((g) => riskRank(g.risk) >= riskRank(level)));
  }

  /** How sure it is that the step reaches `level`: high when the plan states it. */
  confidence(node: IRNode, level: Risk): Confidence {
    const s = this.of(node);
    if (riskRank(s.stated) >= riskRank(level)) return "high";
    return this.cause(node, level)?.confidence ?? "low";
  }

  /** The strongest signal that the step destroys something. */
  destructiveCause(node: IRNode): RiskSignal | undefined {
    return strongest(this.of(node).signals.filter((g) => g.destructive));
  }

  /** The strongest sign of each blast radius class. */
  impact(node: IRNode, impact: Impact): ImpactSignal | undefined {
    return strongest(this.of(node).impacts.filter((i) => i.impact === impact));
  }
}

function strongest<T extends { confidence: Confidence; risk?: Risk }>(list: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const g of list) {
    if (!best || RANK[g.confidence] > RANK[best.confidence] || (RANK[g.confidence] === RANK[best.confidence] && g.risk !== undefined && best.risk !== undefined && riskRank(g.risk) > riskRank(best.risk))) best = g;
  }
  return best;
}

/** "What it is" for messages: a destructive write, a write, an external effect. */
export function describeRisk(risk: Risk, destructive: boolean): string {
  return risk === "external" ? (destructive ? "a destructive external effect" : "an external effect") : risk === "write" ? (destructive ? "a destructive write" : "a write") : "a read";
}

/** One step: its tools' facts, then what its arguments say. */
function analyseStep(node: IRNode, ir: PlanIR, stated: Risk, factsOf: (name: string) => ToolFacts): StepRisk {
  const signals: RiskSignal[] = [];
  const impacts: ImpactSignal[] = [];
  if (node.allowedTools.length === 0) return { stated, risk: stated, destructive: false, signals, impacts };
  for (const name of node.allowedTools) {
    const facts = factsOf(name);
    const path: DocPath = name === node.tool ? ["tool"] : ["allowed_tools"];
    for (const s of facts.signals) {
      signals.push({ risk: s.risk, destructive: s.destructive, reason: s.reason, path, confidence: s.confidence });
      if (s.impact) impacts.push({ impact: s.impact, reason: s.reason, path, confidence: s.confidence });
    }
  }
  // Arguments only do something when a tool receives them (a phase's `with` is context).
  if (node.tool !== undefined && node.with && node.kind !== "phase" && mayMatter(node.with, factsOf(node.tool))) {
    const facts = factsOf(node.tool);
    const args = new ArgumentScan(ir, facts, signals, impacts, constantItems(node.forEach?.items));
    const read = args.programAndArgs(node.with);
    for (const [key, value] of Object.entries(node.with)) if (!read.includes(key)) args.visit(value, ["with", key], key, "high");
    args.finish();
  }
  let risk = stated;
  let destructive = false;
  for (const s of signals) {
    risk = maxRisk(risk, s.risk);
    destructive ||= s.destructive;
  }
  return { stated, risk, destructive, signals, impacts };
}

