/**
 * What a program in a language the code reader does not read does, by the calls a reviewer
 * would quote: lua, R, julia and Tcl (tclsh, wish, expect) remove files (`os.remove`,
 * `unlink(…, recursive=TRUE)`, `file.remove`, `rm(…; recursive=true)`, `file delete -force`),
 * write them, and run command lines (`os.execute`, `system("…")`, julia's command literals,
 * `exec rm …`, expect's `spawn`); and vim's ex commands (`-c`, `+cmd`, or a script on stdin)
 * write the buffer (`w! /etc/x`, `%s/a/b/|wq`), empty it and save (`%d|x`), delete files
 * (`call delete("x")`) and run shell commands (`:!…`, `call system("…")`). Strings are
 * blanked before calls are matched, so `print("unlink(x)")` reads.
 */
import type { OptionCommand } from "./risk-option-commands.js";

/**
 * A shell with nothing to run but what reaches it: commands from the network (`EXEC:/bin/bash`, `nc -e /bin/sh`) or
 * what a program writes to it (`popen("sh", "w")`, perl's `open(P, "| sh")`, Tcl's `open |sh w`).
 */
export const BARE_SHELL = /^\s*(?:\S*\/)?(?:sh|bash|zsh|dash|ksh|fish)(?:\s+-[a-z]+)*\s*$/;

/** What a foreign program names: a command line to read, code the plan does not show, or a file effect of its own. */
const write = (what: string): OptionCommand => ({ effect: { destructive: false, what } });
const destroy = (what: string): OptionCommand => ({ effect: { destructive: true, what } });

interface Language {
  /** The calls that run a command line: group 2 is the line (group 1 a quote, or empty), or group 4 for a second form. */
  runs: RegExp;
  /** Calls whose first argument is a program and the second its arguments (R's `system2("find", c(".", "-delete"))`): group 2 the program. */
  argv?: RegExp;
  /** A command pipe opened (Tcl's `open "|rm -rf x"`, `open |sh w`): group 1, 2 or 3 the line. */
  pipes?: RegExp;
  /** Functions named to a caller (R's `do.call("unlink", …)`, `match.fun("unlink")(…)`) written as calls of them. */
  named?: (code: string) => string;
  /** Calls (matched on the code with its strings blanked) that remove files, and that write them. */
  destroys?: RegExp;
  writes?: RegExp;
  /** A call that runs a command line it builds (`system(paste(…))`): code the plan does not show. */
  builds?: RegExp;
  /** The string quotes and the comment mark of the language, for blanking. */
  quotes: string;
  comment: string;
}

