/**
 * TaskBench's headline plan metrics (node micro-F1, link binary F1, edit distance) over
 * records already in memory: a thin view of `evaluate.ts`, which computes every metric of
 * TaskBench's `evaluate.py` with its semantics and is what `planspec eval taskbench` runs.
 */
import { evaluateTaskBench, readRecords } from "./evaluate.js";

export { indelSimilarity } from "./evaluate.js";

/** Precision, recall and F1 of one metric. */
export interface PRF {
  precision: number;
  recall: number;
  f1: number;
}

export interface TaskBenchMetrics {
  /** Micro-averaged over the tool names of tool_desc, each sample's names taken as a set. */
  node: PRF;
  /** Binary over each sample's set of (source tool, target tool) links. */
  link: PRF;
  /** 1 − mean normalised indel similarity of the tool-name sequences. */
  editDistance: number;
}

export interface TaskBenchScores {
  /** Ids present in both gold and predictions. */
  samples: number;
  /** Samples that were scored; the rest were dropped as evaluate.py drops them. */
  scored: number;
  dropped: Array<{ id: string; reason: string }>;
  /** `null` when no sample could be scored (evaluate.py prints "No supports, skip"). */
  metrics: TaskBenchMetrics | null;
}

export interface ScoreOptions {
  /**
   * evaluate.py's default metric set includes the step metrics (ROUGE, BERTScore), whose
   * preparation drops a sample without `task_steps` on either side. Default true.
   */
  requireTaskSteps?: boolean;
}

/**
 * Scores predictions (`{ id, result: { task_steps, task_nodes } }`) against gold records
 * (`{ id, task_steps, task_nodes }`) over the tool names of tool_desc, in its order, with
 * resource links. Records evaluate.py would stop on are left out.
 */
export function scoreTaskBench(gold: Iterable<unknown>, predictions: Iterable<unknown>, toolNames: readonly string[], options: ScoreOptions = {}): TaskBenchScores {
  const lines = (file: string, records: Iterable<unknown>) => readRecords(file, [...records].map((r) => JSON.stringify(r) ?? "null").join("\n"));
  const r = evaluateTaskBench(
    lines("gold", gold),
    lines("predictions", predictions),
    toolNames.map((id) => ({ id })),
    { prompting: (options.requireTaskSteps ?? true) ? "cot" : "direct", lenient: true },
  );
  const g = r.groups.overall_overall!;
  const dropped = r.dropped.overall_overall ?? [];
  const link = r.links.overall_overall;
  return {
    samples: g.all_samples,
    scored: g.node_supports,
    dropped,
    metrics:
      link === undefined ? null : (
        {
          node: { precision: g.node_micro_precision_no_matching!, recall: g.node_micro_recall_no_matching!, f1: g.node_micro_f1_no_matching! },
          link,
          editDistance: g.edit_distance!,
        }
      ),
  };
}
