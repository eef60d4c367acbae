/**
 * The plan DAG as Mermaid and Graphviz DOT text: each step shows its kind and risk;
 * shapes follow the kind and colours the risk, so both are visible at a glance.
 */
import type { IRNode, PlanIR, Risk, StepKind } from "../ir.js";

const RISK_FILL: Record<Risk, string> = { read: "#e8f5e9", write: "#fff3e0", external: "#ffebee" };
const RISK_STROKE: Record<Risk, string> = { read: "#2e7d32", write: "#ef6c00", external: "#c62828" };

function label(n: IRNode): string {
  const flags = [n.approval?.required ? "approval" : "", n.repeat ? "repeat" : "", n.forEach ? "for_each" : ""].filter(Boolean);
  return `${n.id}\n${n.kind} · ${n.risk}${flags.length ? " · " + flags.join(" · ") : ""}`;
}

function mermaidId(i: number): string {
  return `n${i}`;
}

function mermaidText(s: string): string {
  return s.replace(/"/g, "#quot;").replace(/\n/g, "<br/>");
}

function mermaidShape(kind: StepKind, text: string): string {
  const t = `"${mermaidText(text)}"`;
  switch (kind) {
    case "decide":
      return `{${t}}`;
    case "approval":
      return `{{${t}}}`;
    case "read":
    case "search":
      return `[/${t}/]`;
    case "write":
      return `[(${t})]`;
    case "external":
      return `>${t}]`;
    case "phase":
      return `[[${t}]]`;
    case "verify":
      return `([${t}])`;
    default:
      return `[${t}]`;
  }
}

/** Mermaid flowchart source of the plan. */
export function toMermaid(ir: PlanIR): string {
  const idx = new Map(ir.nodes.map((n, i) => [n.id, i]));
  const lines = ["flowchart TD"];
  ir.nodes.forEach((n, i) => lines.push(`  ${mermaidId(i)}${mermaidShape(n.kind, label(n))}`));
  for (const n of ir.nodes) {
    for (const d of n.dependsOn) {
      const from = idx.get(d);
      if (from === undefined) continue;
      const producer = ir.nodes[from]!;
      const carries = producer.output && n.consumes.includes(d) ? `|${mermaidText(producer.output)}|` : "";
      lines.push(`  ${mermaidId(from)} -->${carries} ${mermaidId(idx.get(n.id)!)}`);
    }
  }
  for (const r of ["read", "write", "external"] as const) {
    lines.push(`  classDef ${r} fill:${RISK_FILL[r]},stroke:${RISK_STROKE[r]},color:#000`);
    const members = ir.nodes.map((n, i) => (n.risk === r ? mermaidId(i) : "")).filter(Boolean);
    if (members.length) lines.push(`  class ${members.join(",")} ${r}`);
  }
  return lines.join("\n") + "\n";
}

const DOT_SHAPE: Record<StepKind, string> = {
  read: "parallelogram",
  search: "parallelogram",
  analyze: "box",
  decide: "diamond",
  verify: "ellipse",
  write: "cylinder",
  external: "cds",
  approval: "hexagon",
  summarize: "note",
  phase: "box3d",
};

function dotString(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/** Graphviz DOT source of the plan. */
export function toDot(ir: PlanIR): string {
  const lines = [`digraph ${dotString(ir.name)} {`, "  rankdir=TB;", '  node [fontname="Helvetica", style=filled];'];
  for (const n of ir.nodes) {
    const attrs = [
      `label=${dotString(label(n))}`,
      `shape=${DOT_SHAPE[n.kind]}`,
      `fillcolor=${dotString(RISK_FILL[n.risk])}`,
      `color=${dotString(RISK_STROKE[n.risk])}`,
    ];
    if (n.approval?.required) attrs.push("penwidth=2.5");
    lines.push(`  ${dotString(n.id)} [${attrs.join(", ")}];`);
  }
  const byId = new Map(ir.nodes.map((n) => [n.id, n]));
  for (const n of ir.nodes) {
    for (const d of n.dependsOn) {
      const p = byId.get(d);
      const lbl = p?.output && n.consumes.includes(d) ? ` [label=${dotString(p.output)}]` : "";
      lines.push(`  ${dotString(d)} -> ${dotString(n.id)}${lbl};`);
    }
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}
