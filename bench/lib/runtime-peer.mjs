/**
 * The runtime peer: LangGraph JS with its SQLite checkpointer, installed only under
 * bench/peers (npm install --prefix bench/peers ...). A linear StateGraph of `n` nodes,
 * each a trivial "tool" returning a small object that is merged into the graph state
 * (the planspec run likewise keeps every step's output, by reference).
 */
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const peersDir = join(import.meta.dirname, "..", "peers");

/** The LangGraph modules and versions, or undefined when they are not installed. */
export function loadPeer() {
  if (!existsSync(join(peersDir, "node_modules", "@langchain", "langgraph-checkpoint-sqlite"))) return undefined;
  // Bare specifiers resolve from the importing file upwards, which never reaches bench/peers.
  const req = createRequire(join(peersDir, "package.json"));
  try {
    const lg = req("@langchain/langgraph");
    const { SqliteSaver } = req("@langchain/langgraph-checkpoint-sqlite");
    const versions = ["@langchain/langgraph", "@langchain/langgraph-checkpoint-sqlite", "better-sqlite3"].map(
      (p) => `${p} ${req(`${p}/package.json`).version}`,
    );
    return { lg, SqliteSaver, versions };
  } catch (err) {
    return { error: String(err.message ?? err).split("\n")[0] };
  }
}

/** Runs a linear graph of `n` nodes checkpointed to `dbFile`; returns wall ms and database bytes. */
export async function runPeer(peer, n, dbFile) {
  const { Annotation, StateGraph, START, END } = peer.lg;
  const State = Annotation.Root({
    outputs: Annotation({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }),
  });
  const g = new StateGraph(State);
  for (let i = 0; i < n; i++) g.addNode(`s${i}`, () => ({ outputs: { [`s${i}`]: { i, ok: true } } }));
  g.addEdge(START, "s0");
  for (let i = 1; i < n; i++) g.addEdge(`s${i - 1}`, `s${i}`);
  g.addEdge(`s${n - 1}`, END);
  const saver = peer.SqliteSaver.fromConnString(dbFile);
  const app = g.compile({ checkpointer: saver });
  const t0 = process.hrtime.bigint();
  const out = await app.invoke({}, { configurable: { thread_id: "bench" }, recursionLimit: n + 10 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (Object.keys(out.outputs).length !== n) throw new Error(`peer run ended with ${Object.keys(out.outputs).length}/${n} outputs`);
  saver.db?.close?.();
  let bytes = 0;
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-journal`]) if (existsSync(f)) bytes += statSync(f).size;
  return { wallMs, bytes };
}
