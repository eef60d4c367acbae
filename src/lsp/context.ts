/**
 * Where the cursor is in a plan, read from the text itself (indentation and the line so
 * far), so completion works on the half-typed, unparseable text an editor holds.
 */

export interface CursorContext {
  /** The line up to the cursor. */
  before: string;
  /** Keys of the maps enclosing the cursor, outermost first: `["steps", "fetch", "with"]`. */
  keys: string[];
  /** The expression text from `${{` to the cursor, when the cursor is inside one. */
  expression?: string;
}

const KEY_LINE = /^(\s*)(?:-\s+)?([\w.$-]+|"[^"]*"|'[^']*')\s*:(?:\s|$)/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function unquote(key: string): string {
  return /^["']/.test(key) ? key.slice(1, -1) : key;
}

/** The cursor's context at `offset` of `text`. */
export function cursorContext(text: string, offset: number): CursorContext {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const lines = text.slice(0, lineStart).split("\n");
  lines.pop();
  const keys: string[] = [];
  // `key: value|`: the key on the cursor's own line encloses the value being typed.
  const own = KEY_LINE.exec(before);
  if (own) keys.unshift(unquote(own[2]!));
  const dash = /^(\s*)-(?:\s|$)/.exec(before);
  let indent = dash ? dash[1]!.length + 1 : before.trim() === "" ? before.length : indentOf(before);
  for (let i = lines.length - 1; i >= 0 && indent > 0; i--) {
    const line = lines[i]!;
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const lineIndent = indentOf(line);
    if (lineIndent >= indent) continue;
    const m = KEY_LINE.exec(line);
    if (m) {
      keys.unshift(unquote(m[2]!));
      // A `- key:` line: the item's keys sit at the key's column, the list at the dash's.
      indent = lineIndent;
    } else if (/^\s*-/.test(line)) {
      indent = lineIndent;
    }
  }
  const ctx: CursorContext = { before, keys };
  const open = before.lastIndexOf("${{");
  if (open >= 0 && before.indexOf("}}", open) < 0) ctx.expression = before.slice(open + 3);
  return ctx;
}

/** The word (identifier with dots and dashes) around `offset`, and its range. */
export function wordAt(text: string, offset: number): { word: string; start: number; end: number } | undefined {
  const isWord = (c: string | undefined) => c !== undefined && /[\w.\-]/.test(c);
  let start = offset;
  let end = offset;
  while (start > 0 && isWord(text[start - 1])) start--;
  while (end < text.length && isWord(text[end])) end++;
  if (start === end) return undefined;
  return { word: text.slice(start, end), start, end };
}

/** The id of the step whose definition holds the cursor (`steps.<id>` in `keys`). */
export function stepOf(keys: readonly string[]): string | undefined {
  return keys[0] === "steps" ? keys[1] : undefined;
}
