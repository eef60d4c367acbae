/**
 * The rule contract (typescript-eslint style): one file per rule under `rules/`, each
 * exporting `defineRule({ id, meta, check })`. Rules report ids and paths; the engine
 * turns them into positioned diagnostics.
 */
import type { Confidence, Severity } from "../diagnostic.js";
import type { DocPath } from "../compiler/source.js";
import type { PlanIR } from "../ir.js";
import type { EffectiveRisk } from "./effective-risk.js";
import type { PlanGraph } from "../graph.js";
import type { ImportMark } from "./import-mark.js";

export interface RuleMeta<M extends string = string> {
  description: string;
  defaultSeverity: Severity;
  /** How sure the rule's findings are; `high` when unset. Heuristics (word overlap, verb inference) say less. */
  defaultConfidence?: Confidence;
  /** Message templates with `{{name}}` placeholders, keyed by message id. */
  messages: Record<M, string>;
  /** Default thresholds a config may override (`rules: { id: [severity, options] }`). */
  defaultOptions?: Record<string, unknown>;
  /** True for rules that need `--against` (the original plan). */
  needsOriginal?: boolean;
}

export interface Report<M extends string = string> {
  messageId: M;
  data?: Record<string, string | number>;
  /** The step the finding is about; omitted for plan-level findings. */
  node?: string;
  /** A path below the step (`["risk"]`) or, without `node`, below the document root. */
  path?: DocPath;
  hint?: string;
  /** Overrides the rule's `defaultConfidence` for this finding (e.g. it rests on an inference). */
  confidence?: Confidence;
}

export interface RuleContext<M extends string = string> {
  ir: PlanIR;
  graph: PlanGraph;
  /** What each step will do (its effective risk), computed once per plan on first use. */
  readonly risk: EffectiveRisk;
  /** The rule's options: `defaultOptions` merged with the config's. */
  options: Record<string, unknown>;
  /** The plan before revision, with `--against`. */
  original?: PlanIR;
  originalGraph?: PlanGraph;
  /** What each step of the original will do (like `risk`), computed on first use; undefined without an original. */
  readonly originalRisk?: EffectiveRisk;
  /** Set when an importer marked the plan as converted from a format that cannot express some features. */
  imported?: ImportMark;
  report(r: Report<M>): void;
}

export interface Rule<M extends string = string> {
  id: string;
  meta: RuleMeta<M>;
  check(ctx: RuleContext<M>): void;
}

export function defineRule<M extends string>(rule: Rule<M>): Rule<M> {
  return rule;
}

/** The one place a rule's docs URL is built. */
export function ruleDocsUrl(id: string): string {
  return `https://github.com/planspec/planspec/blob/main/docs/rules.md#${id}`;
}
