/** `planspec diff` output: text for a terminal, Markdown for a pull-request comment, JSON for tools. */
import type { PlanDiff } from "./plan-diff.js";
import { isEmptyDiff } from "./plan-diff.js";
import type { RunVerdict } from "./run-verdict.js";

export type DiffFormat = "text" | "md" | "json";

function show(v: unknown): string {
  if (v === undefined) return "(none)";
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

/** A change as `from -> to`; two long strings are cut to where they differ. */
function change(from: unknown, to: unknown): string {
  if (typeof from === "string" && typeof to === "string" && (from.length > 60 || to.length > 60)) {
    let p = 0;
    while (p < from.length && p < to.length && from[p] === to[p]) p++;
    let q = 0;
    while (q < from.length - p && q < to.length - p && from[from.length - 1 - q] === to[to.length - 1 - q]) q++;
    const cut = (x: string) => {
      const start = Math.max(0, p - 20);
      const end = Math.min(x.length, x.length - q + 20);
      return `${start > 0 ? "..." : ""}${JSON.stringify(x.slice(start, end)).slice(1, -1)}${end < x.length ? "..." : ""}`;
    };
    return `"${cut(from)}" -> "${cut(to)}"`;
  }
  return `${show(from)} -> ${show(to)}`;
}

interface Section {
  title: string;
  lines: string[];
}

function sections(d: PlanDiff, v: RunVerdict | undefined): Section[] {
  const out: Section[] = [];
  const add = (title: string, lines: string[]) => {
    if (lines.length) out.push({ title, lines });
  };
  if (d.goal) add("Goal", [`was: ${d.goal.from}`, `now: ${d.goal.to}`]);
  add("Steps", [
    ...d.steps.added.map((s) => `+ ${s} (added)`),
    ...d.steps.removed.map((s) => `- ${s} (removed)`),
    ...d.steps.changed.flatMap((c) => [`~ ${c.id} (changed)`, ...c.fields.map((f) => `    ${f.field}: ${change(f.from, f.to)}`)]),
  ]);
  add("Edges", [...d.edges.added.map(([a, b]) => `+ ${a} -> ${b}`), ...d.edges.removed.map(([a, b]) => `- ${a} -> ${b}`)]);
  add("Deliverables", [...d.deliverables.added.map((x) => `+ ${x}`), ...d.deliverables.removed.map((x) => `- ${x}`)]);
  add("Risk", d.risk.map((r) => (r.from ? `${r.step}: ${r.from} -> ${r.to} (${r.direction})` : `${r.step}: new step at ${r.to}`)));
  add("Approvals", d.approvals.map((a) => `${a.step}: gate ${a.change}${a.change === "changed" ? " (approvers or timeout; see Steps)" : ""}`));
  add(
    "Success criteria",
    d.criteria.map((c) =>
      c.change === "added" ? `+ ${c.step}: ${c.to}`
      : c.change === "removed" ? `- ${c.step}: ${c.from}${c.why ? ` (${c.why})` : ""}`
      : `${c.change === "loosened" ? "! loosened" : "~ changed"} ${c.step}: ${c.from} -> ${c.to}${c.why ? ` (${c.why})` : ""}`,
    ),
  );
  add("Plan", d.plan.map((f) => `${f.field}: ${change(f.from, f.to)}`));
  if (v) {
    const lines = [
      `revise would ${v.revise.accepted ? "accept" : "refuse"} it${v.revise.accepted ? "" : ":"}`,
      ...v.revise.reasons.map((r) => `    ${r}`),
      `stay valid: ${v.stayValid.join(", ") || "(none)"}`,
      `run again: ${v.rerun.join(", ") || "(none)"}`,
      `not run yet: ${v.pending.join(", ") || "(none)"}`,
      ...v.effects.map((e) => `effect of ${e.step} (${e.risk}): ${e.verdict} - ${e.why}`),
    ];
    if (!v.runPlanIsOld) lines.unshift(`note: the run's current plan is not OLD; the verdict compares NEW with the run's plan`);
    out.push({ title: `Run ${v.runId}`, lines });
  }
  return out;
}

/** Control characters as escapes: a plan's text must not drive the terminal it is printed on. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A Markdown code span for any text: plan text in a PR comment is data, so no @mention,
 * link or HTML in a step's goal can act. The fence is longer than any backtick run inside.
 */
function code(text: string): string {
  const flat = printable(text).replace(/\s*\n\s*/g, " ");
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") || longest > 0 ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

export function formatDiff(d: PlanDiff, v: RunVerdict | undefined, format: DiffFormat): string {
  if (format === "json") return `${JSON.stringify(v ? { ...d, run: v } : d, null, 2)}\n`;
  const secs = sections(d, v);
  const empty = isEmptyDiff(d);
  if (format === "text") {
    let out = `${d.old.file} -> ${d.new.file}\n`;
    if (empty) out += "no change\n";
    for (const s of secs) out += `\n${s.title}:\n${s.lines.map((l) => `  ${l}`).join("\n")}\n`;
    return out.split("\n").map(printable).join("\n");
  }
  const n = d.steps;
  let out = `### planspec diff: ${code(d.old.file)} → ${code(d.new.file)}\n\n`;
  out += empty ? "No change.\n" : `${n.added.length} added, ${n.removed.length} removed, ${n.changed.length} changed step${n.changed.length === 1 ? "" : "s"}.\n`;
  const warn = [
    ...d.risk.filter((r) => r.direction === "raised").map((r) => (r.from ? `risk of ${code(r.step)} raised to **${r.to}**` : `new step ${code(r.step)} at **${r.to}** risk`)),
    ...d.approvals.filter((a) => a.change === "removed").map((a) => `approval gate of ${code(a.step)} removed`),
    ...d.criteria.filter((c) => c.change === "removed" || c.change === "loosened").map((c) => `success criterion of ${code(c.step)} ${c.change}`),
  ];
  if (warn.length) out += `\n> [!WARNING]\n${warn.map((w) => `> - ${w}`).join("\n")}\n`;
  for (const s of secs) out += `\n#### ${s.title}\n\n${s.lines.map((l) => (l.startsWith("    ") ? `  - ${code(l.trim())}` : `- ${code(l)}`)).join("\n")}\n`;
  return out;
}
