/**
 * A parsed source file with positions: the bridge from document paths (as the schema,
 * the resolver and lint rules name places) to source ranges (as diagnostics need them).
 */
import { LineIndex } from "../diagnostic.js";

/** A path into the document, as JSON pointer segments: `["steps", "read_csv", "risk"]`. */
export type DocPath = ReadonlyArray<string | number>;

export interface SourceDoc {
  file: string;
  text: string;
  index: LineIndex;
  /** The plain JS value of the document (after YAML/JSON parsing). */
  data: unknown;
  /**
   * The range of the node at `path`: its value, or with `part: "key"` the key that
   * names it in its parent map. Falls back to the deepest existing ancestor.
   */
  rangeOf(path: DocPath, part?: "key" | "value"): [number, number];
}