const LUA: Language = {
  runs: /\b(?:os\.execute|io\.popen)\s*\(?\s*(["'])((?:(?!\1)[^\\]|\\.)*)\1/g,
  destroys: /\bos\.remove\s*\(/g,
  writes: /\bos\.rename\s*\(|\bio\.open\s*\([^)]*,\s*["'][wa]/g,
  quotes: "\"'",
  comment: "--",
};
const R: Language = {
  runs: /\bsystem\s*\(\s*(["'])((?:(?!\1)[^\\]|\\.)*)\1/g,
  argv: /\bsystem2\s*\(\s*(["'])((?:(?!\1)[^\\]|\\.)*)\1/g,
  named: (code) => code.replace(/\b(?:do\.call\s*\(\s*(["']?)([\w.:]+)\1\s*,|match\.fun\s*\(\s*(["']?)([\w.:]+)\3\s*\)\s*\()/g, (_m, _q, a: string | undefined, _r, b: string | undefined) => `${a ?? b}(`),
  destroys: /\b(?:unlink|file\.remove|fs::(?:file_delete|dir_delete))\s*\(/g,
  writes: /\b(?:writeLines|write\.csv2?|write\.table|write|saveRDS|save|file\.rename|file\.copy|file\.create|file\.append|dir\.create|writeBin|writeChar|sink|Sys\.chmod)\s*\(/g,
  builds: /\bsystem2?\s*\(\s*(?!["'\s])/g,
  quotes: "\"'",
  comment: "#",
};
const JULIA: Language = {
  // A command literal runs when it is handed to `run`, `read`, `success`, `pipeline`…: each one is read.
  runs: /`()([^`]*)`/g,
  destroys: /(?<![\w.])(?:(?:Base\.)?(?:Filesystem\.)?rm)\s*\(/g,
  writes: /(?<![\w.])(?:mv|cp|mkdir|mkpath|touch|chmod|chown|symlink|write(?!\s*\(\s*(?:stdout|stderr)\b))\s*\(|\bopen\s*\([^)]*,\s*["'][wa]/g,
  quotes: "\"",
  comment: "#",
};
/** Tcl, and expect (Tcl with spawn): commands stand first in a line, after `;`, or in brackets. */
const TCL: Language = {
  runs: /(?:^|[;\n\[{])\s*(?:spawn|exec|system)()\s+([^;\n\]}]+)/g,
  pipes: /(?:^|[;\n\[{])\s*open\s+(?:"\|([^"]*)"|\{\|([^}]*)\}|\|([^\s\]};]+))/g,
  destroys: /(?:^|[;\n\[{])\s*file\s+delete\b/g,
  writes: /(?:^|[;\n\[{])\s*(?:file\s+(?:rename|copy|mkdir|link)\b|open\s+\S+\s+["{]?[wa])/g,
  quotes: "",
  comment: "",
};

/** Scheme (guile, racket): `(system "…")` a command line, `(system* "rm" "-rf" p)` a program and its arguments. */
const SCHEME: Language = {
  runs: /\(\s*(?:system|process)\s+(")((?:[^"\\]|\\.)*)"|\(\s*(?:system\*|process\*)()\s+((?:"(?:[^"\\]|\\.)*"\s*)+)/g,
  destroys: /\(\s*(?:delete-file|delete-directory(?:\/files)?|rmdir)(?=[\s)])/g,
  writes: /\(\s*(?:rename-file|copy-file|make-directory|mkdir|with-output-to-file|call-with-output-file|open-output-file)(?=[\s)])/g,
  builds: /\(\s*system\*?\s+(?!["\s])/g,
  quotes: "\"",
  comment: ";",
};

/** The languages by program. */
const LANGUAGES: Readonly<Record<string, Language>> = {
  lua: LUA,
  luajit: LUA,
  Rscript: R,
  R,
  julia: JULIA,
  tclsh: TCL,
  wish: TCL,
  jimsh: TCL,
  expect: TCL,
  guile: SCHEME,
  racket: SCHEME,
};

/** The programs whose code foreignCode reads, and those that read it on stdin when given no script. */
export const FOREIGN_PROGRAMS: ReadonlySet<string> = new Set(Object.keys(LANGUAGES));

/** What `program`'s code does: the command lines it runs, and the files it removes or writes. */
export function foreignCode(program: string, text: string): OptionCommand[] {
  let code = text;
  const language = LANGUAGES[program];
  if (language === undefined) return [];
  const out: OptionCommand[] = [];
  if (language.named) code = language.named(code);
  // (A shell given nothing to run, `open |sh w`, runs what the program writes to it.)
  const run = (line: string): number => out.push(BARE_SHELL.test(line) ? { unshown: `${program} ${line.trim()} on a pipe` } : { command: line });
  for (const m of code.matchAll(language.runs)) run((m[2] ?? m[4]!).replace(/\\(.)/g, "$1"));
  for (const m of language.pipes ? code.matchAll(language.pipes) : []) run(m[1] ?? m[2] ?? m[3]!);
  for (const m of language.argv ? code.matchAll(language.argv) : []) {
    const given = programArguments(code.slice(m.index + m[0].length, m.index + m[0].length + 2048));
    if (given === undefined) out.push({ unshown: `${program} ${m[0]}, …)` });
    else run([m[2]!, ...given].join(" "));
  }
  const blanked = blank(code, language);
  for (const m of language.destroys ? blanked.matchAll(language.destroys) : []) out.push(destroy(`${program} ${m[0].replace(/^[\s;\n[{]+|\s*\($/g, "")}`));
  for (const m of language.writes ? blanked.matchAll(language.writes) : []) out.push(write(`${program} ${m[0].replace(/^[\s;\n[{]+|\s*\(.*$/g, "")}`));
  for (const m of language.builds ? blanked.matchAll(language.builds) : []) out.push({ unshown: `${program} ${m[0].trim()}…)` });
  return out;
}

/**
 * The arguments after a program in R's `system2(program, args)`, pasted as R pastes them (`c("-rf", "/data")`, one
 * string, none); undefined when they are built at run time (a name, `paste(…)`, `shQuote(…)`): not shown.
 */
function programArguments(rest: string): string[] | undefined {
  if (/^\s*(?:\)|,\s*[A-Za-z_.]+\s*=)/.test(rest)) return [];
  const m = /^\s*,\s*(?:c\s*\(([^()]*)\)|((["'])(?:(?!\3)[^\\]|\\.)*\3))\s*[,)]/.exec(rest);
  const literals = m?.[1] ?? m?.[2];
  if (literals === undefined || !/^\s*(?:(["'])(?:(?!\1)[^\\]|\\.)*\1\s*(?:,\s*|$))*$/.test(literals)) return undefined;
  return [...literals.matchAll(/(["'])((?:(?!\1)[^\\]|\\.)*)\1/g)].map((s) => s[2]!);
}

/** The code with the inside of its strings and its comments replaced by spaces. */
function blank(code: string, language: Language): string {
  let out = "";
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (language.quotes.includes(c)) {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === "\\" ? 2 : 1;
      out += c + " ".repeat(Math.max(0, Math.min(j, code.length) - i - 1)) + (j < code.length ? c : "");
      i = j;
    } else if (language.comment !== "" && code.startsWith(language.comment, i)) {
      const nl = code.indexOf("\n", i);
      const end = nl < 0 ? code.length : nl;
      out += " ".repeat(end - i);
      i = end - 1;
    } else out += c;
  }
  return out;
}

/** vim's commands that save the buffer (`w`, `w!`, `wq`, `x`, `up`, `sav`), with their abbreviations. */
const EX_WRITE = /^(?:w(?:r(?:i(?:te?)?)?)?|wq|wqa(?:ll)?|wa(?:ll)?|x(?:it?)?|xa(?:ll)?|exi(?:t)?|up(?:d(?:a(?:te?)?)?)?|sav(?:e(?:as?)?)?)!?(?=\s|$)/;
/** Ex commands that only read, quit or move (no write follows from them alone). */
const EX_WHOLE_DELETE = /^(?:%|1\s*,\s*\$)\s*d(?:e(?:l(?:e(?:te?)?)?)?)?!?\s*$/;

/**
 * What ex commands do (one `-c` value, a `+cmd`, or a script's lines): `!cmd`, `r !cmd` and `w !cmd` run a
 * shell command line (the rest of the text, `|` included), `call system("…")` runs its string, `delete(…)`
 * removes a file, `rename(…)` and `writefile(…)` write one, and saving the buffer writes its file (all of
 * it deleted first, `%d|x`: destroyed). `state.emptied`: an earlier command deleted all its lines.
 */
export function exCommands(text: string, out: OptionCommand[], state = { emptied: false }): void {
  let at = 0;
  while (at < text.length) {
    const lead = /[\s:]*(?:sil(?:ent)?!?\s+)?/y;
    lead.lastIndex = at;
    lead.exec(text);
    at = lead.lastIndex;
    // `!cmd`, `%!cmd`, `r !cmd`, `w !cmd` (not `w! file`): the rest of the line, bars and all, is the shell's.
    const bang = /[%.$\d,]*(?:r(?:e(?:ad?)?)?\s*|w(?:r(?:i(?:te?)?)?)?\s+)?!/y;
    bang.lastIndex = at;
    if (at < text.length && bang.exec(text)) {
      const nl = text.indexOf("\n", bang.lastIndex);
      out.push({ command: text.slice(bang.lastIndex, nl < 0 ? text.length : nl) });
      at = nl < 0 ? text.length : nl + 1;
      continue;
    }
    const end = barAt(text, at);
    const one = text.slice(at, end).trim();
    at = end + 1;
    for (const m of one.matchAll(/\bsystem(?:list)?\s*\(\s*(["'])((?:(?!\1)[^\\]|\\.)*)\1/g)) out.push({ command: m[2]!.replace(/\\(.)/g, "$1") });
    if (/\bsystem(?:list)?\s*\(\s*(?!["'])/.test(one)) out.push({ unshown: "vim system(…)" });
    // (Names inside a string are text: `echo "delete(x)"`.)
    const bare = one.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, (q) => " ".repeat(q.length));
    if (/(?<![\w#])delete\s*\(/.test(bare)) out.push(destroy("vim delete()"));
    const written = /(?<![\w#])(rename|writefile|mkdir)\s*\(/.exec(bare);
    if (written) out.push(write(`vim ${written[1]}()`));
    // `exe "!rm -rf x"`, `execute 'call delete("x")'`: the string is an ex command.
    const exe = /^exe(?:c(?:u(?:te?)?)?)?\s+(["'])((?:(?!\1)[^\\]|\\.)*)\1\s*$/.exec(one);
    if (exe) exCommands(exe[2]!, out, state);
    // `source x.vim`, `runtime x.vim`: a script the plan does not show.
    if (/^(?:so(?:u(?:r(?:ce?)?)?)?|ru(?:n(?:t(?:i(?:me?)?)?)?)?)!?\s+\S/.test(one)) out.push({ unshown: `vim ${one}` });
    // `normal ggdG` empties the buffer as `%d` does; `exe "normal :!rm -rf x\r"` types an ex command.
    const keys = /^norm(?:a(?:l)?)?!?\s+(.*)$/.exec(one)?.[1];
    if (keys !== undefined && /gg(?:"\w)?dG|ggVG[dx]/.test(keys)) state.emptied = true;
    if (keys?.includes(":")) exCommands(keys.slice(keys.indexOf(":") + 1).replace(/\\r|<CR>|\r/gi, "\n"), out, state);
    if (EX_WHOLE_DELETE.test(one)) state.emptied = true;
    const saved = EX_WRITE.exec(one);
    if (saved) out.push(state.emptied ? destroy(`vim %d|${saved[0]}`) : write(`vim ${saved[0]}`));
  }
}

/** Where the ex command at `from` ends: its first `|` or line end outside a string (the text's end if none). */
function barAt(cmd: string, from: number): number {
  let quote = "";
  for (let i = from; i < cmd.length; i++) {
    const c = cmd[i]!;
    if (c === "\n") return i;
    if (quote !== "") {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "|") return i;
  }
  return cmd.length;
}
