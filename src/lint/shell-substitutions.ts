/**
 * Where a command line's command substitutions are (`$(…)`, backquotes), as a shell finds
 * them: in unquoted text and in double quotes, not in single quotes, nested in each other;
 * and where each stands in its simple command (the command's place, an argument). One pass
 * over the text; the shell reader (risk-shell.ts) decides what each runs.
 */

/** A command substitution found in a command line. */
export interface Substitution {
  /** Where `$(` or the opening backquote is, and the index just after its closing `)` or backquote (the text's end when none closes it). */
  start: number;
  end: number;
  /** The command line inside. */
  inner: string;
  /** Opened inside double quotes: its output is part of one word, and the splitter keeps it in that word unread. */
  quoted: boolean;
  /** It starts a word. */
  wordStart: boolean;
  /** Another substitution opens inside it. */
  nesting: boolean;
  /** A process substitution (`<(…)`, `>(…)`): its output is read as a file, not written into the line. */
  process: boolean;
  /** Its `)` or backquote closes it (one never closed is a syntax error: nothing on the line runs). */
  closed: boolean;
  /** The words of its simple command before it (none: it stands in the command's place). */
  before: WordsSeen;
}

/** What is known of the words before a place in a simple command, kept in constant space. */
export interface WordsSeen {
  /** How many words. */
  count: number;
  /** The first and the last of them (as written, quotes removed). */
  first: string;
  last: string;
  /** All of them words that come before a command (`sudo`, `A=1`, `then`): the next word is the command's. */
  prefixOnly: boolean;
  /** One of them after the first is a shell's `-c` (`-c`, `-lc`). */
  sawC: boolean;
  /** What the reader of prefixes keeps between the words (the wrapper they belong to); opaque here. */
  wrapper: string;
}

/** Whether a word comes before the command's own (a wrapper, an assignment, a keyword), and the state kept for the next. */
export type PrefixReader = (word: string, seen: WordsSeen) => { prefix: boolean; wrapper: string };

interface Frame {
  kind: "root" | "sub" | "tick" | "dq";
  /** For a substitution: where it opened, its parentheses still open inside, whether it is arithmetic (`$((…))`). */
  start: number;
  parens: number;
  arithmetic: boolean;
  process: boolean;
  nesting: boolean;
  quoted: boolean;
  wordStart: boolean;
  before: WordsSeen;
  /** For a command context: the words of its current simple command, and the word being read. */
  seen: WordsSeen;
  word: string;
  inWord: boolean;
}

const NONE: WordsSeen = { count: 0, first: "", last: "", prefixOnly: true, sawC: false, wrapper: "" };

/**
 * Every command substitution of `text` (arithmetic `$((…))` is not one, though what it holds is searched) and process
 * substitution (`<(…)`), in the order they close. `isPrefix(word, seen)` says whether a word comes before the command's own (a wrapper, an
 * assignment, a keyword), and what to keep for the next word.
 */
export function substitutions(text: string, isPrefix: PrefixReader): Substitution[] {
  const found: Substitution[] = [];
  const frame = (kind: Frame["kind"], start: number, before: WordsSeen, quoted: boolean, wordStart: boolean, arithmetic = false, process = false): Frame => ({
    kind,
    start,
    parens: 0,
    arithmetic,
    process,
    nesting: false,
    quoted,
    wordStart,
    before,
    seen: NONE,
    word: "",
    inWord: false,
  });
  const stack: Frame[] = [frame("root", 0, NONE, false, false)];
  /** The command context a character belongs to: the innermost frame that is not a double quote. */
  let command = stack[0]!;
  const reset = (): void => {
    command = stack[stack.length - 1]!.kind === "dq" ? stack[stack.length - 2]! : stack[stack.length - 1]!;
  };
  const endWord = (f: Frame): void => {
    if (!f.inWord) return;
    const w = f.word;
    const s = f.seen;
    // (Once a word is the command's, the words after it are its arguments: the reader is not asked again.)
    const p = s.prefixOnly ? isPrefix(w, s) : { prefix: false, wrapper: s.wrapper };
    f.seen = { count: s.count + 1, first: s.count === 0 ? w : s.first, last: w, prefixOnly: p.prefix, sawC: s.sawC || (s.count > 0 && /^-[a-z]*c$/.test(w)), wrapper: p.wrapper };
    f.word = "";
    f.inWord = false;
  };
  const endCommand = (f: Frame): void => {
    endWord(f);
    f.seen = NONE;
  };
  const open = (kind: "sub" | "tick", at: number, arithmetic = false, process = false): void => {
    const top = stack[stack.length - 1]!;
    const quoted = top.kind === "dq";
    // (`"$(echo rm)" -rf x`: first in double quotes that open a word, it still starts the word.)
    const wordStart = quoted ? top.wordStart && at === top.start + 1 : !command.inWord;
    // The substitution's output is part of the word it stands in.
    command.inWord = true;
    command.nesting = true;
    stack.push(frame(kind, at, command.seen, quoted, wordStart, arithmetic, process));
    reset();
  };
  /** Closes the innermost substitution at `at`, just after its `)` or backquote (`closed`), or at the text's end. */
  const close = (at: number, closed = true): void => {
    const f = stack.pop()!;
    endCommand(f);
    if (!f.arithmetic) found.push({ start: f.start, end: at, inner: text.slice(f.start + (f.kind === "sub" ? 2 : 1), closed ? at - 1 : at), quoted: f.quoted, wordStart: f.wordStart, nesting: f.nesting, process: f.process, closed, before: f.before });
    reset();
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const top = stack[stack.length - 1]!;
    if (c === "\\") {
      command.word += text[i + 1] ?? "";
      command.inWord = true;
      i++;
    } else if (top.kind === "dq") {
      if (c === '"') {
        stack.pop();
        reset();
      } else if (c === "$" && text[i + 1] === "(") open("sub", i++, text[i + 1] === "(");
      else if (c === "`") open("tick", i);
      else command.word += c;
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const end = close < 0 ? text.length : close;
      command.word += text.slice(i + 1, end);
      command.inWord = true;
      i = end;
    } else if (c === '"') {
      const wordStart = !command.inWord;
      command.inWord = true;
      stack.push(frame("dq", i, NONE, false, wordStart));
    } else if (c === "$" && text[i + 1] === "(") open("sub", i++, text[i + 1] === "(");
    else if ((c === "<" || c === ">") && text[i + 1] === "(") open("sub", i++, false, true);
    else if (c === "`") {
      if (top.kind === "tick") close(i + 1);
      else open("tick", i);
    } else if (c === ")" && top.kind === "sub" && top.parens === 0) close(i + 1);
    else if (c === "(") {
      top.parens++;
      endCommand(top);
    } else if (c === ")") {
      top.parens = Math.max(0, top.parens - 1);
      endCommand(top);
    } else if (c === ";" || c === "&" || c === "|" || c === "\n") endCommand(top);
    else if (c === " " || c === "\t") endWord(top);
    else if (c === "#" && !top.inWord) {
      const nl = text.indexOf("\n", i);
      i = (nl < 0 ? text.length : nl) - 1;
    } else {
      top.word += c;
      top.inWord = true;
    }
  }
  // Substitutions never closed run to the text's end.
  while (stack.length > 1) {
    if (stack[stack.length - 1]!.kind === "dq") stack.pop();
    else close(text.length, false);
  }
  return found;
}
