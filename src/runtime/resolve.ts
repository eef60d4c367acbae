/**
 * `planspec resolve`: a person settles a keyed step whose effect happened but whose
 * recorded result is lost, or a step interrupted mid-call — either "run it again"
 * (the record is forgotten, the step runs on resume) or "it happened; here is what it
 * returned" (the given result is stored, recorded under the key, and the step is done).
 */
import { atStep, DecisionError } from "./decide.js";
import { envFor, outputSource } from "./env.js";
import { evaluateKey } from "./keys.js";
import { readRunConfig } from "./load.js";
import { inlineCopy } from "./recorded.js";
import { Scrubber, secretValues } from "./redact.js";
import { runSalt } from "./secrets.js";
import { resetNode, transition } from "./states.js";
import { nowIso, type Store } from "./store.js";

export type Resolution = { choice: "rerun" } | { choice: "adopt"; result: unknown };

/**
 * Records a person's resolution of `step`; the run continues on `resume`. An adopted result
 * is scrubbed as a call's result would be, of the secrets `env` holds (the plan's `secrets:`
 * and credential-looking variables): it is often a copy of the API's answer, which may quote one.
 */
export async function resolveStep(run: string | Store, step: string, resolution: Resolution, by?: string, env: NodeJS.ProcessEnv = process.env): Promise<{ key?: string }> {
  return atStep(run, step, async ({ store, state, plan, node, st }) => {
    const waits = st.awaiting?.kind;
    if (waits !== "resolve" && waits !== "interrupted") {
      throw new DecisionError(`step "${step}" is ${st.status} and waits for no resolution: resolve settles a keyed step whose recorded result is lost, or a step interrupted mid-call`);
    }
    let key = st.awaiting?.key ?? st.idempotencyKey;
    if (key === undefined && node.idempotencyKey !== undefined) {
      key = evaluateKey(node, await envFor(node, outputSource(state, store)));
    }
    let resultRef: string | undefined;
    if (key !== undefined) await store.forgetIdempotency(key);
    if (resolution.choice === "adopt") {
      const listed = (plan.secrets ?? []).flatMap((n) => (env[n] ? [env[n]] : []));
      const result = new Scrubber([...listed, ...secretValues(env)], { salt: runSalt(await readRunConfig(store)) }).value(resolution.result);
      const art = await store.putArtifact(result, true);
      if (key !== undefined) await store.recordIdempotency(key, art.ref, inlineCopy(result, art));
      if (st.status === "pending") transition(step, st, "running");
      transition(step, st, "done");
      st.outputRef = art.ref;
      st.outputHash = art.hash;
      st.endedAt = nowIso();
      delete st.lastError;
      resultRef = art.ref;
    } else {
      resetNode(st);
      for (const k of ["outputRef", "outputHash", "lastError", "startedAt", "endedAt", "idempotencyKey"] as const) delete st[k];
    }
    delete st.awaiting;
    state.reason = `step "${step}" resolved (${resolution.choice}): resume to continue`;
    store.appendEvent("resolved", { node: step, choice: resolution.choice, ...(by ? { by } : {}), ...(key !== undefined ? { key } : {}), ...(resultRef ? { resultRef } : {}) });
    await store.writeState(state);
    await store.syncEvents();
    return key !== undefined ? { key } : {};
  });
}
