/**
 * The colours of the pictures, in one place so the graph, its legend and the HTML
 * reports agree: fill by risk (plans) or by status (runs), outline by risk.
 */
import type { Risk } from "../ir.js";
import type { NodeStatus } from "../runtime/states.js";

export const RISK_FILL: Readonly<Record<Risk, string>> = { read: "#c8e6c9", write: "#ffe0b2", external: "#ffcdd2" };
export const RISK_STROKE: Readonly<Record<Risk, string>> = { read: "#2e7d32", write: "#e65100", external: "#c62828" };

export const STATUS_FILL: Readonly<Record<NodeStatus, string>> = {
  pending: "#eceff1",
  running: "#90caf9",
  done: "#a5d6a7",
  failed: "#ef9a9a",
  skipped: "#ffffff",
};

/** Statuses whose outline is dashed: the step did not (yet) run. */
export const DASHED_STATUS: ReadonlySet<NodeStatus> = new Set(["skipped"]);

export const EDGE_COLOR = "#546e7a";
export const TEXT_COLOR = "#1a1a1a";
export const MUTED_TEXT = "#455a64";
export const FONT = "Helvetica, Arial, 'DejaVu Sans', 'Liberation Sans', sans-serif";
