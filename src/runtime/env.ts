/**
 * Expression environments for a step: built only from the run's inputs and the outputs
 * of the steps the node consumes (SPEC §5 resume (4): a node's context is rebuilt from
 * the artifacts of the steps it references, nothing else).
 */
import type { IRNode } from "../ir.js";
import type { EvalEnv } from "../compiler/expr/index.js";
import type { RunState, Store } from "./store.js";

export interface OutputSource {
  inputs: Record<string, unknown>;
  /** Values of the plan's `secrets:` (absent where only keys are re-evaluated). */
  secrets?: Record<string, string>;
  runId: string;
  status(id: string): string | undefined;
  output(id: string): Promise<unknown>;
}

/** The environment `with`, `when`, keys and success checks of `node` are evaluated in. */
export async function envFor(node: IRNode, src: OutputSource): Promise<EvalEnv> {
  const steps: Record<string, { output?: unknown; status?: string }> = {};
  for (const id of node.consumes) {
    const status = src.status(id);
    steps[id] = { output: status === "done" ? await src.output(id) : null, status };
  }
  return { inputs: src.inputs, ...(src.secrets ? { secrets: src.secrets } : {}), steps, run: { id: src.runId } };
}

/** Outputs read straight from a run's state and store (outside the scheduler: approve, resolve, resume checks). */
export function outputSource(state: RunState, store: Store): OutputSource {
  return {
    inputs: state.inputs,
    runId: state.runId,
    status: (id) => state.nodes[id]?.status,
    output: async (id) => {
      const ref = state.nodes[id]?.outputRef;
      return ref ? store.getArtifact(ref) : null;
    },
  };
}
