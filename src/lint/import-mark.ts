/**
 * The mark an importer leaves on a plan converted from a format that cannot express
 * some of planspec (TaskBench has no success criteria and no deliverables): a top-level
 * `x-planspec-import: { format, cannot_express: [success, deliverables] }`. Rules that
 * would report the missing feature on every step report it once per plan instead
 * (`missing-success-criteria`), or read the plan as the format means it (`unused-output`:
 * a final result is what the plan returns). `--no-inline-config` ignores the mark like
 * any inline config, so a plan cannot use it to quieten the gate.
 */
import type { SourceDoc } from "../compiler/source.js";

export const IMPORT_KEY = "x-planspec-import";

/** DSL features an imported format cannot express. */
export const IMPORT_FEATURES = ["success", "deliverables"] as const;
export type ImportFeature = (typeof IMPORT_FEATURES)[number];

export interface ImportMark {
  format: string;
  cannotExpress: ImportFeature[];
}

/** The mark in JSON form, as an importer writes it. */
export function importMarkJson(format: string, cannotExpress: readonly ImportFeature[]): { format: string; cannot_express: ImportFeature[] } {
  return { format, cannot_express: [...cannotExpress] };
}

/** Reads the mark from a plan's root document; anything malformed is no mark. */
export function importMark(root: SourceDoc | undefined): ImportMark | undefined {
  const data = root?.data;
  if (!data || typeof data !== "object" || Array.isArray(data)) return undefined;
  const raw = (data as Record<string, unknown>)[IMPORT_KEY];
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  const { format, cannot_express: lacks } = raw as Record<string, unknown>;
  if (typeof format !== "string" || format.trim() === "" || !Array.isArray(lacks)) return undefined;
  const cannotExpress = IMPORT_FEATURES.filter((f) => lacks.includes(f));
  return cannotExpress.length ? { format, cannotExpress } : undefined;
}
