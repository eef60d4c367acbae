/**
 * One recovery trial's sessions: `planspec run` in a child process, then `approve`s and
 * `resume`s until the run is done, as an operator would drive it. Faults arrive through
 * the environment (state-version kill, the fault layer of the tool module) or from the
 * parent (SIGKILL while a step blocks).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PlanIR } from "../ir.js";
import { readRunDirState } from "../runtime/file-store.js";
import { BLOCKED_MARKER, EVAL_DIR, type FaultSpec } from "./recovery-tools.js";

const BIN = fileURLToPath(new URL("../../bin/planspec", import.meta.url));
export const RUN_ID = "recovery";

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs `planspec args` in `cwd`; with `killWhen`, SIGKILLs it once the condition holds. */
export function planspec(cwd: string, args: string[], env: Record<string, string>, killWhen?: () => boolean, timeoutMs = 60_000): Promise<Exit & { killedByParent: boolean }> {
  return new Promise((resolve) => {
    // Trials live in run directories of their workspace, whatever store the caller's environment names.
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: "1", PLANSPEC_STORE: "", ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    let killedByParent = false;
    child.stderr.setEncoding("utf8").on("data", (s: string) => void (stderr.length < 20_000 && (stderr += s)));
    const poll = killWhen
      ? setInterval(() => {
          if (!killedByParent && killWhen()) {
            killedByParent = true;
            child.kill("SIGKILL");
          }
        }, 15)
      : undefined;
    const timer = setTimeout(() => {
      stderr += `\n(timed out after ${timeoutMs} ms)`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      resolve({ code, signal, stderr, killedByParent });
    });
  });
}

export interface DriveOptions {
  ws: string;
  planFile: string;
  toolsModule: string;
  inputs: Record<string, string>;
  /** Environment for every session (state-version kill, failOnce). */
  env?: Record<string, string>;
  /** Blocks this step after its work (until that has happened once); the parent kills the run there. */
  blockAfter?: string;
  maxSessions: number;
}

export interface DriveResult {
  done: boolean;
  sessions: number;
  /** True when a SIGKILL interrupted a session (the fault fired). */
  killed: boolean;
  /** Why the run did not finish, when it did not. */
  reason?: string;
}

function readState(ws: string): { status: string; nodes: Record<string, { status: string; awaiting?: { kind: string } }> } | undefined {
  const f = join(ws, ".planspec/runs", RUN_ID, "state.json");
  return existsSync(f) ? (readRunDirState(dirname(f)).doc as ReturnType<typeof readState>) : undefined;
}

const lastLine = (s: string) => s.trim().split("\n").filter(Boolean).at(-1) ?? "";

/** Starts the run (or, with `resumeFirst`, resumes it) and drives it to `done`. */
export async function drive(plan: PlanIR, o: DriveOptions, resumeFirst: string[] | undefined = undefined): Promise<DriveResult> {
  const base = { ...(o.env ?? {}) };
  const first: FaultSpec = o.blockAfter ? { ...(base.PLANSPEC_EVAL_FAULT ? JSON.parse(base.PLANSPEC_EVAL_FAULT) : {}), blockAfter: o.blockAfter } : {};
  const env0 = o.blockAfter ? { ...base, PLANSPEC_EVAL_FAULT: JSON.stringify(first) } : base;
  const marker = join(o.ws, EVAL_DIR, BLOCKED_MARKER);
  // The eval scores plans that may not lint clean: the gate is off for the run and every resume.
  const runArgs = resumeFirst ? [...resumeFirst, "--no-lint-gate"] : ["run", o.planFile, "--tools", o.toolsModule, "--run-id", RUN_ID, "--workspace", o.ws, "--no-lint-gate", ...Object.entries(o.inputs).flatMap(([k, v]) => ["--input", `${k}=${v}`])];
  let exit = await planspec(o.ws, runArgs, env0, o.blockAfter ? () => existsSync(marker) : undefined);
  let killed = exit.signal === "SIGKILL";
  let sessions = 1;
  let rerun = false;
  while (sessions < o.maxSessions) {
    if (exit.code === 0) return { done: true, sessions, killed };
    if (exit.code === 2) return { done: false, sessions, killed, reason: `usage error: ${lastLine(exit.stderr)}` };
    if (exit.signal && exit.signal !== "SIGKILL") return { done: false, sessions, killed, reason: `session died with ${exit.signal}` };
    if (exit.code === 3) {
      const state = readState(o.ws);
      for (const [step, st] of Object.entries(state?.nodes ?? {})) {
        const kind = st.awaiting?.kind;
        if (kind === "interrupted") rerun = true;
        if (kind === "approval" || kind === "judge") {
          const node = plan.nodes.find((n) => n.id === step);
          const by = node?.approval?.approvers[0] ?? "eval";
          const a = await planspec(o.ws, ["approve", RUN_ID, step, "--by", by, "--note", "auto-approved by planspec eval recovery"], {});
          if (a.code !== 0) return { done: false, sessions, killed, reason: `approve ${step} failed: ${lastLine(a.stderr)}` };
        }
      }
    }
    // The mid-step fault stays armed until it fires: an approval gate may pause the run first.
    const armed = o.blockAfter && !killed;
    exit = await planspec(o.ws, ["resume", RUN_ID, "--no-lint-gate", ...(rerun ? ["--rerun-interrupted"] : [])], armed ? env0 : base, armed ? () => existsSync(marker) : undefined);
    rerun = false;
    killed ||= exit.signal === "SIGKILL";
    sessions++;
  }
  if (exit.code === 0) return { done: true, sessions, killed };
  const state = readState(o.ws);
  return { done: false, sessions, killed, reason: `not done after ${sessions} sessions (status ${state?.status ?? "unknown"}): ${lastLine(exit.stderr)}` };
}
