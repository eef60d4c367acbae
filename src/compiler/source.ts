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

/** What maps a document's paths to ranges (a parser's position index). */
export interface RangeFinder {
  rangeOf(path: DocPath, part: "key" | "value"): [number, number];
}

/**
 * A parsed document whose line index is built on first use (most plans are clean and never
 * need a line number). A class, not an object literal with a getter: V8 gives each such
 * literal a hidden class of its own (its getter is a new closure each time), made in the old
 * generation; a lint of the 5,571-plan corpus promoted ~10 MB more and ran an extra full
 * collection for them.
 */
export class LazyIndexDoc implements SourceDoc {
  #index: LineIndex | undefined;
  readonly #ranges: RangeFinder;

  constructor(
    public file: string,
    public text: string,
    public data: unknown,
    ranges: RangeFinder,
  ) {
    this.#ranges = ranges;
  }

  get index(): LineIndex {
    return (this.#index ??= new LineIndex(this.text));
  }

  rangeOf(path: DocPath, part: "key" | "value" = "value"): [number, number] {
    return this.#ranges.rangeOf(path, part);
  }
}
