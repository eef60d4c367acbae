/** `planspec runs`: list the runs under .planspec/runs; also resolves a RUN argument to its directory. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { ActionContext } from "./main.js";
import type { RunSummary } from "../runtime/store.js";
import { UsageError, write } from "./io.js";
import { openDatabase, STORE_OPTION, storeUrl } from "./store.js";
import { findRunDir } from "../runtime/open-store.js";
import { FileStore, readRunDirState, readStatusSummary } from "../runtime/file-store.js";
import { statesInOrder } from "../runtime/overview.js";
import { lazyPlan } from "../runtime/plan-file.js";
import { planspecVersion } from "../util/version.js";
import { formatRows } from "../runtime/summary.js";

/** A run argument is a run directory or a run id under `.planspec/runs` of the working directory. */
export function resolveRunDir(arg: string, cwd: string): string {
  try {
    return findRunDir(arg, cwd);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/**
 * A run's line: from its kept summary when its last session ended cleanly, from the
 * writer's overview when it is in progress or was killed (overview.ts: believed only while
 * the files it names are unchanged), else from its whole state.
 */
async function summarise(dir: string, id: string): Promise<RunSummary | undefined> {
  try {
    const kept = readStatusSummary(dir, planspecVersion());
    if (kept) return { id, status: kept.status, plan: kept.summary.plan ?? "?", done: kept.summary.done, total: kept.summary.total, createdAt: kept.createdAt, updatedAt: kept.updatedAt };
    // Imported here: the other commands import this module for resolveRunDir.
    const { loadRunOverview } = await import("../runtime/load.js");
    const fast = await loadRunOverview(new FileStore(dir, id));
    const byPlace = fast && statesInOrder(fast.state.nodes);
    if (fast && byPlace) {
      const { state } = fast;
      let done = 0;
      let total = 0;
      for (const st of byPlace) {
        if (st === undefined) continue;
        total++;
        if (st.status === "done") done++;
      }
      return { id, status: state.status, plan: fast.plan.name, done, total, createdAt: state.createdAt, updatedAt: state.updatedAt };
    }
    const state = readRunDirState(dir).doc as {
      status: string;
      revision?: number;
      createdAt?: string;
      updatedAt?: string;
      nodes?: Record<string, { status?: string; state?: string }>;
    };
    let plan = "?";
    try {
      // The plan the run follows now: its latest revision, as status names it.
      const file = state.revision ? join(dir, "revisions", `${state.revision}.ir.json`) : join(dir, "plan.ir.json");
      const text = readFileSync(file, "utf8");
      // Only the name is wanted: the nodes of a plan in the run directory's layout are not parsed.
      plan = ((lazyPlan(text) ?? JSON.parse(text)) as { name: string }).name;
    } catch {
      // A run without its plan file still lists.
    }
    const nodes = Object.values(state.nodes ?? {});
    return {
      id,
      status: state.status,
      plan,
      done: nodes.filter((n) => (n.status ?? n.state) === "done").length,
      total: nodes.length,
      createdAt: state.createdAt ?? "",
      updatedAt: state.updatedAt ?? "",
    };
  } catch {
    return undefined;
  }
}

export function registerRuns(program: Command, ctx: ActionContext): void {
  program
    .command("runs")
    .description("list runs under .planspec/runs (newest last)")
    .option("--dir <dir>", "the directory that holds run directories", ".planspec/runs")
    .option("--json", "print JSON")
    .option(...STORE_OPTION)
    .addHelpText("after", "\nExamples:\n  $ planspec runs\n  $ planspec runs --json\n  $ planspec runs --store postgres://localhost/planspec\n")
    .action(
      ctx.action(async (opts: { dir: string; json?: boolean; store?: string }) => {
        const { io } = ctx;
        const url = storeUrl(opts.store, io);
        if (url) return listStoreRuns(url, io, opts.json === true);
        const root = resolve(io.cwd, opts.dir);
        const dirs = existsSync(root) ? readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()) : [];
        const list: RunSummary[] = [];
        for (const e of dirs) {
          const s = await summarise(join(root, e.name), e.name);
          if (s !== undefined) list.push(s);
        }
        list.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
        if (opts.json) {
          await write(io.stdout, `${JSON.stringify(list, null, 2)}\n`);
          return 0;
        }
        if (list.length === 0) {
          await write(io.stdout, `no runs in ${root}\n`);
          return 0;
        }
        const rows = [["RUN", "STATUS", "PLAN", "STEPS", "UPDATED"], ...list.map((s) => [s.id, s.status, s.plan, `${s.done}/${s.total}`, s.updatedAt])];
        await write(io.stdout, formatRows(rows));
        return 0;
      }),
    );
}

/** `runs --store`: the runs of a PostgreSQL store, with the worker holding each. */
async function listStoreRuns(url: string, io: ActionContext["io"], json: boolean): Promise<number> {
  const db = await openDatabase(url);
  try {
    const { listRuns } = await import("../runtime/pg/lease.js");
    const list = await listRuns(db);
    if (json) await write(io.stdout, `${JSON.stringify(list, null, 2)}\n`);
    else if (list.length === 0) await write(io.stdout, `no runs in ${db.location}\n`);
    else await write(io.stdout, formatRows([["RUN", "STATUS", "PLAN", "STEPS", "UPDATED", "WORKER"], ...list.map((s) => [s.id, s.status, s.plan, `${s.done}/${s.total}`, s.updatedAt, s.leaseOwner ?? "-"])]));
    return 0;
  } finally {
    await db.close();
  }
}
