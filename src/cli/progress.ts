/**
 * The progress display of `run` and `resume`. When stderr is not a TTY (logs, CI): one
 * plain line per transition and notable event. On a TTY: finished steps and notable
 * events scroll by as lines, and one block at the bottom — a counter and each running
 * step by name, coloured by status, with its time so far — is redrawn in place.
 */
import type { CliIO } from "./io.js";
import type { RunEvent } from "../runtime/store.js";

/** One line for an event, or undefined for events not worth a line. */
function describe(e: RunEvent): string | undefined {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case "node.transition": {
      const extra = d.to === "failed" && d.error ? `: ${String(d.error)}` : d.to === "running" && Number(d.attempt) > 1 ? ` (attempt ${String(d.attempt)})` : "";
      return `${String(d.node)}: ${String(d.from)} -> ${String(d.to)}${extra}`;
    }
    case "retry":
      return `${String(d.node)}: retry in ${String(d.delayMs)}ms (attempt ${String(d.nextAttempt)})`;
    case "violation":
      return `${String(d.node)}: VIOLATION: tool "${String(d.tool)}" refused: ${String(d.reason)}`;
    case "approval.requested":
      return `${String(d.node)}: waiting for approval${(d.approvers as string[]).length ? ` by ${(d.approvers as string[]).join(" or ")}` : ""}`;
    case "judge.requested":
      return `${String(d.node)}: waiting for a person to judge: ${String(d.criterion)}`;
    case "idempotency.hit":
      return `${String(d.node)}: result adopted from idempotency record (tool not called)`;
    case "node.reset":
      return `${String(d.node)}: reset to pending (${String(d.reason)})`;
    case "refine.requested":
      return `${String(d.node)}: refine this phase: ${String(d.command)}`;
    case "approval.voided":
      return `${String(d.node)}: approval by ${String(d.by)} is void: ${String(d.reason)}`;
    case "artifact.restored":
      return `${String(d.node)}: lost result artifact restored from its idempotency record`;
    case "result.lost":
      return `${String(d.node)}: had its effect, but its recorded result is lost: ${String(d.problem)}`;
    case "node.adopted":
      return `${String(d.node)}: interrupted call adopted from its idempotency record`;
    case "limit":
      return `limit reached: ${String(d.limit)}`;
    default:
      return undefined;
  }
}

const ANSI = { red: 31, green: 32, yellow: 33, gray: 90 } as const;

interface Running {
  since: number;
  attempt: number;
}

export interface Progress {
  onEvent: (e: RunEvent) => void;
  end: () => void;
}

export function progress(io: CliIO, color = false): Progress {
  if (io.stderr.isTTY !== true) {
    return {
      onEvent(e) {
        const line = describe(e);
        if (line) io.stderr.write(`${line}\n`);
      },
      end() {},
    };
  }
  const paint = (c: keyof typeof ANSI, s: string) => (color ? `\x1b[${ANSI[c]}m${s}\x1b[39m` : s);
  const counts = { done: 0, failed: 0, skipped: 0 };
  const running = new Map<string, Running>();
  // A terminal of unknown size (columns 0, e.g. under script(1)) gets 100.
  const width = () => Math.max(20, ((io.stderr as { columns?: number }).columns || 100) - 1);
  const cut = (s: string) => truncate(s, width());
  let drawn = 0;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
  const frame = (): string[] => {
    const head = `${paint("yellow", `${running.size} running`)}, ${paint("green", `${counts.done} done`)}, ${paint(counts.failed ? "red" : "gray", `${counts.failed} failed`)}, ${paint("gray", `${counts.skipped} skipped`)}`;
    const now = Date.now();
    return [head, ...[...running].map(([id, r]) => `  ${paint("yellow", "running")} ${id} ${paint("gray", seconds(now - r.since))}${r.attempt > 1 ? ` (attempt ${r.attempt})` : ""}`)].map(cut);
  };
  /** Rewrites the block: back to its first line, clear each line, print `above` lines, then the block. */
  const draw = (above: string[]) => {
    let out = drawn > 1 ? `\r\x1b[${drawn - 1}A` : "\r";
    const lines = [...above.map(cut), ...frame()];
    out += lines.map((l) => `\x1b[2K${l}`).join("\n") + "\x1b[J";
    drawn = lines.length - above.length;
    io.stderr.write(out);
  };
  const timer = setInterval(() => running.size > 0 && draw([]), 500);
  timer.unref();
  return {
    onEvent(e) {
      const above: string[] = [];
      if (e.type === "node.transition") {
        const d = e.data as { node: string; from: string; to: string; attempt?: number; error?: string };
        const was = running.get(d.node);
        if (d.from === "running") running.delete(d.node);
        if (d.to === "running") running.set(d.node, { since: Date.now(), attempt: Number(d.attempt ?? 1) });
        const took = was ? ` ${paint("gray", seconds(Date.now() - was.since))}` : "";
        if (d.to === "done") {
          counts.done++;
          above.push(`${paint("green", "done")}    ${d.node}${took}`);
        } else if (d.to === "failed") {
          counts.failed++;
          above.push(`${paint("red", "failed")}  ${d.node}${took}${d.error ? `: ${d.error}` : ""}`);
        } else if (d.to === "skipped") {
          counts.skipped++;
          above.push(`${paint("gray", "skipped")} ${d.node}`);
        }
        if (d.from === "failed" && counts.failed > 0) counts.failed--;
      } else {
        const line = describe(e);
        if (line) above.push(line);
      }
      draw(above);
    },
    end() {
      clearInterval(timer);
      if (drawn > 0) io.stderr.write(`${drawn > 1 ? `\r\x1b[${drawn - 1}A` : "\r"}\x1b[J`);
      drawn = 0;
    },
  };
}

/** `s` cut to `width` visible characters, colour codes kept whole (and closed when cut). */
function truncate(s: string, width: number): string {
  let out = "";
  let shown = 0;
  for (const m of s.matchAll(/\x1b\[[0-9;]*m|[^\x1b]+/g)) {
    const part = m[0];
    if (part.startsWith("\x1b")) {
      out += part;
      continue;
    }
    if (shown + part.length > width) return `${out}${part.slice(0, width - shown)}\x1b[0m`;
    out += part;
    shown += part.length;
  }
  return out;
}
