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

/**
 * The two durability settings compared. LangGraph's default is `durability: "async"` (a
 * step's checkpoint is written while the next step runs) on SqliteSaver's WAL database at
 * better-sqlite3's build default `synchronous = NORMAL` (SQLITE_DEFAULT_WAL_SYNCHRONOUS=1: a
 * commit is not synced, only WAL checkpoints are). "equal" is planspec's guarantee, a step's
 * record durable before the next step starts: `durability: "sync"` and `synchronous = FULL`
 * (every commit fsyncs the WAL).
 */
export const PEER_MODES = {
  default: { durability: undefined, synchronous: undefined },
  equal: { durability: "sync", synchronous: "FULL" },
};

/**
 * Runs a linear graph of `n` nodes checkpointed to `dbFile` in `mode` (a PEER_MODES key);
 * returns wall ms, database bytes and the journal and synchronous settings in effect.
 */
export async function runPeer(peer, n, dbFile, mode = "default") {
  const { durability, synchronous } = PEER_MODES[mode];
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
  // setup() switches the database to WAL; a pragma set before it would be set on the rollback journal.
  saver.setup();
  if (synchronous) saver.db.pragma(`synchronous = ${synchronous}`);
  const pragmas = { journal_mode: saver.db.pragma("journal_mode", { simple: true }), synchronous: saver.db.pragma("synchronous", { simple: true }) };
  const app = g.compile({ checkpointer: saver });
  const t0 = process.hrtime.bigint();
  const out = await app.invoke({}, { configurable: { thread_id: "bench" }, recursionLimit: n + 10, ...(durability ? { durability } : {}) });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (Object.keys(out.outputs).length !== n) throw new Error(`peer run ended with ${Object.keys(out.outputs).length}/${n} outputs`);
  saver.db?.close?.();
  let bytes = 0;
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-journal`]) if (existsSync(f)) bytes += statSync(f).size;
  return { wallMs, bytes, pragmas };
}
